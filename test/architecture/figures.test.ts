/**
 * Every figure the README quotes can be produced again: each has a row in docs/figures.md that
 * names the command producing it (and the machine or report), and no row outlives its figure.
 * What counts as a figure is written out in docs/figures.md and implemented in ./markdown.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { figuresOf, figuresOfLine, readableText, tableCells } from "./markdown.js";

const root = join(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const figuresDoc = readFileSync(join(root, "docs/figures.md"), "utf8");
const MAX_README_LINES = 300;
const COMMAND = /\b(?:npm run [\w:-]+|node \S+|npx \S+)/;

interface Row {
  readonly figure: string;
  readonly command: string | undefined;
  readonly line: number;
}

/** The rows of figures.md's table of README figures: figure, what, command, where. */
function rows(): Row[] {
  const lines = figuresDoc.split("\n");
  const start = lines.findIndex((l) => l.startsWith("## The README's figures"));
  expect(start, "docs/figures.md has a section '## The README's figures'").toBeGreaterThan(0);
  const out: Row[] = [];
  for (let i = start + 1; i < lines.length && !lines[i]!.startsWith("## "); i++) {
    const line = lines[i]!;
    if (!line.startsWith("|") || /^\|\s*-{3}/.test(line)) continue;
    const [figure, , command] = tableCells(line);
    if (figure === "figure") continue;
    out.push({
      figure: (figure ?? "").replace(/`/g, "").replace(/\s+/g, " "),
      command: COMMAND.exec(command ?? "")?.[0],
      line: i + 1,
    });
  }
  return out;
}

describe("the figures rule (docs/figures.md)", () => {
  it("takes numbers with units, ranges, ratios, counts and bare numbers in table cells", () => {
    const text =
      "ingest in 1.04x-1.23x, a slice in 0.47-0.76 ms (p50), 50 KB to 50 MB, 179 of 180, 4/4, 0.38% and 12 s";
    expect(figuresOfLine(text)).toEqual([
      "1.04x-1.23x",
      "0.47-0.76 ms",
      "50 KB to 50 MB",
      "0.38%",
      "12 s",
      "179 of 180",
      "4/4",
    ]);
    expect(figuresOfLine("| spillway | 99.4% | 5,464 |")).toEqual(["99.4%", "5,464"]);
  });

  it("leaves out code, link targets, versions, model names and numbers inside words", () => {
    const markdown = [
      "Node 20, Qwen2.5-Coder 1.5B, a 2-core machine, o200k_base, seven kinds, 180 tasks.",
      "The default is `12288` bytes; see [the 5 MB run](docs/x.md#run-10-ms).",
      "<!-- live figures: 4/4 -->",
      "```sh",
      "npm run eval -- --sizes 5MB   # 5 MB, 3 s",
      "```",
    ].join("\n");
    expect([...figuresOf(markdown).keys()]).toEqual(["5 MB"]);
    expect(readableText("a `7 ms` b")).toBe("a   b");
  });
});

describe("README", () => {
  it(`has at most ${MAX_README_LINES} lines`, () => {
    expect(readme.split("\n").length - 1).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it("names, for every figure, a row of docs/figures.md with the command that produces it", () => {
    const figures = figuresOf(readme);
    expect(figures.size, "README quotes figures").toBeGreaterThan(10);
    const byFigure = new Map(rows().map((row) => [row.figure, row]));
    const missing = [...figures]
      .filter(([figure]) => byFigure.get(figure)?.command === undefined)
      .map(
        ([figure, line]) =>
          `README.md:${line}: "${figure}" has no row in docs/figures.md naming its command (npm run …, node …, npx …)`,
      );
    expect(missing).toEqual([]);
  });

  it("has no row in docs/figures.md for a figure it no longer quotes", () => {
    const figures = figuresOf(readme);
    const stale = rows()
      .filter((row) => !figures.has(row.figure))
      .map((row) => `docs/figures.md:${row.line}: "${row.figure}" is not in README.md`);
    expect(stale).toEqual([]);
  });
});

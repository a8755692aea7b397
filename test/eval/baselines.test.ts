/**
 * The peer policies show the model exactly what their sources say (eval/policy-info.ts): these
 * pin the cut points and texts, so a change to a re-implementation cannot pass unnoticed.
 */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { viewOf } from "../../eval/baselines.js";
import { type Prepared, prepare } from "../../eval/prepared.js";
import { generateWorkload } from "../../eval/workload.js";
import { loadTokenizer } from "../../src/core/tokens.js";

const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

async function prepared(kind: "log" | "cjk" | "json-min", size: "50KB" | "500KB") {
  const tokenizer = await loadTokenizer("o200k_base");
  return prepare(generateWorkload(kind, size, 3), (t) => tokenizer.count(t));
}

describe("peer views", () => {
  let log: Prepared;
  let cjk: Prepared;
  beforeAll(async () => {
    log = await prepared("log", "500KB");
    cjk = await prepared("cjk", "500KB");
  });

  it("Codex CLI: line count header, 128 head and tail lines within 10 KiB, omission marker", () => {
    const text = log.workload.text;
    const lines = log.lineStarts.length;
    const view = viewOf("codex-head-tail", log).text;
    expect(view.startsWith(`Total output lines: ${lines}\n\n`)).toBe(true);
    expect(view).toContain(`\n[... omitted ${lines - 256} of ${lines} lines ...]\n\n`);
    const body = view.slice(`Total output lines: ${lines}\n\n`.length);
    expect(utf8(body)).toBeLessThanOrEqual(10 * 1024);
    const [head, tail] = body.split(/\n\[\.\.\. omitted \d+ of \d+ lines \.\.\.\]\n\n/);
    expect(text.startsWith(head!)).toBe(true);
    expect(text.endsWith(tail!)).toBe(true);
    // The head is clipped to 5 KiB, so it holds fewer than the 128 lines it may take.
    expect(utf8(head!)).toBeLessThanOrEqual(5 * 1024);
  });

  it("OpenHands: exactly the first 16,000 characters and the clipped notice", () => {
    const view = viewOf("openhands-head", log).text;
    expect(view.slice(0, 16_000)).toBe(log.workload.text.slice(0, 16_000));
    expect(view.slice(16_000)).toMatch(/^<response clipped><NOTE>To save on context .*<\/NOTE>$/);
  });

  it("seed 50/50: 6,144 bytes each side on character boundaries (CJK), with the byte count cut", () => {
    const text = cjk.workload.text;
    const view = viewOf("seed-50-50", cjk);
    const match = /\n\[\.\.\. (\d+) bytes truncated \.\.\.\]\n/.exec(view.text)!;
    const head = view.text.slice(0, match.index);
    const tail = view.text.slice(match.index + match[0].length);
    expect(utf8(head)).toBeLessThanOrEqual(6_144);
    expect(utf8(head)).toBeGreaterThan(6_144 - 4);
    expect(utf8(tail)).toBeLessThanOrEqual(6_144);
    expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
    expect(Number(match[1])).toBe(utf8(text) - utf8(head) - utf8(tail));
    expect(head).not.toContain("\uFFFD");
  });

  it("older Claude Code MCP: the whole output up to 25,000 tokens, else only the error", async () => {
    const small = await prepared("log", "50KB");
    expect(small.outputTokens).toBeLessThan(25_000);
    expect(viewOf("claude-mcp-25k", small).text).toBe(small.workload.text);
    const view = viewOf("claude-mcp-25k", log);
    expect(view.text).toBe(
      `MCP tool "data__fetch" response (${log.outputTokens} tokens) exceeds maximum allowed tokens (25000). Please use pagination, filtering, or limit parameters to reduce the response size.`,
    );
    expect(view.ranges).toEqual([]);
  });

  it("raw passthrough fails when the output is over the tool-result budget", () => {
    expect(viewOf("raw", log).failure).toMatch(/^context overflow/);
    expect(() => viewOf("spillway", log)).toThrow("spillway is not a single-view policy");
  });
});

describe("npm run eval arguments", () => {
  it("names the bad value and what is valid, and exits 2 without running", () => {
    const run = spawnSync("npx", ["tsx", "eval/main.ts", "--kinds", "log,yaml"], {
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      "--kinds: unknown yaml; valid: log, json-pretty, json-min, csv, markdown, code, cjk",
    );
    expect(run.stdout).toBe("");
  });
});

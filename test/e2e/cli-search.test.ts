/**
 * `spillway outputs search` end to end: the built binary, a temp home, one output by words and
 * a whole session, stored text printed with its control characters escaped.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../helpers/built-cli.js";

let home: string;
let work: string;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), "spillway-search-home-"));
  work = await mkdtemp(join(tmpdir(), "spillway-search-work-"));
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cwd: work, home });

async function put(name: string, text: string, session: string): Promise<string> {
  await writeFile(join(work, name), text);
  const stored = await cli(["outputs", "put", name, "--session", session]);
  expect(stored.code).toBe(0);
  return stored.stdout.trim();
}

describe("outputs search", () => {
  it("prints the best lines as SCORE  LINE: text, words and counts on stderr", async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i + 1} status ok`);
    lines[311] = "line 312 kernel BOOT-MARKER-ALPHA=7f3a9c \u001b[2J set";
    lines[400] = "line 401 boot only";
    const id = await put("boot.log", `${lines.join("\n")}\n`, "ses_cli");
    const found = await cli(["outputs", "search", id, "boot marker"]);
    expect(found.code).toBe(0);
    const rows = found.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(
      /^\d+\.\d\d {2}312: line 312 kernel BOOT-MARKER-ALPHA=7f3a9c \\x1b\[2J set$/,
    );
    expect(rows[1]).toMatch(/^ *\d+\.\d\d {2}401: line 401 boot only$/);
    expect(found.stderr).toContain(
      `# 2 matching lines in ${id} (lines holding each word: boot: 2, marker: 1); best first`,
    );
    const json = await cli([
      "--json",
      "outputs",
      "search",
      id,
      "what is the boot marker",
      "--max",
      "1",
    ]);
    const result = JSON.parse(json.stdout) as {
      matches: { line: number; text: string }[];
      ignoredWords: string[];
    };
    expect(result.matches.map((m) => m.line)).toEqual([312]);
    expect(result.matches[0]!.text).toContain("\u001b[2J");
    expect(result.ignoredWords).toEqual(["what", "is", "the"]);
    // Every other line holds "status ok" alone: coverage keeps their order, from the end on request.
    const latest = await cli([
      "outputs",
      "search",
      id,
      "status",
      "--max",
      "2",
      "--ranking",
      "coverage",
      "--latest-first",
    ]);
    expect(
      latest.stdout
        .trimEnd()
        .split("\n")
        .map((row) => row.split(":")[0]!.trim().split(/ +/)[1]),
    ).toEqual(["500", "499"]);
    expect(latest.stderr).toContain("score then line from the end (coverage ranking)");
    const wrong = await cli(["outputs", "search", id, "status", "--ranking", "tfidf"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("bm25, coverage");
  });

  it("--session searches every output of a session, naming the output of each line", async () => {
    const log = await put("a.log", "deploy started\nBOOT-MARKER-BETA ready\n", "ses_two");
    const notes = await put("notes.txt", "サーバーの起動マーカーはBOOT-7です。\n", "ses_two");
    await put("other.txt", "boot marker of another session\n", "ses_three");
    const found = await cli(["outputs", "search", "--session", "ses_two", "起動マーカー boot"]);
    expect(found.code).toBe(0);
    const rows = found.stdout.trimEnd().split("\n");
    expect(rows[0]).toContain(`${notes}:1: サーバーの起動マーカーはBOOT-7です。`);
    expect(rows[1]).toContain(`${log}:2: BOOT-MARKER-BETA ready`);
    expect(rows).toHaveLength(2);
    expect(found.stderr).toContain("in 2 outputs of session ses_two");
  });

  it("refuses a query with no words, naming the argument, exit 1; a missing query exits 2", async () => {
    const id = await put("x.txt", "anything\n", "ses_bad");
    const empty = await cli(["outputs", "search", id, "the of"]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("INVALID_ARGUMENT");
    expect(empty.stderr).toContain("query");
    const missing = await cli(["outputs", "search", id]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("needs the words to find");
  });
});

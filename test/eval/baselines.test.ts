/**
 * The peer policies show the model exactly what their sources say (eval/policy-info.ts): these
 * pin the cut points and texts, so a change to a re-implementation cannot pass unnoticed.
 */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { viewOf } from "../../eval/baselines.js";
import { type Episode, REQUEST_TOKEN_LIMIT } from "../../eval/episode.js";
import { runPeerPolicy } from "../../eval/peers.js";
import { type Prepared, prepare } from "../../eval/prepared.js";
import { summarize } from "../../eval/summary.js";
import { generateWorkload } from "../../eval/workload.js";
import { loadTokenizer } from "../../src/core/tokens.js";
import { tempDir } from "../helpers/temp-store.js";

const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

async function prepared(kind: "log" | "cjk" | "json-min", size: "50KB" | "500KB") {
  const tokenizer = await loadTokenizer("o200k_base");
  return prepare(generateWorkload(kind, size, 3), (t) => tokenizer.count(t));
}

describe("peer views", () => {
  let log: Prepared;
  let cjk: Prepared;
  let minified: Prepared;
  beforeAll(async () => {
    log = await prepared("log", "500KB");
    cjk = await prepared("cjk", "500KB");
    minified = await prepared("json-min", "50KB");
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
    // The head is the first 128 lines clipped to 5 KiB; the tail fills the rest of 10 KiB.
    expect(utf8(head!)).toBeLessThanOrEqual(5 * 1024);
    expect(utf8(head!)).toBeGreaterThan(5 * 1024 - 4);
    const marker = `\n[... omitted ${lines - 256} of ${lines} lines ...]\n\n`;
    expect(utf8(tail!)).toBeLessThanOrEqual(10 * 1024 - utf8(head!) - utf8(marker));
    expect(utf8(tail!)).toBeGreaterThan(10 * 1024 - utf8(head!) - utf8(marker) - 4);
  });

  it("Codex CLI: one long line keeps only its head, with the byte marker", () => {
    const view = viewOf("codex-head-tail", minified).text;
    const header = "Total output lines: 1\n\n";
    const marker = "\n[... output truncated to fit 10240 bytes ...]\n\n";
    expect(view.startsWith(header)).toBe(true);
    expect(view.endsWith(marker)).toBe(true);
    const head = view.slice(header.length, -marker.length);
    expect(minified.workload.text.startsWith(head)).toBe(true);
    expect(utf8(head)).toBeGreaterThan(5 * 1024 - 4);
    expect(utf8(head)).toBeLessThanOrEqual(5 * 1024);
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

  it("raw passthrough fails when the request holding the output does not fit the window", () => {
    expect(viewOf("raw", log).failure).toMatch(/^context overflow/);
    expect(() => viewOf("spillway", log)).toThrow("spillway is not a single-view policy");
  });
});

describe("peer tools on long lines and long conversations", () => {
  it("Claude Code's Read cuts a 51,000-character line at 2,000: the minified middle is out of reach", async () => {
    const minified = await prepared("json-min", "50KB");
    expect(minified.workload.text.length).toBeGreaterThan(50_000);
    const dir = await tempDir("spillway-eval-read-");
    const episodes = await runPeerPolicy("spill-to-file", minified, dir);
    const middle = episodes.find((e) => e.position === "middle")!;
    expect(middle.correct).toBe(false);
    // It grepped, found only "[Omitted long line]", read line 1 (cut at 2,000), and said so.
    expect(middle.retrieved).toBe(true);
    expect(middle.report).toBe("I could not find it in what I read.");
    // What it saw: the 2 KB preview and 2,000 characters of the line, nothing past them.
    expect(middle.visibleFraction!).toBeLessThan(2_100 / minified.workload.text.length);
    // The same file with a shell: grep -o and jq reach inside the line.
    const shell = await runPeerPolicy("spill-to-file-shell", minified, dir);
    expect(shell.find((e) => e.position === "middle")!.correct).toBe(true);
  });

  it("paging resends every page, and never answers from a request that did not fit", async () => {
    const tokenizer = await loadTokenizer("o200k_base");
    const big = await prepare(generateWorkload("log", "500KB", 3), (t) => tokenizer.count(t));
    const episodes = await runPeerPolicy("paging-4000", big, await tempDir("spillway-eval-page-"));
    const full = episodes.filter((e) => e.failure?.startsWith("context overflow"));
    expect(full.length).toBeGreaterThan(0);
    for (const e of full) expect(e.correct).toBe(false);
    const start = episodes.find((e) => e.position === "start")!;
    expect(start).toMatchObject({ correct: true, requests: 2 });
    // A request holds every page read so far: tokens sent grow with the square of the pages.
    const far = episodes.find((e) => e.correct && e.requests > 20);
    if (far) expect(far.tokensSent).toBeGreaterThan(far.tokensExposed * (far.requests / 4));
    for (const e of full) expect(e.tokensSent).toBeGreaterThan(REQUEST_TOKEN_LIMIT);
  });
});

describe("summarize", () => {
  const episode = (over: Partial<Episode>): Episode => ({
    policy: "codex-head-tail",
    taskId: "log/50KB/start",
    kind: "log",
    size: "50KB",
    position: "start",
    correct: true,
    answer: "ANS-AAAAAA",
    report: "The answer is ANS-AAAAAA.",
    invented: false,
    retrieved: false,
    tokensSent: 150,
    requests: 2,
    tokensExposed: 100,
    outputTokens: 1_000,
    toolCalls: 0,
    wallMs: 1,
    visibleFraction: 0.1,
    lossless: null,
    failure: null,
    ...over,
  });

  it("says nothing of losslessness when spillway did not run, and takes the largest size by bytes", () => {
    const s = summarize(
      [episode({}), episode({ size: "500KB", taskId: "log/500KB/start" })],
      ["500KB", "50KB"],
      "scripted",
    );
    expect(s.spillwayLossless).toBeNull();
    expect(s.largestSize).toBe("500KB");
    expect(s.policies["codex-head-tail"]).toMatchObject({
      model: "scripted",
      tasks: 2,
      recall: 1,
      retrievalBeforeAnswerRate: null,
      inventedRate: 0,
      medianTokensPerRightAnswer: 150,
    });
  });

  it("pairs spillway and paging on the tasks both answered right, and rates retrieval and invention", () => {
    const tasks = ["a", "b", "c", "d"];
    const s = summarize(
      [
        ...tasks.map((t, i) =>
          episode({
            policy: "spillway",
            taskId: t,
            tokensSent: 2_000 + i,
            retrieved: i < 3,
            invented: i === 3,
            correct: i < 3,
            lossless: true,
          }),
        ),
        ...tasks.map((t, i) =>
          episode({
            policy: "paging-4000",
            taskId: t,
            correct: i < 2,
            retrieved: true,
            tokensSent: i === 0 ? 4_000 : i === 1 ? 40_000 : 900_000,
          }),
        ),
      ],
      ["50KB"],
      "scripted",
    );
    expect(s.paired).toEqual({
      tasks: 2,
      spillwayMedian: 2_000.5,
      pagingMedian: 22_000,
      medianRatio: (4_000 / 2_000 + 40_000 / 2_001) / 2,
    });
    expect(s.policies.spillway).toMatchObject({
      recall: 0.75,
      retrievalBeforeAnswerRate: 0.75,
      inventedRate: 0.25,
      medianTokensPerRightAnswer: 2_001,
    });
    expect(s.policies["paging-4000"]!.tokensPerRightAnswer).toBe((4_000 + 40_000 + 1_800_000) / 2);
    expect(s.spillwayLossless).toBe(true);
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

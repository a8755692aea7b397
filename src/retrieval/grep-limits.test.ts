import { describe, expect, it } from "vitest";
import { chunkyOutput, SlowRunner } from "../../test/helpers/slow-regex-runner.js";
import { onCleanup, origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { grepOutput } from "./grep.js";
import { LONG_LINE_CHARS, WINDOW_OVERLAP_CHARS } from "./regex-matcher.js";

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("grep: one regex deadline per call, across chunks", () => {
  it("a deadline after some chunks keeps their matches and goes on from the first line not searched", async () => {
    const { record, runner, opened } = await chunkyOutput(5, 400);
    const pattern = "^a{27}$";
    const first = await grepOutput(opened, { pattern, regex: true, timeoutMs: 1_000 }, runner);
    // Each scan got what was left of the one deadline, not a fresh one.
    expect(runner.deadlines[0]).toBeLessThanOrEqual(1_000);
    for (let i = 1; i < runner.deadlines.length; i++) {
      expect(runner.deadlines[i]!).toBeLessThan(runner.deadlines[i - 1]!);
    }
    // Stopped part way: what it found lies before where it stopped, and it says so.
    const stoppedAt = first.stoppedAtLine!;
    expect(stoppedAt).toBeGreaterThan(1);
    expect(stoppedAt).toBeLessThan(record.lineCount!);
    expect(first.totalMatches).toBeNull();
    for (const match of first.matches) expect(match.line).toBeLessThan(stoppedAt);
    // Going on from its cursor finds the rest, none twice.
    const rest = await grepOutput(opened, { pattern, regex: true, cursor: first.nextCursor! });
    expect(rest.stoppedAtLine).toBeNull();
    expect(rest.matches[0]!.line).toBeGreaterThanOrEqual(stoppedAt);
    expect([...first.matches, ...rest.matches].map((m) => m.line)).toEqual([
      1, 42_002, 84_003, 126_004, 168_005,
    ]);
  });

  it("a deadline before any line was searched is PATTERN_TIMEOUT, never 'no match'", async () => {
    const { runner, opened } = await chunkyOutput(2, 400);
    const error = await errorOf(
      grepOutput(opened, { pattern: "^a{27}$", regex: true, timeoutMs: 300 }, runner),
    );
    expect(isSpillwayError(error, "PATTERN_TIMEOUT"), String(error)).toBe(true);
  });

  it("a search that finishes in time still answers, over every chunk", async () => {
    const { opened } = await chunkyOutput(3, 0);
    const result = await grepOutput(opened, { pattern: "^a{27}$", regex: true });
    expect(result.matches.map((m) => m.line)).toEqual([1, 42_002, 84_003]);
  });
});

describe("grep: memory on one long line is bounded, as for literal grep", () => {
  // 3 windows' worth of one line, a needle across a window boundary and one near the end.
  const length = 3 * LONG_LINE_CHARS + 1000;
  const boundary = LONG_LINE_CHARS - 3;
  function longLine(): string {
    const chars = Buffer.alloc(length, "b");
    chars.write("NEEDLE-42", boundary);
    chars.write("tail-needle-7", length - 20);
    return `${chars.toString("latin1")}\nshort NEEDLE-1 line\n`;
  }

  it("a regex scans a long line in bounded windows and still finds the match across a boundary", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), longLine());
    const runner = new SlowRunner(0);
    onCleanup(() => runner.close());
    const opened = await store.open(record.id, SCOPE);
    onCleanup(() => opened.close());
    const result = await grepOutput(opened, { pattern: "NEEDLE-\\d+", regex: true }, runner);
    expect(result.matches.map((m) => [m.line, m.matchCharStart, m.match])).toEqual([
      [1, boundary, "NEEDLE-42"],
      [2, length + 1 + 6, "NEEDLE-1"],
    ]);
    expect(result.windowed).toBe(true);
    const bound = LONG_LINE_CHARS + 4 * 1024 * 1024 + 2 * WINDOW_OVERLAP_CHARS;
    expect(Math.max(...runner.textLengths)).toBeLessThanOrEqual(bound);
  });

  it("a match found late in a long line is exact", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), longLine());
    const opened = await store.open(record.id, SCOPE);
    onCleanup(() => opened.close());
    const result = await grepOutput(opened, { pattern: "tail-needle-\\d", regex: true });
    expect(result.matches.map((m) => [m.line, m.matchCharStart, m.match])).toEqual([
      [1, length - 20, "tail-needle-7"],
    ]);
  });

  it("-i grep finds matches on a long line exactly, windows included", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), longLine());
    const opened = await store.open(record.id, SCOPE);
    onCleanup(() => opened.close());
    const result = await grepOutput(opened, { pattern: "needle-42", ignoreCase: true });
    expect(result.matches.map((m) => [m.line, m.matchCharStart, m.match])).toEqual([
      [1, boundary, "NEEDLE-42"],
    ]);
    const tail = await grepOutput(opened, { pattern: "TAIL-NEEDLE", ignoreCase: true });
    expect(tail.matches.map((m) => m.matchCharStart)).toEqual([length - 20]);
  });
});

import { describe, expect, it } from "vitest";
import { onCleanup, origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError, SpillwayError } from "../core/errors.js";
import { grepOutput } from "./grep.js";
import { LONG_LINE_CHARS, WINDOW_OVERLAP_CHARS } from "./regex-matcher.js";
import { RegexRunner } from "./regex-runner.js";

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** A runner that takes `delayMs` per scan and, like the real one, honours the deadline it is given. */
class SlowRunner extends RegexRunner {
  readonly deadlines: number[] = [];
  readonly textLengths: number[] = [];
  constructor(private readonly delayMs: number) {
    super();
  }
  override async scan(...args: Parameters<RegexRunner["scan"]>): Promise<number[]> {
    const [text, pattern, , , timeoutMs] = args;
    this.deadlines.push(timeoutMs);
    this.textLengths.push(text.length);
    await new Promise((resolve) => setTimeout(resolve, Math.min(this.delayMs, timeoutMs)));
    if (this.delayMs > timeoutMs) {
      throw new SpillwayError("PATTERN_TIMEOUT", "stopped", { pattern, timeoutMs });
    }
    return super.scan(...args);
  }
}

/** Text of `chunks` blocks of ~4 MiB lines, each block holding one line of 27 a's. */
function chunkyText(chunks: number): string {
  const filler = `${"x".repeat(99)}\n`;
  const block = `${"a".repeat(27)}\n${filler.repeat(42_000)}`;
  return block.repeat(chunks);
}

describe("grep: one regex deadline per call, across chunks", () => {
  it("running out of time over several chunks is PATTERN_TIMEOUT, never 'no match'", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), chunkyText(5));
    const runner = new SlowRunner(400);
    onCleanup(() => runner.close());
    const opened = await store.open(record.id, SCOPE);
    onCleanup(() => opened.close());
    const error = await errorOf(
      grepOutput(opened, { pattern: "(a+)+b", regex: true, timeoutMs: 1_000 }, runner),
    );
    expect(isSpillwayError(error, "PATTERN_TIMEOUT"), String(error)).toBe(true);
    // Each scan got what was left of the one deadline, not a fresh one.
    expect(runner.deadlines[0]).toBeLessThanOrEqual(1_000);
    for (let i = 1; i < runner.deadlines.length; i++) {
      expect(runner.deadlines[i]!).toBeLessThan(runner.deadlines[i - 1]!);
    }
  });

  it("a search that finishes in time still answers, over every chunk", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), chunkyText(3));
    const opened = await store.open(record.id, SCOPE);
    onCleanup(() => opened.close());
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

/**
 * A regex runner that is slow on purpose, and text that takes several of its scans: for tests
 * of what a grep does when its deadline passes part way.
 */
import { SpillwayError } from "../../src/core/errors.js";
import { RegexRunner } from "../../src/retrieval/regex-runner.js";
import type { OutputStore } from "../../src/store/output-store.js";
import { onCleanup, origin, SCOPE, tempStore } from "./temp-store.js";

/** A runner that takes `delayMs` per scan and, like the real one, honours the deadline it is given. */
export class SlowRunner extends RegexRunner {
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
export function chunkyText(chunks: number): string {
  const filler = `${"x".repeat(99)}\n`;
  const block = `${"a".repeat(27)}\n${filler.repeat(42_000)}`;
  return block.repeat(chunks);
}

/** `chunkyText(chunks)` stored and opened, with a runner taking `delayMs` a scan; all closed after the test. */
export async function chunkyOutput(chunks: number, delayMs: number) {
  const { store } = await tempStore();
  const record = await store.put(origin(), chunkyText(chunks));
  const runner = new SlowRunner(delayMs);
  onCleanup(() => runner.close());
  const opened = await store.open(record.id, SCOPE);
  onCleanup(() => opened.close());
  return { store: store as OutputStore, record, runner, opened };
}

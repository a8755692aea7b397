/**
 * Regular-expression (and case-insensitive) grep over decoded text, in bounded memory.
 *
 * Text arrives in blocks and is searched a run of whole lines at a time. A line longer than
 * {@link LONG_LINE_CHARS} is never gathered whole: it is searched in windows of about that
 * size that overlap by {@link WINDOW_OVERLAP_CHARS}, so memory stays bounded on a 500 MB
 * single-line output. A literal (`-i`) search is exact in windows; a regular expression finds
 * every match that fits in the overlap, and the result says the line was windowed.
 */
import { advance, type TextPosition } from "../store/line-index.js";
import type { TextReader } from "../store/text-reader.js";

/** Lines longer than this (UTF-16 code units) are searched in windows. */
export const LONG_LINE_CHARS = 4 * 1024 * 1024;
/** Characters each window shares with the one before (context, and room for a match). */
export const WINDOW_OVERLAP_CHARS = 64 * 1024;
const CHUNK_BYTES = 4 * 1024 * 1024;

export interface ByteMatch {
  readonly byteStart: number;
  readonly byteEnd: number;
}

/** Scans whole lines: flat [index, length] pairs, the first match of each line, at most `max`. */
export type LinesScan = (text: string, max: number) => Promise<number[]>;
/** Scans a window of one line from `from`: [index, length] of the first match, or []. */
export type WindowScan = (text: string, from: number) => Promise<number[]>;

/** Yields the first match of each line, in order. */
export class RegexMatcher {
  private readonly blocks: AsyncGenerator<{ text: string; start: TextPosition }>;
  private carry = "";
  private carryStart: TextPosition;
  private pending: ByteMatch[] = [];
  private done = false;
  /** Searching inside a long line: where the search resumes in `carry`. */
  private windowFrom: number | undefined;
  /** The current long line already matched: drop text until its end. */
  private skipping = false;
  /** True once any line was searched in windows. */
  windowed = false;
  /**
   * Where the lines searched so far end: every match before it has been found. A search stopped
   * by its deadline goes on from here (a long line searched in part counts as not searched).
   */
  searchedTo: TextPosition;

  constructor(
    reader: TextReader,
    from: TextPosition,
    private readonly wanted: number,
    private readonly scanLines: LinesScan,
    private readonly scanWindow: WindowScan,
  ) {
    this.blocks = reader.blocks(from, CHUNK_BYTES);
    this.carryStart = from;
    this.searchedTo = from;
  }

  /** Counting the rest would cost a full regex scan: unknown. */
  async countRemaining(): Promise<null> {
    return null;
  }

  async next(): Promise<ByteMatch | null> {
    while (this.pending.length === 0 && !this.done) await this.step();
    return this.pending.shift() ?? null;
  }

  /** Reads one block and searches what it completes. */
  private async step(): Promise<void> {
    const block = await this.blocks.next();
    if (block.done) {
      if (!this.skipping && this.carry.length > 0) {
        if (this.windowFrom !== undefined) await this.searchWindow(true);
        else await this.searchLines(this.carry, this.carryStart);
      }
      this.done = true;
      this.searchedTo = advance(this.carryStart, this.carry);
      return;
    }
    let text = block.value.text;
    let start = block.value.start;
    if (this.skipping) {
      const newline = text.indexOf("\n");
      if (newline === -1) return;
      this.skipping = false;
      start = advance(start, text.slice(0, newline + 1));
      text = text.slice(newline + 1);
      this.carry = "";
      this.carryStart = start;
      this.searchedTo = start;
    }
    if (this.carry.length === 0) this.carryStart = start;
    this.carry += text;
    if (this.windowFrom !== undefined) {
      const newline = this.carry.indexOf("\n");
      if (newline === -1) {
        if (this.carry.length >= LONG_LINE_CHARS) await this.searchWindow(false);
        return;
      }
      // The long line ends in this block: search its rest, then go on with whole lines.
      const rest = this.carry.slice(newline + 1);
      const restStart = advance(this.carryStart, this.carry.slice(0, newline + 1));
      this.carry = this.carry.slice(0, newline);
      await this.searchWindow(true);
      this.windowFrom = undefined;
      this.skipping = false;
      this.carry = rest;
      this.carryStart = restStart;
    }
    const lastNewline = this.carry.lastIndexOf("\n");
    if (lastNewline !== -1) {
      const lines = this.carry.slice(0, lastNewline + 1);
      const linesStart = this.carryStart;
      this.carry = this.carry.slice(lastNewline + 1);
      this.carryStart = advance(linesStart, lines);
      await this.searchLines(lines, linesStart);
      this.searchedTo = this.carryStart;
    }
    if (this.carry.length >= LONG_LINE_CHARS) {
      this.windowFrom = 0;
      this.windowed = true;
      await this.searchWindow(false);
    }
  }

  private async searchLines(text: string, start: TextPosition): Promise<void> {
    const found = await this.scanLines(text, this.wanted);
    let charAt = 0;
    let byteAt = start.byte;
    for (let i = 0; i < found.length; i += 2) {
      const index = found[i]!;
      const length = found[i + 1]!;
      byteAt += Buffer.byteLength(text.slice(charAt, index));
      charAt = index;
      const byteEnd = byteAt + Buffer.byteLength(text.slice(index, index + length));
      this.pending.push({ byteStart: byteAt, byteEnd });
    }
  }

  /**
   * Searches `carry` (part of one long line) from `windowFrom`. `lineEnds`: the carry ends
   * where the line ends, so a match may touch its end. Otherwise a match touching the end may
   * be cut short (or be a false `$`): the next window starts just before it instead.
   */
  private async searchWindow(lineEnds: boolean): Promise<void> {
    const from = this.windowFrom ?? 0;
    const found = await this.scanWindow(this.carry, from);
    const [index, length] = found as [number?, number?];
    // A match ending in the last overlap may be cut short, or be a false `$` or lookahead at
    // the window's end: it is searched again with more text, unless it already had a whole
    // window to itself (a match longer than that is reported up to the window's end).
    const settled =
      index !== undefined &&
      length !== undefined &&
      (lineEnds ||
        index + length <= this.carry.length - WINDOW_OVERLAP_CHARS ||
        this.carry.length - index >= LONG_LINE_CHARS);
    if (settled) {
      const byteStart = this.carryStart.byte + Buffer.byteLength(this.carry.slice(0, index));
      const byteEnd = byteStart + Buffer.byteLength(this.carry.slice(index, index + length));
      this.pending.push({ byteStart, byteEnd });
      this.carry = "";
      this.windowFrom = undefined;
      this.skipping = !lineEnds;
      return;
    }
    if (lineEnds) return;
    // Resume at the cut match, or where a match could still start and end in the next block,
    // keeping the overlap before it as context.
    const resume = index ?? Math.max(from, this.carry.length - WINDOW_OVERLAP_CHARS);
    const keepFrom = Math.max(
      0,
      Math.min(resume, this.carry.length - WINDOW_OVERLAP_CHARS) - WINDOW_OVERLAP_CHARS,
    );
    const dropped = this.carry.slice(0, keepFrom);
    this.carryStart = advance(this.carryStart, dropped);
    this.carry = this.carry.slice(keepFrom);
    this.windowFrom = resume - keepFrom;
  }
}

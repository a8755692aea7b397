/**
 * The sparse position index of a stored text output.
 *
 * A checkpoint records, for one position in the text, its UTF-8 byte offset, its character
 * offset (UTF-16 code units, as JavaScript strings index), the 0-based number of the line that
 * contains it, and whether it is the first position of a line. Checkpoints are taken at every
 * `LINE_STRIDE`-th line start and at least every `CHAR_STRIDE` characters, so any read of
 * characters [a, b) or of lines N..M starts decoding at most one stride before its target:
 * cost proportional to the slice, not to the output (a single 20 MB line included).
 */

/** A position in a stored text output. */
export interface TextPosition {
  /** UTF-8 byte offset. */
  readonly byte: number;
  /** Character offset, in UTF-16 code units. */
  readonly char: number;
  /** 0-based number of the line containing this position (= newlines before it). */
  readonly line: number;
  /** True when the position is the first of its line (offset 0 or just after a newline). */
  readonly atLineStart: boolean;
}

export const LINE_STRIDE = 1024;
export const CHAR_STRIDE = 65_536;
const INDEX_FORMAT_VERSION = 1;
const FIELDS = 4;

export const START_POSITION: TextPosition = { byte: 0, char: 0, line: 0, atLineStart: true };

/** Counts "\n" in a string. */
export function countNewlines(text: string): number {
  let count = 0;
  let at = text.indexOf("\n");
  while (at !== -1) {
    count++;
    at = text.indexOf("\n", at + 1);
  }
  return count;
}

/** The position reached after `text`, which starts at `from`. */
export function advance(from: TextPosition, text: string, byteLength?: number): TextPosition {
  if (text.length === 0) return from;
  return {
    byte: from.byte + (byteLength ?? Buffer.byteLength(text)),
    char: from.char + text.length,
    line: from.line + countNewlines(text),
    atLineStart: text.charCodeAt(text.length - 1) === 10,
  };
}

/** Builds the index while an output is ingested, one decoded piece at a time. */
export class LineIndexBuilder {
  private readonly rows: number[] = [0, 0, 0, 1];
  private byte = 0;
  private char = 0;
  private newlines = 0;
  private lastCharWasNewline = false;
  private lastCheckpointChar = 0;
  private lastCheckpointLine = 0;

  /**
   * Adds the next piece of text; `byteLength` is its UTF-8 length and `bytes`, when the
   * caller has them, its UTF-8 bytes (they make byte offsets of non-ASCII lines cheap).
   */
  push(piece: string, byteLength: number, bytes?: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.char - this.lastCheckpointChar >= CHAR_STRIDE) {
      this.addCheckpoint(this.byte, this.char, this.newlines, this.lastCharWasNewline);
    }
    const ascii = byteLength === piece.length;
    // The k-th "\n" of the string is the k-th 0x0A of its UTF-8 bytes (UTF-8 never uses
    // 0x0A inside a multi-byte sequence), so bytes and characters can be walked in step.
    const byteView =
      !ascii && bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : undefined;
    let byteAt = -1;
    let measuredChars = 0;
    let measuredBytes = 0;
    let at = piece.indexOf("\n");
    while (at !== -1) {
      this.newlines++;
      if (byteView) byteAt = byteView.indexOf(10, byteAt + 1);
      if (this.newlines - this.lastCheckpointLine >= LINE_STRIDE) {
        const charsIn = at + 1;
        let bytesIn = charsIn;
        if (byteView) {
          bytesIn = byteAt + 1;
        } else if (!ascii) {
          measuredBytes += Buffer.byteLength(piece.slice(measuredChars, charsIn));
          measuredChars = charsIn;
          bytesIn = measuredBytes;
        }
        this.addCheckpoint(this.byte + bytesIn, this.char + charsIn, this.newlines, true);
      }
      at = piece.indexOf("\n", at + 1);
    }
    this.byte += byteLength;
    this.char += piece.length;
    this.lastCharWasNewline = piece.charCodeAt(piece.length - 1) === 10;
  }

  private addCheckpoint(byte: number, char: number, line: number, atLineStart: boolean): void {
    this.rows.push(byte, char, line, atLineStart ? 1 : 0);
    this.lastCheckpointChar = char;
    this.lastCheckpointLine = line;
  }

  get charCount(): number {
    return this.char;
  }

  get byteCount(): number {
    return this.byte;
  }

  /** Lines in the text: a final line without a trailing newline counts; "" has 0 lines. */
  get lineCount(): number {
    if (this.char === 0) return 0;
    return this.newlines + (this.lastCharWasNewline ? 0 : 1);
  }

  /** The packed index, stored beside the blob. */
  finish(): Uint8Array {
    const packed = new Float64Array(1 + this.rows.length);
    packed[0] = INDEX_FORMAT_VERSION;
    packed.set(this.rows, 1);
    return new Uint8Array(packed.buffer);
  }
}

/** Read-side view of a packed index, with a small cache of recently reached positions. */
export class LineIndex {
  private readonly bytes: Float64Array;
  private readonly chars: Float64Array;
  private readonly lines: Float64Array;
  private readonly starts: Uint8Array;
  /** Positions reached by earlier reads (sequential paging reuses them). */
  private readonly recent: TextPosition[] = [];

  constructor(packed: Uint8Array) {
    const aligned = new Float64Array(
      packed.buffer.slice(packed.byteOffset, packed.byteOffset + packed.byteLength),
    );
    if (aligned[0] !== INDEX_FORMAT_VERSION || (aligned.length - 1) % FIELDS !== 0) {
      throw new RangeError(`unsupported line index format ${aligned[0]}`);
    }
    const count = (aligned.length - 1) / FIELDS;
    this.bytes = new Float64Array(count);
    this.chars = new Float64Array(count);
    this.lines = new Float64Array(count);
    this.starts = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const base = 1 + i * FIELDS;
      this.bytes[i] = aligned[base]!;
      this.chars[i] = aligned[base + 1]!;
      this.lines[i] = aligned[base + 2]!;
      this.starts[i] = aligned[base + 3]!;
    }
  }

  get checkpointCount(): number {
    return this.chars.length;
  }

  private at(i: number): TextPosition {
    return {
      byte: this.bytes[i]!,
      char: this.chars[i]!,
      line: this.lines[i]!,
      atLineStart: this.starts[i] === 1,
    };
  }

  /** Largest i whose checkpoint satisfies `ok` (ok must hold for a prefix of checkpoints). */
  private lastWhere(ok: (i: number) => boolean): number {
    let lo = 0;
    let hi = this.chars.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (ok(mid)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private closerRecent(best: TextPosition, usable: (p: TextPosition) => boolean): TextPosition {
    let result = best;
    for (const p of this.recent) {
      if (usable(p) && p.byte > result.byte) result = p;
    }
    return result;
  }

  /** The known position closest before (or at) character `char`. */
  beforeChar(char: number): TextPosition {
    const best = this.at(this.lastWhere((i) => this.chars[i]! <= char));
    return this.closerRecent(best, (p) => p.char <= char);
  }

  /** The known position closest before (or at) byte `byte`. */
  beforeByte(byte: number): TextPosition {
    const best = this.at(this.lastWhere((i) => this.bytes[i]! <= byte));
    return this.closerRecent(best, (p) => p.byte <= byte);
  }

  /** The known position closest before (or at) the start of 0-based line `line`. */
  beforeLine(line: number): TextPosition {
    const usable = (p: TextPosition) => p.line < line || (p.line === line && p.atLineStart);
    const best = this.at(this.lastWhere((i) => usable(this.at(i))));
    return this.closerRecent(best, usable);
  }

  /**
   * The checkpoint span holding character `char` when every character in it is one byte
   * (ASCII: its byte and character lengths agree), so offsets map to bytes directly; null
   * otherwise. `totalChars` and `totalBytes` close the last span.
   */
  singleByteSpan(
    char: number,
    totalChars: number,
    totalBytes: number,
  ): { readonly start: TextPosition; readonly endChar: number } | null {
    const i = this.lastWhere((k) => this.chars[k]! <= char);
    const last = i + 1 >= this.chars.length;
    const endChar = last ? totalChars : this.chars[i + 1]!;
    const endByte = last ? totalBytes : this.bytes[i + 1]!;
    if (endByte - this.bytes[i]! !== endChar - this.chars[i]!) return null;
    return { start: this.at(i), endChar };
  }

  /** Remembers a position a read reached, so the next read nearby starts from it. */
  remember(position: TextPosition): void {
    if (this.recent.some((p) => p.byte === position.byte)) return;
    this.recent.push(position);
    if (this.recent.length > 16) this.recent.shift();
  }
}

import { TextDecoder } from "node:util";
import { StoreCorruptError } from "../core/errors.js";
import type { BlobSource } from "./blob-source.js";
import { advance, countNewlines, type LineIndex, type TextPosition } from "./line-index.js";

/** A decoded run of text and the position where it starts. */
export interface TextBlock {
  readonly text: string;
  readonly start: TextPosition;
}

/** A text range read from an output, with its exact start and end positions. */
export interface TextRange {
  readonly text: string;
  readonly start: TextPosition;
  readonly end: TextPosition;
}

const DEFAULT_BLOCK_BYTES = 64 * 1024;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True when offset `at` of `text` falls between the halves of a surrogate pair. */
export function splitsPair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const low = text.charCodeAt(at);
  return isHighSurrogate(text.charCodeAt(at - 1)) && low >= 0xdc00 && low <= 0xdfff;
}

/** Index of the n-th (1-based) "\n" in text at or after `from`, or -1. */
function nthNewline(text: string, n: number, from = 0): number {
  let at = from - 1;
  for (let i = 0; i < n; i++) {
    at = text.indexOf("\n", at + 1);
    if (at === -1) return -1;
  }
  return at;
}

/**
 * Exact reads of a stored text output by character, line or block, starting from the nearest
 * index checkpoint. Positions are exact: byte offsets, character offsets (UTF-16 code units)
 * and 0-based line numbers.
 */
export class TextReader {
  constructor(
    readonly source: BlobSource,
    readonly index: LineIndex,
    readonly totalChars: number,
    readonly totalLines: number,
  ) {}

  get totalBytes(): number {
    return this.source.size;
  }

  /**
   * Decoded blocks from `from` to the end (or until the consumer stops iterating). Blocks end
   * on character boundaries; each carries its exact start position.
   */
  async *blocks(from: TextPosition, blockBytes = DEFAULT_BLOCK_BYTES): AsyncGenerator<TextBlock> {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    // Decoding copies into a string, so one buffer serves every block.
    const scratch = Buffer.allocUnsafe(
      Math.max(1, Math.min(blockBytes, this.source.size - from.byte)),
    );
    let position = from;
    let byte = from.byte;
    while (byte < this.source.size) {
      const bytes = scratch.subarray(0, await this.source.readInto(scratch, byte));
      byte += bytes.byteLength;
      const text = this.decode(decoder, bytes, byte < this.source.size, from.byte);
      if (text.length === 0) continue;
      yield { text, start: position };
      position = advance(position, text);
    }
  }

  private decode(decoder: TextDecoder, bytes: Uint8Array, more: boolean, at: number): string {
    try {
      return decoder.decode(bytes, { stream: more });
    } catch (error) {
      throw new StoreCorruptError(
        `Stored text is not valid UTF-8 near byte ${at}: the blob changed after it was stored.`,
        { byte: at },
        error,
      );
    }
  }

  /**
   * Decodes forward from `from` until it holds `chars` characters, or `newlines` newlines, or
   * more than `maxChars` characters, or the output ends (whichever comes first).
   */
  private async decodeUntil(
    from: TextPosition,
    stop: { chars?: number; newlines?: number; maxChars?: number },
  ): Promise<string> {
    const parts: string[] = [];
    let length = 0;
    let newlines = 0;
    for await (const block of this.blocks(from)) {
      parts.push(block.text);
      length += block.text.length;
      if (stop.newlines !== undefined) newlines += countNewlines(block.text);
      if (stop.chars !== undefined && length >= stop.chars) break;
      if (stop.newlines !== undefined && newlines >= stop.newlines) break;
      if (stop.maxChars !== undefined && length > stop.maxChars) break;
    }
    return parts.join("");
  }

  /**
   * The exact position of character offset `char` (0 <= char <= totalChars). An offset that
   * falls between the two halves of a surrogate pair moves back to the pair's start.
   */
  async positionAtChar(char: number): Promise<TextPosition> {
    return (await this.readChars(char, char)).start;
  }

  /** The exact position of byte offset `byte` (must be a character boundary). */
  async positionAtByte(byte: number): Promise<TextPosition> {
    const base = this.index.beforeByte(byte);
    if (base.byte === byte) return base;
    const need = byte - base.byte;
    const bytes = await this.source.read(base.byte, need);
    const text = this.decode(new TextDecoder("utf-8", { fatal: true }), bytes, false, base.byte);
    return advance(base, text, need);
  }

  /** The position where 0-based line `line` starts (line < totalLines). */
  async positionAtLine(line: number): Promise<TextPosition> {
    const base = this.index.beforeLine(line);
    if (base.line === line && base.atLineStart) return base;
    const skip = line - base.line;
    const text = await this.decodeUntil(base, { newlines: skip });
    const at = nthNewline(text, skip);
    const consumed = at === -1 ? text : text.slice(0, at + 1);
    const position = advance(base, consumed);
    this.index.remember(position);
    return position;
  }

  /**
   * Characters [start, end) (valid offsets, start <= end). A boundary that falls inside a
   * surrogate pair widens to keep the pair whole; the returned positions say where the text
   * really starts and ends.
   */
  async readChars(start: number, end: number): Promise<TextRange> {
    const ascii = this.index.singleByteSpan(start, this.totalChars, this.source.size);
    if (ascii && end <= ascii.endChar) return this.readSingleByte(ascii.start, start, end);
    const base = this.index.beforeChar(start);
    // One character more than asked, to see whether `end` splits a surrogate pair.
    const text = await this.decodeUntil(base, { chars: end - base.char + 1 });
    let from = start - base.char;
    let to = Math.min(end - base.char, text.length);
    if (splitsPair(text, from)) from--;
    if (splitsPair(text, to)) to++;
    const startPosition = advance(base, text.slice(0, from));
    const slice = text.slice(from, to);
    const endPosition = advance(startPosition, slice);
    this.index.remember(endPosition);
    return { text: slice, start: startPosition, end: endPosition };
  }

  /**
   * Characters [start, end) inside one all-ASCII checkpoint span: byte offsets are character
   * offsets from the checkpoint, so the bytes are read directly and nothing before them is
   * decoded (only scanned for newlines, to know the line).
   */
  private async readSingleByte(base: TextPosition, start: number, end: number): Promise<TextRange> {
    const skip = start - base.char;
    const bytes = await this.source.read(base.byte, skip + (end - start));
    let newlines = 0;
    for (let at = bytes.indexOf(10); at !== -1 && at < skip; at = bytes.indexOf(10, at + 1))
      newlines++;
    const startPosition: TextPosition =
      skip === 0
        ? base
        : {
            byte: base.byte + skip,
            char: start,
            line: base.line + newlines,
            atLineStart: bytes[skip - 1] === 10,
          };
    const body = bytes.subarray(skip);
    const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("latin1");
    const endPosition = advance(startPosition, text, body.byteLength);
    this.index.remember(endPosition);
    return { text, start: startPosition, end: endPosition };
  }

  /**
   * Lines [first, last] (0-based, inclusive, first < totalLines) with their terminators.
   * `stopAfterChars` bounds the decoding: the returned text may then end early, and the caller
   * checks `end` to see whether every requested line was read.
   */
  async readLines(first: number, last: number, stopAfterChars: number): Promise<TextRange> {
    const from = await this.positionAtLine(first);
    const wanted = last - first + 1;
    let text = await this.decodeUntil(from, { newlines: wanted, maxChars: stopAfterChars });
    const at = nthNewline(text, wanted);
    if (at !== -1) text = text.slice(0, at + 1);
    if (text.length > stopAfterChars) text = text.slice(0, stopAfterChars);
    if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      text = text.slice(0, -1);
    }
    const to = advance(from, text);
    this.index.remember(to);
    return { text, start: from, end: to };
  }
}

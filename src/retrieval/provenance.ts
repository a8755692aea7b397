import type { TextPosition } from "../store/line-index.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextRange } from "../store/text-reader.js";

/**
 * Where a piece of text comes from, exactly enough to cite and to verify: the output and the
 * SHA-256 of its whole stored content, the character range (UTF-16 code units, end
 * exclusive), the UTF-8 byte range, the 1-based lines it covers, and the output's totals.
 */
export interface Provenance {
  readonly outputId: string;
  readonly sha256: string;
  readonly charStart: number;
  readonly charEnd: number;
  readonly byteStart: number;
  readonly byteEnd: number;
  /**
   * 1-based line of the first character. For an empty range, the line it sits on, never past
   * the last line (0 only for an output with no lines).
   */
  readonly lineStart: number;
  /** 1-based line of the last character (= lineStart for an empty range). */
  readonly lineEnd: number;
  readonly totalChars: number;
  readonly totalBytes: number;
  readonly totalLines: number;
}

/** Provenance of a byte range of a binary output (no characters or lines). */
export interface BinaryProvenance {
  readonly outputId: string;
  readonly sha256: string;
  readonly byteStart: number;
  readonly byteEnd: number;
  readonly totalBytes: number;
}

/** The 1-based line of the last character before `end`, for a range starting at `start`. */
function lastLine(start: TextPosition, end: TextPosition): number {
  if (end.char === start.char) return start.line + 1;
  return end.atLineStart ? end.line : end.line + 1;
}

export function provenanceOf(
  output: OpenedOutput,
  range: Pick<TextRange, "start" | "end">,
): Provenance {
  const { record } = output;
  const totalLines = record.lineCount ?? 0;
  // An empty range after a final "\n" (or in an empty output) starts no line of its own.
  const empty = range.end.char === range.start.char;
  const lineStart = empty ? Math.min(range.start.line + 1, totalLines) : range.start.line + 1;
  return {
    outputId: record.id,
    sha256: record.sha256,
    charStart: range.start.char,
    charEnd: range.end.char,
    byteStart: range.start.byte,
    byteEnd: range.end.byte,
    lineStart,
    lineEnd: empty ? lineStart : lastLine(range.start, range.end),
    totalChars: record.charCount ?? 0,
    totalBytes: record.byteSize ?? 0,
    totalLines,
  };
}

export function binaryProvenanceOf(
  output: OpenedOutput,
  byteStart: number,
  byteEnd: number,
): BinaryProvenance {
  return {
    outputId: output.record.id,
    sha256: output.record.sha256,
    byteStart,
    byteEnd,
    totalBytes: output.record.byteSize ?? 0,
  };
}

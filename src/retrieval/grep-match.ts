/**
 * One grep match described for the reader (grep.ts finds it): its line whole or as an excerpt
 * around the match, its column, its context lines, all with provenance.
 */
import type { TextPosition } from "../store/line-index.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextReader } from "../store/text-reader.js";
import { nextNewline } from "./byte-search.js";
import type { GrepLine, GrepMatch } from "./grep-types.js";
import { provenanceOf } from "./provenance.js";
import type { ByteMatch } from "./regex-matcher.js";

/** The character offset just after the line of `match` (where a continued search starts). */
export async function lineEndCursor(
  output: OpenedOutput,
  reader: TextReader,
  match: GrepMatch,
): Promise<number> {
  const newline = await nextNewline(output.source, match.matchByteStart);
  const end = Math.min(output.source.size, newline + 1);
  return (await reader.positionAtByte(end)).char;
}

/** The end of the line holding byte `fromByte`: before its "\n" (and before a "\r" ending it). */
export async function lineEndAt(
  output: OpenedOutput,
  reader: TextReader,
  fromByte: number,
  lineStartByte: number,
): Promise<TextPosition> {
  let end = await nextNewline(output.source, fromByte);
  if (end > lineStartByte && end < output.source.size) {
    const [before] = await output.source.read(end - 1, 1);
    if (before === 13) end--;
  }
  return reader.positionAtByte(end);
}

/** Where a line starts, and where it ends before its terminator. */
export interface LineBounds {
  readonly start: TextPosition;
  readonly end: TextPosition;
}

/** The bounds of the line holding `hit` (its end found by scanning to the line's "\n"). */
export async function lineBoundsOf(
  output: OpenedOutput,
  reader: TextReader,
  hit: ByteMatch,
): Promise<LineBounds> {
  const start = await reader.positionAtLine((await reader.positionAtByte(hit.byteStart)).line);
  return { start, end: await lineEndAt(output, reader, hit.byteStart, start.byte) };
}

export async function describeMatch(
  output: OpenedOutput,
  reader: TextReader,
  hit: ByteMatch,
  context: number,
  maxLineChars: number,
  /** The match's line, when the caller knows it: finding its end scans the rest of the line. */
  line?: LineBounds,
): Promise<GrepMatch> {
  const matchStart = await reader.positionAtByte(hit.byteStart);
  const matchEnd = await reader.positionAtByte(hit.byteEnd);
  const lineNumber = matchStart.line; // 0-based
  const { start: lineStart, end: lineEnd } = line ?? (await lineBoundsOf(output, reader, hit));
  const matched = await reader.readChars(matchStart.char, matchEnd.char);
  const shown = await lineExcerpt(
    output,
    reader,
    lineStart,
    lineEnd,
    matchStart.char,
    matchEnd.char,
    maxLineChars,
  );
  const totalLines = output.record.lineCount ?? 0;
  const before =
    context > 0 && lineNumber > 0
      ? await contextLines(
          output,
          reader,
          Math.max(0, lineNumber - context),
          lineNumber - 1,
          maxLineChars,
        )
      : [];
  const after =
    context > 0 && lineNumber + 1 < totalLines
      ? await contextLines(
          output,
          reader,
          lineNumber + 1,
          Math.min(totalLines - 1, lineNumber + context),
          maxLineChars,
        )
      : [];
  return {
    ...shown,
    column: matchStart.char - lineStart.char + 1,
    match: matched.text,
    matchCharStart: matchStart.char,
    matchCharEnd: matchEnd.char,
    matchByteStart: hit.byteStart,
    matchByteEnd: hit.byteEnd,
    before,
    after,
  };
}

/** The line [lineStart, lineEnd) whole, or a window of it around [focusStart, focusEnd). */
async function lineExcerpt(
  output: OpenedOutput,
  reader: TextReader,
  lineStart: TextPosition,
  lineEnd: TextPosition,
  focusStart: number,
  focusEnd: number,
  maxLineChars: number,
): Promise<GrepLine> {
  let from = lineStart.char;
  let to = Math.max(lineEnd.char, focusEnd);
  const clipped = to - from > maxLineChars;
  if (clipped) {
    const room = Math.max(0, maxLineChars - (focusEnd - focusStart));
    from = Math.max(lineStart.char, focusStart - Math.floor(room / 2));
    to = Math.min(to, Math.max(focusEnd, from + maxLineChars));
  }
  const range = await reader.readChars(from, to);
  return {
    line: lineStart.line + 1,
    text: range.text,
    clipped,
    provenance: provenanceOf(output, range),
  };
}

async function contextLines(
  output: OpenedOutput,
  reader: TextReader,
  first: number,
  last: number,
  maxLineChars: number,
): Promise<GrepLine[]> {
  const lines: GrepLine[] = [];
  for (let line = first; line <= last; line++) {
    const start = await reader.positionAtLine(line);
    const end = await lineEndAt(output, reader, start.byte, start.byte);
    lines.push(await lineExcerpt(output, reader, start, end, start.char, start.char, maxLineChars));
  }
  return lines;
}

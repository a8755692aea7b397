import { InvalidArgumentError, isSpillwayError } from "../core/errors.js";
import { escapeRegExp } from "../core/escape-regexp.js";
import type { TextPosition } from "../store/line-index.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextReader } from "../store/text-reader.js";
import { ByteScanner, MAX_LITERAL_BYTES, nextNewline } from "./byte-search.js";
import { intArg, stringArg, textReaderOf } from "./common.js";
import type { GrepLine, GrepMatch, GrepRequest, GrepResult } from "./grep-types.js";
import { provenanceOf } from "./provenance.js";
import { recordsOfMatches } from "./record-matches.js";
import { type ByteMatch, RegexMatcher } from "./regex-matcher.js";
import {
  checkPattern,
  type RegexRunner,
  scanLines,
  scanWindow,
  sharedRegexRunner,
} from "./regex-runner.js";
import { checkRequest, grepRequestSchema } from "./request-schemas.js";

export const DEFAULT_MAX_MATCHES = 50;
export const DEFAULT_PATTERN_TIMEOUT_MS = 5_000;
/** The default deadline grows with the output: a regex over 200 MB takes seconds by itself. */
const PATTERN_MS_PER_MB = 25;

/** The default regex deadline of one grep over `bytes`: 5 s plus 25 ms per MB. */
export function defaultPatternTimeoutMs(bytes: number): number {
  return DEFAULT_PATTERN_TIMEOUT_MS + Math.ceil(bytes / 1_000_000) * PATTERN_MS_PER_MB;
}
/** Lines longer than this are shown as an excerpt around the match. */
export const DEFAULT_MAX_LINE_CHARS = 500;

export type { GrepLine, GrepMatch, GrepRequest, GrepResult } from "./grep-types.js";

/** Yields the first match of each line, in order. */
interface LineMatcher {
  next(): Promise<ByteMatch | null>;
  /** Counts remaining matching lines, or null when that would cost a full regex scan. */
  countRemaining(): Promise<number | null>;
}

class LiteralMatcher implements LineMatcher {
  private readonly scanner: ByteScanner;
  constructor(
    output: OpenedOutput,
    private readonly needle: Buffer,
    fromByte: number,
  ) {
    this.scanner = new ByteScanner(output.source, needle, fromByte);
  }

  async next(): Promise<ByteMatch | null> {
    const at = await this.scanner.next();
    if (at === null) return null;
    await this.scanner.skipLine();
    return { byteStart: at, byteEnd: at + this.needle.byteLength };
  }

  countRemaining(): Promise<number> {
    return this.scanner.countRemaining(true);
  }
}

/**
 * Searches an output line by line, like grep: each matching line once, with its 1-based
 * number, the match's offsets and optional context lines, all with provenance. Literal
 * patterns are searched in the stored bytes directly; regular expressions run in a worker
 * with a deadline (PATTERN_TIMEOUT), so a model's pattern cannot hang the process.
 *
 * @example
 * const first = await grepOutput(opened, { pattern: "ERROR", context: 2, maxMatches: 20 });
 * const more = await grepOutput(opened, { pattern: "ERROR", cursor: first.nextCursor! });
 * const rows = await grepOutput(opened, { pattern: "A-1003", record: true });
 * // rows.records[rows.matches[0].recordIndex] → { kind: "csv-row", fields: [{ name: "order_id", value: "A-1003" }, …] }
 */
export async function grepOutput(
  output: OpenedOutput,
  unchecked: GrepRequest,
  runner: RegexRunner = sharedRegexRunner,
): Promise<GrepResult> {
  const request = checkRequest(grepRequestSchema, unchecked);
  const { record } = output;
  const reader = textReaderOf(output, "grep");
  const pattern = stringArg(
    "pattern",
    request.pattern,
    "a non-empty literal or regular expression",
  );
  const regex = request.regex === true;
  const ignoreCase = request.ignoreCase === true;
  const context = intArg("context", request.context, 0, 0, 20);
  const maxMatches = intArg("maxMatches", request.maxMatches, DEFAULT_MAX_MATCHES, 1, 1000);
  const cursor = intArg("cursor", request.cursor, 0, 0, record.charCount ?? 0, record.id);
  const timeoutMs = intArg(
    "timeoutMs",
    request.timeoutMs,
    defaultPatternTimeoutMs(record.byteSize ?? 0),
    1,
    600_000,
  );
  const maxLineChars = intArg("maxLineChars", request.maxLineChars, DEFAULT_MAX_LINE_CHARS, 20);
  const from = await reader.positionAtChar(cursor);

  let matcher: LineMatcher | RegexMatcher;
  if (!regex && !ignoreCase) {
    const needle = Buffer.from(pattern, "utf8");
    if (needle.byteLength > MAX_LITERAL_BYTES) {
      throw new InvalidArgumentError(
        "pattern",
        `is ${needle.byteLength} bytes long`,
        `at most ${MAX_LITERAL_BYTES} bytes`,
      );
    }
    matcher = new LiteralMatcher(output, needle, from.byte);
  } else {
    const source = regex ? pattern : escapeRegExp(pattern);
    const flags = ignoreCase ? "i" : "";
    checkPattern(source, flags);
    // One deadline for the whole call, however many chunks and windows it takes.
    const deadline = Date.now() + timeoutMs;
    const left = () => deadline - Date.now();
    // A literal (escaped) pattern is linear-time and safe on this thread; a model's regex is not.
    matcher = regex
      ? new RegexMatcher(
          reader,
          from,
          maxMatches + 1,
          (text, max) => runner.scan(text, source, flags, max, left()),
          (text, at) => runner.scan(text, source, flags, 1, left(), { from: at }),
        )
      : new RegexMatcher(
          reader,
          from,
          maxMatches + 1,
          async (text, max) => scanLines(text, source, flags, max),
          async (text, at) => scanWindow(text, source, flags, at),
        );
  }

  const matches: GrepMatch[] = [];
  let nextCursor: number | null = null;
  let moreMatches = false;
  let stoppedAt: TextPosition | null = null;
  for (;;) {
    const hit = await nextOrStop(matcher, from);
    if (hit !== null && "stoppedAt" in hit) {
      stoppedAt = hit.stoppedAt;
      break;
    }
    if (hit === null) break;
    if (matches.length === maxMatches) {
      moreMatches = true;
      break;
    }
    matches.push(await describeMatch(output, reader, hit, context, maxLineChars));
  }
  let totalMatches: number | null = matches.length;
  if (stoppedAt) {
    // Go on from the first line not searched (past the last match, should a long line's
    // match lie beyond it).
    const last = matches.at(-1);
    nextCursor = Math.max(stoppedAt.char, last ? await lineEndCursor(output, reader, last) : 0);
    totalMatches = null;
  } else if (moreMatches) {
    const rest = await matcher.countRemaining();
    totalMatches = rest === null ? null : matches.length + 1 + rest;
    const last = matches[matches.length - 1]!;
    nextCursor = await lineEndCursor(output, reader, last);
  }
  const result: GrepResult = {
    mode: "grep",
    outputId: record.id,
    sha256: record.sha256,
    pattern,
    regex,
    ignoreCase,
    matches,
    totalMatches,
    windowed: regex && matcher instanceof RegexMatcher && matcher.windowed,
    moreMatches,
    nextCursor,
    stoppedAtLine: stoppedAt ? (await reader.positionAtChar(nextCursor!)).line + 1 : null,
  };
  if (!request.record) return result;
  const limits = request.record === true ? {} : request.record;
  const { records, indexes } = await recordsOfMatches(output, matches, limits);
  return {
    ...result,
    matches: matches.map((match, i) => ({ ...match, recordIndex: indexes[i]! })),
    records,
  };
}

/**
 * The next match, or where the searched lines end when a regular expression's deadline passed
 * after some were searched: they keep their matches and the caller goes on from there. A
 * deadline with nothing searched stays PATTERN_TIMEOUT, so no search ever says "no match"
 * for lines it did not read.
 */
async function nextOrStop(
  matcher: LineMatcher | RegexMatcher,
  from: TextPosition,
): Promise<ByteMatch | null | { stoppedAt: TextPosition }> {
  try {
    return await matcher.next();
  } catch (error) {
    const searched = matcher instanceof RegexMatcher && matcher.searchedTo.byte > from.byte;
    if (searched && isSpillwayError(error, "PATTERN_TIMEOUT"))
      return { stoppedAt: matcher.searchedTo };
    throw error;
  }
}

/** The character offset just after the line of `match` (where a continued search starts). */
async function lineEndCursor(
  output: OpenedOutput,
  reader: TextReader,
  match: GrepMatch,
): Promise<number> {
  const newline = await nextNewline(output.source, match.matchByteStart);
  const end = Math.min(output.source.size, newline + 1);
  return (await reader.positionAtByte(end)).char;
}

/** The end of the line holding byte `fromByte`: before its "\n" (and before a "\r" ending it). */
async function lineEndAt(
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

async function describeMatch(
  output: OpenedOutput,
  reader: TextReader,
  hit: ByteMatch,
  context: number,
  maxLineChars: number,
): Promise<GrepMatch> {
  const matchStart = await reader.positionAtByte(hit.byteStart);
  const matchEnd = await reader.positionAtByte(hit.byteEnd);
  const lineNumber = matchStart.line; // 0-based
  const lineStart = await reader.positionAtLine(lineNumber);
  const lineEnd = await lineEndAt(output, reader, hit.byteStart, lineStart.byte);
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

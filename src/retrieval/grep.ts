import { InvalidArgumentError, isSpillwayError } from "../core/errors.js";
import { escapeRegExp } from "../core/escape-regexp.js";
import type { TextPosition } from "../store/line-index.js";
import type { OpenedOutput } from "../store/output-store.js";
import { ByteScanner, MAX_LITERAL_BYTES } from "./byte-search.js";
import { intArg, stringArg, textReaderOf } from "./common.js";
import { type FindFrom, type LaterSearch, laterMatchesOnLine } from "./grep-long-lines.js";
import { describeMatch, lineBoundsOf, lineEndCursor } from "./grep-match.js";
import type { GrepMatch, GrepRequest, GrepResult } from "./grep-types.js";
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
 * Searches an output line by line, like grep: each matching line once (each match apart on a line
 * too long to show whole, SW-48), with its 1-based
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
  // How the rest of a long line is searched (`laterMatchesOnLine`), by the same rules.
  let later: LaterSearch;
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
    later = { needle };
  } else {
    const source = regex ? pattern : escapeRegExp(pattern);
    const flags = ignoreCase ? "i" : "";
    checkPattern(source, flags);
    // One deadline for the whole call, however many chunks and windows it takes.
    const deadline = Date.now() + timeoutMs;
    const left = () => deadline - Date.now();
    // A literal (escaped) pattern is linear-time and safe on this thread; a model's regex is not.
    const findFrom: FindFrom = regex
      ? (text, at) => runner.scan(text, source, flags, 1, left(), { from: at })
      : async (text, at) => scanWindow(text, source, flags, at);
    later = { findFrom };
    matcher = regex
      ? new RegexMatcher(
          reader,
          from,
          maxMatches + 1,
          (text, max) => runner.scan(text, source, flags, max, left()),
          findFrom,
        )
      : new RegexMatcher(
          reader,
          from,
          maxMatches + 1,
          async (text, max) => scanLines(text, source, flags, max),
          findFrom,
        );
  }

  const matches: GrepMatch[] = [];
  let nextCursor: number | null = null;
  let moreMatches = false;
  let stoppedAt: TextPosition | null = null;
  // Set when the search ended inside a long line (more matches, or the deadline): go on there.
  let endedInLine = false;
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
    // The line's bounds once, for this match and any later ones on it.
    const line = await lineBoundsOf(output, reader, hit);
    const match = await describeMatch(output, reader, hit, context, maxLineChars, line);
    matches.push(match);
    const wanted = maxMatches - matches.length;
    const rest = await laterMatchesOnLine(output, reader, match, line, later, wanted, maxLineChars);
    matches.push(...rest.matches);
    if (rest.more || rest.stopped) {
      moreMatches = rest.more;
      endedInLine = true;
      if (rest.stopped) stoppedAt = await reader.positionAtChar(matches.at(-1)!.matchCharEnd);
      break;
    }
  }
  let totalMatches: number | null = matches.length;
  if (endedInLine) {
    nextCursor = matches.at(-1)!.matchCharEnd;
    totalMatches = null;
  } else if (stoppedAt) {
    // Go on from the first line not searched (past the last match, should a long line's
    // match lie beyond it).
    const last = matches.at(-1);
    nextCursor = Math.max(stoppedAt.char, last ? await lineEndCursor(output, reader, last) : 0);
    totalMatches = null;
  } else if (moreMatches) {
    // The rest is counted by lines: past a line too long to show whole, whose matches come
    // apart, that count is not the number of entries, so it is unknown.
    const rest = matches.some((m) => m.clipped) ? null : await matcher.countRemaining();
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

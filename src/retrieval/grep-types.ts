/** The grep request and result types (`grepOutput` in grep.ts). */
import type { Provenance } from "./provenance.js";
import type { MatchRecord, RecordLimits } from "./record-types.js";

export interface GrepRequest {
  readonly pattern: string;
  /** Treat `pattern` as a JavaScript regular expression (default: literal text). */
  readonly regex?: boolean;
  readonly ignoreCase?: boolean;
  /** Lines of context before and after each matching line (default 0, at most 20). */
  readonly context?: number;
  /** Matches to return (default 50, at most 1000): a line once, a long line's matches apart. */
  readonly maxMatches?: number;
  /** Character offset to search from: a previous result's `nextCursor`. */
  readonly cursor?: number;
  /** Deadline of the whole search for a regular expression, in ms (default 5 s + 25 ms per MB). */
  readonly timeoutMs?: number;
  /** Longest line shown whole; longer lines become an excerpt around the match. */
  readonly maxLineChars?: number;
  /**
   * Also return each match's record (`records`, `recordIndex`): the JSON object, YAML item,
   * CSV row, log entry or block around it (see `recordAround`); `true` for the default limits.
   */
  readonly record?: boolean | RecordLimits;
}

/** A line shown whole, or as an excerpt when it is long. */
export interface GrepLine {
  /** 1-based line number. */
  readonly line: number;
  /** The line without its terminator, or an excerpt of it (see `clipped`). */
  readonly text: string;
  /** True when `text` is an excerpt of a longer line; `provenance` says which part. */
  readonly clipped: boolean;
  readonly provenance: Provenance;
}

export interface GrepMatch extends GrepLine {
  /** 1-based column (in characters) of the match within its line. */
  readonly column: number;
  /** The matched text. */
  readonly match: string;
  readonly matchCharStart: number;
  readonly matchCharEnd: number;
  readonly matchByteStart: number;
  readonly matchByteEnd: number;
  readonly before: GrepLine[];
  readonly after: GrepLine[];
  /** With `record`: the index in the result's `records` of the record around this match. */
  readonly recordIndex?: number;
}

export interface GrepResult {
  readonly mode: "grep";
  readonly outputId: string;
  readonly sha256: string;
  readonly pattern: string;
  readonly regex: boolean;
  readonly ignoreCase: boolean;
  /**
   * Matching lines, each once, in order; on a line longer than `maxLineChars` (shown as an
   * excerpt around a match) every match is an entry of its own, with the same line number.
   */
  readonly matches: GrepMatch[];
  /** Matching lines from `cursor` to the end, when cheap to know (literal searches); else null. */
  readonly totalMatches: number | null;
  /** True when more matching lines exist after the returned ones. */
  readonly moreMatches: boolean;
  /** Pass as `cursor` to continue after the last returned match; null when none remain. */
  readonly nextCursor: number | null;
  /**
   * True when a line longer than 4 Mi characters was searched by a regular expression in
   * overlapping windows (bounded memory): a match must then fit in 64 Ki characters to be
   * found for sure. Literal and -i searches are exact either way.
   */
  readonly windowed: boolean;
  /**
   * Set when the deadline stopped a regular-expression search before the end of the output: the
   * 1-based line it stopped at. Every line before it was searched, and `nextCursor` goes on
   * from it. Null when the search reached the end or `maxMatches`.
   */
  readonly stoppedAtLine: number | null;
  /** With `record`: the records around the matches, each once, in order. */
  readonly records?: MatchRecord[];
}

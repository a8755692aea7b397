/**
 * Every match on a line too long to show whole (SW-48 in docs/architecture.md). Grep reports a
 * line once, and shows a long line as an excerpt around its first match; on such a line every
 * further match is an entry of its own, with its own excerpt (and record), or a minified JSON
 * document of a hundred objects would show one of them and report one matching line.
 */
import { isSpillwayError } from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextReader } from "../store/text-reader.js";
import { ByteScanner } from "./byte-search.js";
import { describeMatch, type LineBounds } from "./grep-match.js";
import type { GrepMatch } from "./grep-types.js";
import { LONG_LINE_CHARS } from "./regex-matcher.js";

/** The next match in `text` at or after `from`: `[index, length]`, or `[]`. */
export type FindFrom = (text: string, from: number) => Promise<number[]>;

/**
 * How the rest of a line is searched: a literal's bytes in the store (exact on a line of any
 * length, nothing decoded), or decoded text by the pattern's own rules.
 */
export type LaterSearch = { readonly needle: Buffer } | { readonly findFrom: FindFrom };

export interface LaterMatches {
  /** The matches after `first` on its line, in order, at most the number wanted. */
  readonly matches: GrepMatch[];
  /** True when the line holds more matches than were wanted. */
  readonly more: boolean;
  /** True when the regex deadline passed before the rest of the line was searched. */
  readonly stopped: boolean;
}

const NONE: LaterMatches = { matches: [], more: false, stopped: false };

/**
 * The matches after `first` on its line when that line is too long to show whole (`first` is
 * clipped), each described like `first` but without context lines (they are `first`'s); with none
 * wanted, whether there is one more (`more`), so a search that stops here goes on here. A literal
 * is found in the stored bytes, on a line of any length; a regular expression or a search ignoring
 * case reads the line as text, and on a line longer than {@link LONG_LINE_CHARS} (which the
 * matcher reads in windows) keeps the first match only.
 *
 * @example
 * const later = await laterMatchesOnLine(opened, reader, first, line, { needle: Buffer.from('"status"') }, 49, 500);
 * later.matches.map((m) => m.column); // [612, 1204, …]: the same line, each match apart
 */
export async function laterMatchesOnLine(
  output: OpenedOutput,
  reader: TextReader,
  first: GrepMatch,
  line: LineBounds,
  search: LaterSearch,
  wanted: number,
  maxLineChars: number,
): Promise<LaterMatches> {
  if (!first.clipped) return NONE;
  const { start: lineStart, end: lineEnd } = line;
  if ("needle" in search)
    return laterLiterals(output, reader, first, search.needle, line, wanted, maxLineChars);
  const { findFrom } = search;
  if (lineEnd.char - lineStart.char > LONG_LINE_CHARS) return NONE;
  const text = (await reader.readChars(lineStart.char, lineEnd.char)).text;
  const matches: GrepMatch[] = [];
  // An empty match still moves the search on by a character.
  let from = first.matchCharEnd - lineStart.char;
  if (first.matchCharEnd === first.matchCharStart) from++;
  let charAt = 0;
  let byteAt = lineStart.byte;
  for (;;) {
    let found: number[];
    try {
      found = from > text.length ? [] : await findFrom(text, from);
    } catch (error) {
      if (isSpillwayError(error, "PATTERN_TIMEOUT")) return { matches, more: false, stopped: true };
      throw error;
    }
    const [index, length] = found as [number?, number?];
    if (index === undefined || length === undefined)
      return { matches, more: false, stopped: false };
    if (matches.length === wanted) return { matches, more: true, stopped: false };
    byteAt += Buffer.byteLength(text.slice(charAt, index));
    charAt = index;
    const byteEnd = byteAt + Buffer.byteLength(text.slice(index, index + length));
    const hit = { byteStart: byteAt, byteEnd };
    const match = await describeMatch(output, reader, hit, 0, maxLineChars, line);
    matches.push(match);
    from = index + Math.max(1, length);
  }
}

/** The later matches of a literal on `first`'s line, found in the stored bytes. */
async function laterLiterals(
  output: OpenedOutput,
  reader: TextReader,
  first: GrepMatch,
  needle: Buffer,
  line: LineBounds,
  wanted: number,
  maxLineChars: number,
): Promise<LaterMatches> {
  const scanner = new ByteScanner(output.source, needle, first.matchByteEnd);
  const matches: GrepMatch[] = [];
  for (;;) {
    const at = await scanner.next();
    if (at === null || at + needle.byteLength > line.end.byte)
      return { matches, more: false, stopped: false };
    if (matches.length === wanted) return { matches, more: true, stopped: false };
    const hit = { byteStart: at, byteEnd: at + needle.byteLength };
    matches.push(await describeMatch(output, reader, hit, 0, maxLineChars, line));
  }
}

/**
 * Whether some line has more than one entry in `matches` (its matches shown one by one), so a
 * count of them is a count of matches, not of lines.
 *
 * @example
 * matchesApart(result.matches) ? "matches" : "matching lines";
 */
export function matchesApart(matches: readonly Pick<GrepMatch, "line">[]): boolean {
  return matches.some((m, i) => i > 0 && matches[i - 1]!.line === m.line);
}

/**
 * What a grep's count counts: matching lines, or matches once a long line's come one by one
 * (two entries share a line then, so there are at least two).
 *
 * @example
 * `${count} ${countUnit(result.matches, count === 1)}`; // "1 matching line", "20 matches (a long line's one by one)"
 */
export function countUnit(matches: readonly Pick<GrepMatch, "line">[], one: boolean): string {
  return matchesApart(matches)
    ? "matches (a long line's one by one)"
    : `matching line${one ? "" : "s"}`;
}

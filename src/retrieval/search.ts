/**
 * mode "search": lines ranked by how well they match a query's words, in any script.
 * docs/retrieval.md describes the mode; [SW-14](../../docs/architecture.md#decision-log) why BM25
 * and these word rules.
 */
import { InvalidArgumentError } from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextReader } from "../store/text-reader.js";
import { intArg, textReaderOf } from "./common.js";
import { defaultPatternTimeoutMs } from "./grep.js";
import { type Provenance, provenanceOf } from "./provenance.js";
import { csvProfile } from "./record-csv.js";
import { checkRequest, searchRequestSchema } from "./request-schemas.js";
import {
  type RankedRow,
  type RankingOrder,
  SearchCorpus,
  type SearchRanking,
} from "./search-corpus.js";
import { rowFoci, rowFocus } from "./search-focus.js";
import { scanOutput } from "./search-scan.js";
import { queryTerms } from "./search-terms.js";
import { ScanTerms } from "./search-text.js";

export const DEFAULT_SEARCH_RESULTS = 10;
export const MAX_SEARCH_RESULTS = 100;
/** Matching lines kept for ranking; past it the weaker half is dropped (memory stays bounded). */
export const DEFAULT_MAX_CANDIDATES = 100_000;
/** Terms of one query; words past them are listed as dropped. */
export const MAX_QUERY_TERMS = 32;
const MAX_QUERY_CHARS = 10_000;
const DEFAULT_SEARCH_LINE_CHARS = 500;

export interface SearchRequest {
  /** The words to find, as a person would write them ("boot marker", "起動マーカー"). */
  readonly query: string;
  /** Lines to return, best first (default 10, at most 100). */
  readonly maxResults?: number;
  /** Longest line shown whole; longer lines become an excerpt around a matched word (default 500). */
  readonly maxLineChars?: number;
  /** Deadline of the whole search in ms (default 5 s + 25 ms per MB); past it, what was searched is ranked. */
  readonly timeoutMs?: number;
  /** Matching lines kept for ranking (default 100,000); past it the lower-scoring half is dropped. */
  readonly maxCandidates?: number;
  /**
   * `bm25` (default): BM25, where a word repeated and a short line count too. `coverage`: the
   * lines holding the rarest of the query's words first, each word once, so lines holding the
   * same words tie and keep the order of the output (the first of a hundred equal lines is the
   * first in the output).
   */
  readonly ranking?: SearchRanking;
  /** Equal lines from the end of the output, the latest first (default false). */
  readonly latestFirst?: boolean;
  /**
   * Each line once, a long line by its best passage only (default false: a line too long to show
   * whole also gives its next best passages, as matches of their own, while results are left).
   */
  readonly onePerLine?: boolean;
}

/** A query term and how rare it is in what was searched. */
export interface SearchTerm {
  readonly term: string;
  /** Lines (documents) holding it. */
  readonly lines: number;
  /** Its BM25 weight (inverse document frequency): rarer terms weigh more. */
  readonly weight: number;
}

/** One ranked line, shown whole or as an excerpt. */
export interface SearchMatch {
  readonly outputId: string;
  /** 1-based line number. */
  readonly line: number;
  /** The line without its terminator, or an excerpt of it (see `clipped`). */
  readonly text: string;
  /** True when `text` is part of a longer line; `provenance` says which part. */
  readonly clipped: boolean;
  readonly provenance: Provenance;
  /** Its score by the search's ranking (BM25 unless `coverage` was asked): higher is better. */
  readonly score: number;
  /** The query's terms this line holds. */
  readonly terms: string[];
  /**
   * Character offset, in the output, of the matched word the excerpt is centred on (on a line
   * shown whole, its first matched word): where the line's record is looked for.
   */
  readonly focusChar: number;
}

/** Why a search stopped before the end: its deadline. */
export interface SearchStop {
  readonly reason: "deadline";
  readonly timeoutMs: number;
}

/** What every search result says about the query and the limits it met. */
export interface SearchSummary {
  readonly mode: "search";
  readonly query: string;
  /** The terms searched for, with their rarity. */
  readonly terms: SearchTerm[];
  /** How the lines were ranked (`bm25` unless `coverage` was asked). */
  readonly ranking: SearchRanking;
  /** True when equal lines were taken from the end of the output, the latest first. */
  readonly latestFirst: boolean;
  /** Common words of the query left out (the, what, is …). */
  readonly ignoredWords: string[];
  /** Words past the first 32 terms, not searched. */
  readonly droppedWords: string[];
  /** The best lines, best first; equal scores in the order of the text. */
  readonly matches: SearchMatch[];
  /** Lines (and windows of very long lines) that hold at least one term, in what was searched. */
  readonly matchingLines: number;
  /** Matching lines dropped by the `maxCandidates` cap before the final ranking (0: none). */
  readonly candidatesDropped: number;
  /** Null when everything was searched; else why not (the results rank what was). */
  readonly stopped: SearchStop | null;
  /** True when a line over 4 MiB was searched in windows (each window ranked on its own). */
  readonly windowed: boolean;
}

export interface SearchResult extends SearchSummary {
  readonly outputId: string;
  readonly sha256: string;
  /** Lines searched: all of them unless `stopped`. */
  readonly searchedLines: number;
  readonly totalLines: number;
}

/** A checked search request: its terms and limits. */
export interface SearchPlan {
  readonly query: string;
  readonly terms: string[];
  readonly ignored: string[];
  readonly dropped: string[];
  readonly maxResults: number;
  readonly maxLineChars: number;
  readonly maxCandidates: number;
  readonly timeoutMs: number;
  readonly order: RankingOrder;
  readonly onePerLine: boolean;
}

const VALID_QUERY = 'words to find, e.g. "boot marker" or "起動マーカー"';

/** Checks a search request; INVALID_ARGUMENT names the field and what is valid. */
export function planSearch(unchecked: SearchRequest, totalBytes: number): SearchPlan {
  const request = checkRequest(searchRequestSchema, unchecked);
  const query = request.query;
  if (query.length > MAX_QUERY_CHARS) {
    throw new InvalidArgumentError(
      "query",
      `is ${query.length} characters long`,
      `at most ${MAX_QUERY_CHARS} characters of ${VALID_QUERY}`,
    );
  }
  const { terms, ignored, dropped } = queryTerms(query, MAX_QUERY_TERMS);
  if (terms.length === 0) {
    throw new InvalidArgumentError(
      "query",
      ignored.length > 0
        ? `holds only common words that nearly every line has (${ignored.join(", ")})`
        : `holds no word (letters or digits): ${JSON.stringify(query.slice(0, 80))}`,
      `${VALID_QUERY}${ignored.length > 0 ? "; grep finds exact text such as those words" : ""}`,
    );
  }
  return {
    query,
    terms,
    ignored,
    dropped,
    maxResults: intArg(
      "maxResults",
      request.maxResults,
      DEFAULT_SEARCH_RESULTS,
      1,
      MAX_SEARCH_RESULTS,
    ),
    maxLineChars: intArg(
      "maxLineChars",
      request.maxLineChars,
      DEFAULT_SEARCH_LINE_CHARS,
      20,
      100_000,
    ),
    maxCandidates: intArg(
      "maxCandidates",
      request.maxCandidates,
      DEFAULT_MAX_CANDIDATES,
      100,
      10_000_000,
    ),
    timeoutMs: intArg(
      "timeoutMs",
      request.timeoutMs,
      defaultPatternTimeoutMs(totalBytes),
      1,
      600_000,
    ),
    order: { ranking: request.ranking ?? "bm25", latestFirst: request.latestFirst ?? false },
    onePerLine: request.onePerLine ?? false,
  };
}

/** The terms of a finished corpus, with their rarity. */
export function termsSummary(corpus: SearchCorpus): SearchTerm[] {
  const weights = corpus.weights();
  return corpus.terms.map((term, t) => ({
    term,
    lines: corpus.documentFrequency[t]!,
    weight: Math.round(weights[t]! * 1000) / 1000,
  }));
}

/**
 * A ranked row as a match: its line, or an excerpt around the passage where to look for the query
 * (`rowFocus`: the rarest word's occurrence with the most of the query around it; `weights`, one
 * per term, decide between words held equally often).
 */
export async function describeRow(
  output: OpenedOutput,
  reader: TextReader,
  row: RankedRow,
  terms: readonly string[],
  maxLineChars: number,
  weights?: readonly number[],
): Promise<SearchMatch> {
  const start = (await reader.positionAtByte(row.byteStart)).char;
  const focus =
    row.chars > maxLineChars
      ? await rowFocus(reader, row, start, terms, maxLineChars, weights)
      : row.focus;
  return rowAt(output, reader, row, start, focus, terms, maxLineChars);
}

/** A ranked row as a match, its excerpt (on a long row) centred on `focus`, an offset in it. */
async function rowAt(
  output: OpenedOutput,
  reader: TextReader,
  row: RankedRow,
  start: number,
  focus: number,
  terms: readonly string[],
  maxLineChars: number,
): Promise<SearchMatch> {
  const end = start + row.chars;
  let from = start;
  let to = end;
  if (row.chars > maxLineChars) {
    const centred = start + focus - Math.floor(maxLineChars / 2);
    from = Math.max(start, Math.min(centred, end - maxLineChars));
    to = from + maxLineChars;
  }
  const range = await reader.readChars(from, to);
  return {
    outputId: output.record.id,
    line: range.start.line + 1,
    text: range.text,
    clipped: row.window || to - from < row.chars,
    provenance: provenanceOf(output, range),
    score: row.score,
    terms: row.termIndexes.map((t) => terms[t]!),
    focusChar: Math.min(Math.max(start + focus, from), Math.max(from, to - 1)),
  };
}

/**
 * A ranked row as its matches: the row once, or a long row as its best passage and, while `room`
 * is left, its next best passages as matches of their own, with the row's score (SW-49 in
 * docs/architecture.md): a one-line export holds many records, and its best passage alone would
 * hide the others that hold the query's words. A window of a line over 4 MiB keeps its one
 * passage, as does every row with `onePerLine`.
 */
async function rowPassages(
  output: OpenedOutput,
  reader: TextReader,
  row: RankedRow,
  plan: SearchPlan,
  weights: readonly number[],
  room: number,
): Promise<SearchMatch[]> {
  const { terms, maxLineChars } = plan;
  if (plan.onePerLine || room <= 0 || row.window || row.chars <= maxLineChars)
    return [await describeRow(output, reader, row, terms, maxLineChars, weights)];
  const start = (await reader.positionAtByte(row.byteStart)).char;
  const foci = await rowFoci(reader, row, start, terms, maxLineChars, weights, room + 1);
  const matches: SearchMatch[] = [];
  for (const focus of foci)
    matches.push(await rowAt(output, reader, row, start, focus, terms, maxLineChars));
  return matches;
}

/** Characters read to tell a CSV output's header from a first row of data. */
const HEADER_CHARS = 64 * 1024;

/**
 * Whether a CSV output's first line names its columns: at least three distinct names, shaped
 * unlike the row after them (src/retrieval/record-csv.ts). A first row of data is no header, and
 * its values must not count in the other rows.
 */
async function namesColumns(reader: TextReader): Promise<boolean> {
  const end = Math.min(reader.totalChars, HEADER_CHARS);
  const head = (await reader.readChars(0, end)).text;
  const profile = csvProfile(head, end === reader.totalChars, true);
  return profile !== null && profile.headerLastLine === 0;
}

/**
 * Searches one opened output and adds it to `corpus`; returns how far it got. The corpus
 * counts the lines and characters searched (the store's totals, less what the deadline left).
 */
export async function searchInto(
  output: OpenedOutput,
  source: number,
  corpus: SearchCorpus,
  terms: ScanTerms,
  deadline: number,
): Promise<{ searchedLines: number; timedOut: boolean; windowed: boolean }> {
  const reader = textReaderOf(output, "search");
  const totalLines = output.record.lineCount ?? 0;
  const totalChars = output.record.charCount ?? 0;
  // The totals first: pruning ranks with them while the scan runs.
  corpus.documents += totalLines;
  corpus.chars += totalChars;
  const outcome = await scanOutput(output, source, corpus, terms, deadline);
  if (output.record.kind === "csv" && (await namesColumns(reader))) corpus.nameColumns(source);
  if (!outcome.timedOut) return { searchedLines: totalLines, ...outcome };
  const reached = await reader.positionAtByte(outcome.searchedBytes);
  const searchedLines = reached.atLineStart ? reached.line : reached.line + 1;
  corpus.documents -= totalLines - searchedLines;
  corpus.chars -= totalChars - reached.char;
  return { searchedLines, ...outcome };
}

/**
 * Finds the lines of an output that best match a query's words, in any script: case-,
 * width- and separator-insensitive (`boot marker` finds `BOOT-MARKER-ALPHA`), CJK and Thai
 * without spaces included, ranked by BM25 or by the query's words each line holds (rare words
 * weigh more either way), each with its line number, score, matched terms and provenance.
 * Streams the output within a deadline and a cap on the matching lines kept; the result says
 * when either was met.
 *
 * @example
 * const opened = await store.open("out_…", { sessionId: "ses_1" });
 * const found = await searchOutput(opened, { query: "boot marker", maxResults: 5 });
 * found.matches[0]; // { line: 4812, text: "… BOOT-MARKER-ALPHA=7f3a …", score: 17.2, terms: ["boot", "marker"], provenance: … }
 */
export async function searchOutput(
  output: OpenedOutput,
  request: SearchRequest,
): Promise<SearchResult> {
  const reader = textReaderOf(output, "search");
  const plan = planSearch(request, output.record.byteSize ?? 0);
  const deadline = Date.now() + plan.timeoutMs;
  const corpus = new SearchCorpus(plan.terms, plan.maxCandidates, plan.order);
  const scan = await searchInto(output, 0, corpus, new ScanTerms(plan.terms), deadline);
  const matches: SearchMatch[] = [];
  const weights = corpus.weights();
  const rows = corpus.top(plan.maxResults);
  let room = plan.maxResults - rows.length;
  for (const row of rows) {
    const found = await rowPassages(output, reader, row, plan, weights, room);
    matches.push(...found);
    room -= found.length - 1;
  }
  return {
    mode: "search",
    outputId: output.record.id,
    sha256: output.record.sha256,
    query: plan.query,
    ...plan.order,
    terms: termsSummary(corpus),
    ignoredWords: plan.ignored,
    droppedWords: plan.dropped,
    matches,
    matchingLines: corpus.matching,
    candidatesDropped: corpus.prunedRows,
    stopped: scan.timedOut ? { reason: "deadline", timeoutMs: plan.timeoutMs } : null,
    windowed: scan.windowed,
    searchedLines: scan.searchedLines,
    totalLines: output.record.lineCount ?? 0,
  };
}

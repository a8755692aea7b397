/**
 * Model-facing text of search results: a header with the query, its words and how many lines
 * hold them, then the best lines as `LINE: text` (best first), then what limited the search.
 * Rows stay line numbers and text, so a reader can find each line again (and show it inside
 * its record).
 */
import type { SearchMatch, SearchSummary } from "../retrieval/search.js";
import type { SessionSearchResult } from "../retrieval/search-session.js";

const n = (value: number) => value.toLocaleString("en-US");
const lines = (count: number) => `${n(count)} line${count === 1 ? "" : "s"}`;
/** Terms listed in a header; the rest are counted. */
const SHOWN_TERMS = 12;

/** A ranked line as `LINE: text`, saying when it is an excerpt of a long line. */
export function matchRow(match: SearchMatch): string {
  const clip = match.clipped
    ? ` [excerpt of a long line: chars ${n(match.provenance.charStart)}-${n(match.provenance.charEnd)}]`
    : "";
  return `${match.line}: ${match.text}${clip}`;
}

/** The query's words and how many lines hold each: `boot: 3, marker: 1`. */
function wordsOf(summary: SearchSummary): string {
  const shown = summary.terms.slice(0, SHOWN_TERMS).map((term) => `${term.term}: ${n(term.lines)}`);
  const more = summary.terms.length - SHOWN_TERMS;
  return `${shown.join(", ")}${more > 0 ? `, and ${more} more` : ""}`;
}

/** `12 matching lines (lines holding each word: boot: 12, marker: 3)`. */
export function matching(summary: SearchSummary): string {
  const count = summary.matchingLines;
  return `${n(count)} matching line${count === 1 ? "" : "s"} (lines holding each word: ${wordsOf(summary)})`;
}

/** Notes on what limited the search, one per line. */
export function notes(summary: SearchSummary, searched: string): string[] {
  const out: string[] = [];
  if (summary.ignoredWords.length > 0)
    out.push(`[common words left out: ${summary.ignoredWords.join(", ")}]`);
  if (summary.droppedWords.length > 0)
    out.push(
      `[only the first 32 words were searched; left out: ${summary.droppedWords.join(", ")}]`,
    );
  if (summary.stopped)
    out.push(
      `[the search stopped at its ${n(summary.stopped.timeoutMs)} ms deadline after ${searched}: the rest was not searched]`,
    );
  if (summary.candidatesDropped > 0)
    out.push(
      `[${lines(summary.candidatesDropped)} scoring lowest were dropped before the final ranking, to bound memory]`,
    );
  if (summary.windowed) out.push("[lines over 4 MiB were searched in windows, each ranked alone]");
  return out;
}

/** Rows that fit `maxChars` (at least one), and how many did not. */
function fitted(rows: readonly string[], maxChars: number): { shown: string[]; left: number } {
  const shown: string[] = [];
  let used = 0;
  for (const row of rows) {
    if (shown.length > 0 && used + row.length + 1 > maxChars) break;
    shown.push(row);
    used += row.length + 1;
  }
  return { shown, left: rows.length - shown.length };
}

/** The note on ranked lines that did not fit the answer. */
export function leftNote(left: number): string[] {
  return left > 0
    ? [`[${lines(left)} more ranked below did not fit this answer; read one with mode="slice"]`]
    : [];
}

/**
 * A session-wide search: the same rows, each run of rows from one output under a line naming
 * it (`[out_… fs__read_file]`), best first across outputs.
 */
export function renderSessionSearch(result: SessionSearchResult, maxChars: number): string {
  const outputs = `${n(result.outputsSearched)} output${result.outputsSearched === 1 ? "" : "s"}`;
  const head = `[search of this session's ${outputs} for ${JSON.stringify(result.query)}: `;
  const header =
    result.matches.length === 0
      ? `${head}no line holds these words: ${result.terms.map((t) => t.term).join(", ")}]`
      : `${head}${matching(result)}; showing the best ${result.matches.length} · LINE: text, under the output it is in]`;
  const rows: string[] = [];
  let previous: string | undefined;
  for (const match of result.matches) {
    const name = result.toolNames[match.outputId];
    const owner =
      match.outputId === previous ? "" : `[${match.outputId}${name ? ` ${name}` : ""}]\n`;
    rows.push(`${owner}${matchRow(match)}`);
    previous = match.outputId;
  }
  const { shown, left } = fitted(rows, maxChars);
  const skipped = result.outputsSkipped.map((s) => `${s.outputId} (${s.reason})`);
  const skippedNote = skipped.length > 0 ? [`[not searched: ${skipped.join(", ")}]`] : [];
  const searched = `${lines(result.searchedLines)}`;
  return [header, ...shown, ...leftNote(left), ...skippedNote, ...notes(result, searched)].join(
    "\n",
  );
}

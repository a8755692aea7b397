/**
 * A search's equal lines ordered by their records (SW-39 in docs/architecture.md). BM25 scores a
 * line by itself, so the same line in many records (`nodeName: node-a` in every pod on that node) ties,
 * and the order of the text decides which record is shown first. The record that also holds the
 * query's other words (the pod of `app: billing` whose `podIP` was asked for) is the one the
 * query is about, so among lines of the same score, the one whose record holds more of the
 * query (rare words weighing more) comes first. Only ties move: a record's words never outweigh
 * a line's own score, or a stack trace's frames would bury the line holding the rarest word. The
 * search mode asks for every line the search keeps (at most 100) and shows the first it asked
 * for, so an equal line past them can come first; one scan, where asking again for more would
 * read the output twice.
 */
import { recordAround } from "../../retrieval/records.js";
import type { SearchMatch, SearchResult } from "../../retrieval/search.js";
import type { OpenedOutput } from "../../store/output-store.js";
import { termWeight, WEIGHED_RECORD, withHeader } from "../record-weight.js";
import { searchMatchAt } from "./match-records.js";

/** Equal lines whose records are weighed, at most (each is a read around the line). */
const MAX_TIED_RECORDS = 30;

/**
 * The matches with each run of equal scores ordered by how much of the query their records hold
 * (equal records keep the order of the text), then the first `keep`. Runs that start past `keep`
 * are not weighed, and at most `MAX_TIED_RECORDS` lines of a run are.
 *
 * @example
 * const best = await tiesByRecord(opened, result, 10);
 */
export async function tiesByRecord(
  opened: OpenedOutput,
  result: SearchResult,
  keep: number,
): Promise<SearchMatch[]> {
  const terms = new Map(result.terms.map((t) => [t.term, t.weight]));
  const matches = result.matches;
  const ordered: SearchMatch[] = [];
  for (let start = 0; start < matches.length && ordered.length < keep; ) {
    let end = start + 1;
    while (end < matches.length && matches[end]!.score === matches[start]!.score) end++;
    const run = matches.slice(start, end);
    ordered.push(...(run.length > 1 ? await byRecordWeight(opened, run, terms) : run));
    start = end;
  }
  return ordered.slice(0, keep);
}

async function byRecordWeight(
  opened: OpenedOutput,
  run: readonly SearchMatch[],
  terms: ReadonlyMap<string, number>,
): Promise<SearchMatch[]> {
  const weighed: { match: SearchMatch; index: number; weight: number }[] = [];
  for (const [index, match] of run.slice(0, MAX_TIED_RECORDS).entries()) {
    const at = searchMatchAt(match);
    const record = await recordAround(
      opened,
      { line: at.line, charOffset: at.matchCharStart },
      WEIGHED_RECORD,
    ).catch(() => undefined);
    weighed.push({ match, index, weight: record ? termWeight(withHeader(record), terms) : 0 });
  }
  weighed.sort((a, b) => b.weight - a.weight || a.index - b.index);
  return [...weighed.map((w) => w.match), ...run.slice(MAX_TIED_RECORDS)];
}

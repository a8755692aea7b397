/**
 * The task search's lines ranked with their records, and the record shown around the best one
 * (SW-11, SW-32 in docs/architecture.md). A table row is ranked with its header's names: they
 * are what its cells mean. The record shown is the innermost one that holds the line, or an
 * enclosing one when that holds more of the task's words and still fits: a question names the
 * thing it asks about, and in nested output the line a search finds is often a part of that
 * thing (a container of a pod, an item of an order) that does not say whose it is.
 */
import type { MatchRecord } from "../retrieval/record-types.js";
import { outerRecord, recordAround } from "../retrieval/records.js";
import type { SearchMatch } from "../retrieval/search.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { isBareSearchRecord, searchMatchAt } from "./get-tool-output/match-records.js";
import { termWeight, WEIGHED_RECORD, withHeader } from "./record-weight.js";
import { compoundWords, leadGroup, type TaskSearch, wholeWordTest } from "./task-search.js";

/** Bounds of the record shown around the task search's best line (the rest is named by slice). */
export const TASK_RECORD = WEIGHED_RECORD;

/** Enclosing records tried past the innermost one, at most. */
const MAX_LEVELS_OUT = 4;

/** A search line, its record, and its rank key. */
interface Candidate {
  readonly match: SearchMatch;
  readonly record: MatchRecord | undefined;
  /** `leadGroup`'s: lines holding a task word whole lead. */
  readonly group: number;
  readonly score: number;
  /** The task terms the line's record holds, by weight: what decides between equal lines. */
  readonly recordWeight: number;
  readonly index: number;
}

/**
 * The task search's lines ranked with their records' field names, and the best line's record
 * (SW-32). A table row is scored as if its header's names were in it, each task word they hold
 * counted once at its search weight: the row of team Platform and region US is the one under
 * `| Team | Region | Primary |`, though the row itself says only `| Platform | US | …`; a
 * word of the task the search splits (`p95_latency`) that its header holds whole ranks it with
 * the lines that hold one (they lead).
 * The rest of a record only decides between lines that score the same (eight lines holding a
 * security identifier: the one in the event that speaks of the task); as a score it would let a
 * stack trace's frames outweigh the line holding the task's rarest word. Otherwise the search's
 * order stands (lines holding a task word whole first, then by
 * score, then by record, equal ones in the order of the text). The best line's record is the
 * innermost one, or the enclosing record, within `TASK_RECORD`, that holds the most of the
 * task's terms (ties go to the smaller); when another line's own record lies inside it and holds
 * as much, that line leads with that record; `best` is `undefined` when its record is the line
 * alone.
 *
 * @example
 * const { matches, best } = await rankedByRecord(outputs, record, scope, search);
 */
export async function rankedByRecord(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  search: TaskSearch,
): Promise<{ matches: SearchMatch[]; best?: MatchRecord }> {
  if (search.matches.length === 0) return { matches: [] };
  const terms = search.terms ?? new Map<string, number>();
  const opened = await outputs.open(record.id, scope);
  try {
    const words = search.leadWords ?? [];
    const groupOf = leadGroup(words);
    // A question names a column in its own sentence's case ("team" for `Team`). As for a line,
    // only a word the search splits leads when the header holds it whole (`leadGroup`): a plain
    // word there is one term, which the header's weight below counts already.
    const headerHoldsOne = wholeWordTest(compoundWords(words), true);
    const candidates: Candidate[] = [];
    for (const [index, match] of search.matches.entries()) {
      const inner = await recordAround(opened, positionOf(match), TASK_RECORD).catch(
        () => undefined,
      );
      const bare = !inner || isBareSearchRecord(inner, match);
      const header = inner?.header?.text ?? "";
      // A header holding a task word whole leads its row as the word in the row would.
      const group = headerHoldsOne(header) ? 0 : groupOf(match.text);
      candidates.push({
        match,
        record: bare ? undefined : inner,
        group,
        // The header's names the row does not hold, as if they were in it.
        score: match.score + (header ? termWeight(header, terms, match.text) : 0),
        recordWeight: inner ? termWeight(withHeader(inner), terms) : 0,
        index,
      });
    }
    const ranked = candidates.sort(
      (a, b) =>
        a.group - b.group ||
        b.score - a.score ||
        b.recordWeight - a.recordWeight ||
        a.index - b.index,
    );
    const top = ranked[0]!;
    const widest = top.record
      ? await widened(opened, top.record, top.recordWeight, top.match, terms)
      : undefined;
    const tighter = widest ? tightestInside(ranked, widest, terms) : undefined;
    const lead = tighter ?? top;
    const best = tighter?.record ?? widest;
    const order = [lead, ...ranked.filter((c) => c !== lead)];
    return { matches: order.map((c) => c.match), ...(best ? { best } : {}) };
  } finally {
    await opened.close();
  }
}

/**
 * The candidate whose own record lies inside `shown` and holds as much of the task as it, the
 * smallest such: the same words with fewer lines beside them (a test's failure block inside the
 * file's block that lists it, a nested item holding every word its parent holds), as the
 * widening prefers the smaller of two records that hold the same. `undefined` when none does.
 */
function tightestInside(
  ranked: readonly Candidate[],
  shown: MatchRecord,
  terms: ReadonlyMap<string, number>,
): Candidate | undefined {
  // A clipped record's weight is of the part shown, not of the span another record lies in.
  if (shown.clipped) return undefined;
  // The same terms summed in another order: equal within rounding.
  const weight = termWeight(withHeader(shown), terms) - WEIGHT_ROUNDING;
  let tightest: Candidate | undefined;
  for (const candidate of ranked) {
    const inner = candidate.record;
    if (!inner || inner.clipped || !within(inner, shown) || candidate.recordWeight < weight)
      continue;
    if (!tightest || size(inner) < size(tightest.record!)) tightest = candidate;
  }
  return tightest;
}

/** Sums of the same term weights differ by less than this, whatever their order. */
const WEIGHT_ROUNDING = 1e-9;

const size = (record: MatchRecord) => record.charEnd - record.charStart;

/** `inner` lies inside `outer` and is smaller. */
const within = (inner: MatchRecord, outer: MatchRecord) =>
  inner.charStart >= outer.charStart && inner.charEnd <= outer.charEnd && size(inner) < size(outer);

const positionOf = (match: SearchMatch) => {
  const at = searchMatchAt(match);
  return { line: at.line, charOffset: at.matchCharStart };
};

/**
 * `inner` (holding `innerWeight` of the task's terms, as ranked), or the enclosing record within
 * `TASK_RECORD` that holds more of them.
 */
async function widened(
  opened: Awaited<ReturnType<OutputStore["open"]>>,
  inner: MatchRecord,
  innerWeight: number,
  match: SearchMatch,
  terms: ReadonlyMap<string, number>,
): Promise<MatchRecord> {
  const position = positionOf(match);
  let chosen = inner;
  let weight = innerWeight;
  for (let level = 0; level < MAX_LEVELS_OUT && !inner.clipped; level++) {
    const outer = await outerRecord(opened, inner, position, TASK_RECORD);
    // An enclosing record over the bounds would show only the part around the line.
    if (!outer || outer.clipped) break;
    const outerWeight = termWeight(withHeader(outer), terms);
    if (outerWeight > weight) {
      chosen = outer;
      weight = outerWeight;
    }
    inner = outer;
  }
  return chosen;
}

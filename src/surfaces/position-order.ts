/**
 * The order of a search's equal lines (SW-55 in docs/architecture.md). BM25's length and
 * repetition terms rank a short line above a long one, which says nothing about which of many
 * lines holding the same words a task wants, while "the first error" or "the last refund" asks
 * for a position. Ranked by coverage (each query word's rarity, once), lines holding the same
 * words tie and keep the output's order, from its end when the task asks for the last.
 */
import type { SearchRequest } from "../retrieval/search.js";

/** Words that ask for the end of the output rather than its start, in English, Chinese and Japanese. */
const ASKS_FOR_LAST =
  /\b(?:last|latest|final|newest|most recent(?:ly)?|bottom-?most)\b|最後|最新|最終|最近/iu;

/**
 * True when the task asks for the last, latest or final of something: equal lines are then
 * taken from the end of the output.
 *
 * @example
 * asksForLast("What was the last error before the restart?") // true
 * asksForLast("Which request failed first?") // false
 */
export function asksForLast(task: string): boolean {
  return ASKS_FOR_LAST.test(task);
}

/**
 * A search request's ranking for lines in the order of the output: by the words each holds,
 * equal lines from the end when the task asks for the last.
 *
 * @example
 * positionRanking("Which parcel was lost last?"); // { ranking: "coverage", latestFirst: true }
 */
export function positionRanking(task: string): Pick<SearchRequest, "ranking" | "latestFirst"> {
  return { ranking: "coverage", latestFirst: asksForLast(task) };
}

/**
 * The ranking of a search a model asked for in a session: the output's order among equal lines
 * when `positionOrder` is on (the session's task decides which end), BM25 when it is off.
 *
 * @example
 * searchOrderFor({ positionOrder: true, taskText: "the latest deploy?" });
 * // { ranking: "coverage", latestFirst: true }
 */
export function searchOrderFor(context: {
  readonly positionOrder?: boolean;
  readonly taskText?: string;
}): Pick<SearchRequest, "ranking" | "latestFirst"> {
  return context.positionOrder === true ? positionRanking(context.taskText ?? "") : {};
}

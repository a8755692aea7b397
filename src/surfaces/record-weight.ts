/**
 * How much of a query or task a record holds: the summed search weights of the distinct terms
 * in it, so a rare word counts more than a common one. The task search (task-record.ts) and the
 * search mode (get-tool-output/search-ties.ts) both decide between equal lines by it.
 */
import type { MatchRecord } from "../retrieval/record-types.js";
import { foldText, termsOf } from "../retrieval/search-terms.js";

/** Bounds of a record weighed or shown around a search line (the rest is named by slice). */
export const WEIGHED_RECORD = { maxLines: 60, maxChars: 1_600 } as const;

/** The distinct terms of a text, folded as the search folds them. */
const termSet = (text: string) => new Set(termsOf(text).map(foldText));

/**
 * The summed weights of the distinct terms of `terms` that `text` holds, less those `except`
 * holds.
 *
 * @example
 * termWeight("kind: Pod\nreason: OOMKilled", new Map([["pod", 0.4], ["killed", 2.1]])) // 2.5
 */
export function termWeight(text: string, terms: ReadonlyMap<string, number>, except = ""): number {
  const excluded = termSet(except);
  let total = 0;
  for (const term of termSet(text)) if (!excluded.has(term)) total += terms.get(term) ?? 0;
  return total;
}

/** A record's text with its header's names (a CSV row's columns): what it holds of a query. */
export const withHeader = (record: MatchRecord) => `${record.header?.text ?? ""}\n${record.text}`;

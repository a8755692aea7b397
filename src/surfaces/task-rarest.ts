/**
 * The handle message's task search shows a line holding the task's rarest word (SW-62 in
 * docs/architecture.md). Lines are ranked by the sum of their words' weights, so a few lines
 * each holding two of the task's less rare words (the kind of value asked for, "code" and
 * "script") can fill every place shown while the one line holding its rarest word (the name of
 * the thing asked about) ranks just below them; then the model never sees that line.
 */
import { recordShows } from "../retrieval/record-matches.js";
import type { MatchRecord } from "../retrieval/record-types.js";
import type { SearchMatch } from "../retrieval/search.js";
import { searchMatchAt } from "./get-tool-output/match-records.js";

/**
 * The first `count` of `ranked`, where, when none of them (nor the best one's record) holds one
 * of `rarest`, the last gives way to the best-ranked line that does. The best line and its
 * record stay as ranked; nothing changes when no ranked line holds a rarest term.
 *
 * @example
 * const shown = withRarestShown(ranked, 3, ["tifinagh"], best);
 * // the two best lines, then the best line holding "tifinagh" when the first three hold none
 */
export function withRarestShown(
  ranked: readonly SearchMatch[],
  count: number,
  rarest: readonly string[],
  best?: MatchRecord,
): SearchMatch[] {
  const shown = ranked.slice(0, count);
  if (count < 2 || rarest.length === 0) return shown;
  const holdsRarest = (match: SearchMatch) => match.terms.some((term) => rarest.includes(term));
  // As the section decides which search lines the best record shows (task-section.ts).
  const inBest = (match: SearchMatch) =>
    best !== undefined && recordShows(best, searchMatchAt(match));
  const holding = ranked.filter(holdsRarest);
  if (holding.length === 0 || holding.some((m) => shown.includes(m) || inBest(m))) return shown;
  return [...shown.slice(0, count - 1), holding[0]!];
}

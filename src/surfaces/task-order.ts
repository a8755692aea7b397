/**
 * The order of the task search's lines (SW-34 in docs/architecture.md). Lines are ranked by the
 * task's words they hold, each weighed by its rarity (half inside quoted free text), and lines
 * holding the same words are shown in the order of the output: BM25's length and repetition
 * terms rank a short line above a long one, which says nothing about which of a hundred
 * `level=error` lines the task wants, while "the first error" or "the last failure" asks for a
 * position. A task that asks for the last or latest of something is shown the latest first.
 */
import type { SearchMatch, SearchRequest } from "../retrieval/search.js";
import { termsOf } from "../retrieval/search-terms.js";

/** A quoted string of several words: free text (a message, a note), not a field's value. */
const QUOTED_PROSE = /"[^"\n]*\s[^"\n]*"/g;
/** What a term found only inside free text counts for, against a field's value. */
const PROSE_SHARE = 0.5;

/**
 * The terms of a line outside its quoted free text: a word that is a field's whole value
 * (`"level":"error"`, `status=lost`) says what the line is; the same word inside a message or a
 * note (`"msg":"retrying after an error"`) only mentions it.
 */
function valueTerms(text: string): Set<string> {
  return new Set(termsOf(text.replace(QUOTED_PROSE, " ")));
}

/** Words that ask for the end of the output rather than its start, in English, Chinese and Japanese. */
const ASKS_FOR_LAST =
  /\b(?:last|latest|final|newest|most recent(?:ly)?|bottom-?most)\b|最後|最新|最終|最近/iu;

/**
 * True when the task asks for the last, latest or final of something: equal lines are then shown
 * latest first.
 *
 * @example
 * asksForLast("What was the last error before the restart?") // true
 * asksForLast("Which request failed first?") // false
 */
export function asksForLast(task: string): boolean {
  return ASKS_FOR_LAST.test(task);
}

/**
 * The search request's ranking for lines in the order of the output: by the words each holds,
 * equal lines latest first when the task asks for the last (SW-34, SW-40).
 *
 * @example
 * positionRanking("Which parcel was lost last?"); // { ranking: "coverage", latestFirst: true }
 */
export function positionRanking(task: string): Pick<SearchRequest, "ranking" | "latestFirst"> {
  return { ranking: "coverage", latestFirst: asksForLast(task) };
}

/**
 * How much of the task a line holds: the weights of the task's terms on it, where a term counts
 * only when no longer term of the same word on the line contains it. A compound found whole
 * counts once (`podIP` is the terms `podip`, `pod` and `ip`: only `podip` counts), so one word
 * cannot outweigh a rarer one; the parts of a word that are not found whole each count
 * (`INC-29703` is `inc` and `29703`: a line holding both outweighs one holding `29703` alone).
 * Lines holding the same terms weigh exactly the same. With `outsideProse`, the terms the line
 * holds outside its quoted free text, a term found only inside that text counts half: "the first
 * error" asks for a line whose level is `error` before one whose message mentions an error.
 *
 * @example
 * evidenceOf(["podip", "pod", "ip"], [["ip", "pod", "podip"], ["9j7hs", "node"]], weights);
 * // weights.get("podip"): the first word found whole, the second word absent
 */
export function evidenceOf(
  lineTerms: readonly string[],
  wordTerms: readonly (readonly string[])[],
  weights: ReadonlyMap<string, number>,
  outsideProse?: ReadonlySet<string>,
): number {
  const held = new Set(lineTerms);
  let evidence = 0;
  for (const terms of wordTerms) {
    const found = terms.filter((term) => held.has(term));
    for (const term of found)
      if (!found.some((other) => other !== term && other.includes(term)))
        evidence +=
          (weights.get(term) ?? 0) * (!outsideProse || outsideProse.has(term) ? 1 : PROSE_SHARE);
  }
  return evidence;
}

/**
 * `matches` with each score replaced by the line's evidence (`evidenceOf`), given the folded
 * terms of each distinct task word; a term the line holds only inside quoted free text counts
 * half.
 *
 * @example
 * withEvidence(found.matches, wordTerms, weights); // lines holding the same words score the same
 */
export function withEvidence(
  matches: readonly SearchMatch[],
  wordTerms: readonly (readonly string[])[],
  weights: ReadonlyMap<string, number>,
): SearchMatch[] {
  return matches.map((match) => ({
    ...match,
    score: evidenceOf(match.terms, wordTerms, weights, valueTerms(match.text)),
  }));
}

/**
 * `matches` best first, lines of equal score in the order of the output, or from its end with
 * `lastFirst`.
 *
 * @example
 * inTextOrder(withEvidence(found.matches, wordTerms, weights), asksForLast(task));
 */
export function inTextOrder(matches: readonly SearchMatch[], lastFirst: boolean): SearchMatch[] {
  return [...matches].sort(
    (a, b) => b.score - a.score || (lastFirst ? b.line - a.line : a.line - b.line),
  );
}

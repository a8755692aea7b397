/**
 * The order of the task search's lines (SW-34 in docs/architecture.md). Lines are ranked by the
 * task's words they hold, each weighed by its rarity, and lines holding the same words are shown
 * in the order of the output: BM25's length and repetition terms rank a short line above a long
 * one, which says nothing about which of a hundred `level=error` lines the task wants, while
 * "the first error" or "the last failure" asks for a position. A task that asks for the last or
 * latest of something is shown the latest first.
 */
import type { SearchMatch } from "../retrieval/search.js";

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
 * How much of the task a line holds: the weights of the task's terms on it, where a term counts
 * only when no longer term of the same word on the line contains it. A compound found whole
 * counts once (`podIP` is the terms `podip`, `pod` and `ip`: only `podip` counts), so one word
 * cannot outweigh a rarer one; the parts of a word that are not found whole each count
 * (`INC-29703` is `inc` and `29703`: a line holding both outweighs one holding `29703` alone).
 * Lines holding the same terms weigh exactly the same.
 *
 * @example
 * evidenceOf(["podip", "pod", "ip"], [["ip", "pod", "podip"], ["9j7hs", "node"]], weights);
 * // weights.get("podip"): the first word found whole, the second word absent
 */
export function evidenceOf(
  lineTerms: readonly string[],
  wordTerms: readonly (readonly string[])[],
  weights: ReadonlyMap<string, number>,
): number {
  const held = new Set(lineTerms);
  let evidence = 0;
  for (const terms of wordTerms) {
    const found = terms.filter((term) => held.has(term));
    for (const term of found)
      if (!found.some((other) => other !== term && other.includes(term)))
        evidence += weights.get(term) ?? 0;
  }
  return evidence;
}

/**
 * `matches` with each score replaced by the line's evidence (`evidenceOf`), given the folded
 * terms of each distinct task word.
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
    score: evidenceOf(match.terms, wordTerms, weights),
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

/**
 * Where a search centres its excerpt of a line too long to show whole (a one-line JSON document,
 * a minified bundle). Inside one line, a word the line holds a hundred times says little about
 * where to look and a word it holds once says much: the excerpt is anchored on an occurrence of
 * the query word the line holds least often, as a person would grep for the rarest thing they
 * know. When that word is there more than once (a name two customers share), the occurrence
 * chosen is the one whose passage holds the most of the rest of the query, each word weighed by
 * how rarely the line holds it, then the tightest passage (an e-mail written whole, not its parts
 * spread over two records), then the earliest. A passage of common words never outweighs the
 * rarest word: words a query holds by chance (a number inside an id) add up, one rare word does
 * not happen by chance.
 */
import type { TextReader } from "../store/text-reader.js";
import type { RankedRow } from "./search-corpus.js";
import { isCjkTerm, termsOf } from "./search-terms.js";

/** Characters of a long line looked through for the passage its excerpt centres on. */
export const FOCUS_SCAN_CHARS = 1 << 20;
/**
 * Occurrences of one word looked at. A word held more often than this in the MiB looked through
 * is in nearly every passage, so it cannot tell one from another and is left out: the search
 * stays within a few milliseconds per long row whatever the query.
 */
const MAX_OCCURRENCES = 2_048;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

/** True when no letter, mark or digit touches `text`'s `length` characters at `at`. */
function standsAlone(text: string, at: number, length: number): boolean {
  return (
    (at === 0 || !WORD_CHAR.test(text[at - 1]!)) &&
    (at + length >= text.length || !WORD_CHAR.test(text[at + length]!))
  );
}

/** The word (a run of letters, marks and digits) of `text` around offset `at`. */
function wordAround(text: string, at: number, length: number): string {
  let from = at;
  while (from > 0 && WORD_CHAR.test(text[from - 1]!)) from--;
  let to = at + length;
  while (to < text.length && WORD_CHAR.test(text[to]!)) to++;
  return text.slice(from, to);
}

/**
 * The offsets in `text` where `term` is a term as termsOf cuts words; none when it is there more
 * than MAX_OCCURRENCES times.
 */
function termOffsets(text: string, folded: string, term: string): number[] {
  const offsets: number[] = [];
  for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + 1)) {
    // CJK terms are character pairs of the folded text: any occurrence is one. A word standing
    // alone is a term; inside a longer word, the search's cutting decides (camelCase parts).
    if (
      isCjkTerm(term) ||
      standsAlone(text, at, term.length) ||
      termsOf(wordAround(text, at, term.length)).includes(term)
    )
      offsets.push(at);
    if (offsets.length > MAX_OCCURRENCES) return [];
  }
  return offsets;
}

interface Occurrence {
  readonly at: number;
  /** Index into the words looked for. */
  readonly word: number;
}

/**
 * The offset, in `text`, of the anchor of the passage of at most `width` characters where to look
 * for `words`: passages holding one of the words `text` holds least often (the anchors) compete;
 * the one whose words weigh most (each `ln(1 + passages / count)`) wins, then the tightest, then
 * the earliest. `tieWeights` decide between anchors held equally often; -1 when `text` holds none
 * of the words.
 *
 * @example
 * passageFocus('{"n":"ann","m":"ann@x"} {"n":"ann","m":"ann.2@x"}', ["ann", "2"], 20); // 44, the "2"
 */
export function passageFocus(
  text: string,
  words: readonly string[],
  width: number,
  tieWeights: readonly number[] = [],
): number {
  return passageFoci(text, words, width, tieWeights, 1)[0] ?? -1;
}

/**
 * The anchors of up to `count` passages of `text` where to look for `words`, best first, each at
 * least `width` characters from the others: the first is `passageFocus`'s, the rest the next
 * best passages by the same weights (then the tightest, then the earliest). A line too long to
 * show whole is often many records (a minified export), and a search shows its best few.
 *
 * @example
 * passageFoci('{"s":"refunded"} {"s":"paid"} {"s":"refunded"}', ["refunded"], 10, [], 5); // [6, 36]
 */
export function passageFoci(
  text: string,
  words: readonly string[],
  width: number,
  tieWeights: readonly number[],
  count: number,
): number[] {
  // Lower-casing keeps lengths in all but a few scripts; a shifted offset only moves the excerpt.
  const folded = text.toLowerCase();
  const found = words.map((word) => termOffsets(text, folded, word));
  const held = found.filter((offsets) => offsets.length > 0).map((offsets) => offsets.length);
  if (held.length === 0) return [];
  const fewest = Math.min(...held);
  const isAnchor = found.map((offsets) => offsets.length === fewest);
  const passages = Math.max(1, text.length / Math.max(1, width));
  const weight = found.map((offsets) =>
    offsets.length === 0 ? 0 : Math.log(1 + passages / offsets.length),
  );
  const occurrences: Occurrence[] = found
    .flatMap((offsets, word) => offsets.map((at) => ({ at, word })))
    .sort((a, b) => a.at - b.at);
  const inWindow = new Array<number>(words.length).fill(0);
  let score = 0;
  let anchors = 0;
  let best = { score: -1, span: 0, from: 0, to: 0 };
  const candidates: { score: number; span: number; from: number; to: number }[] = [];
  let from = 0;
  const add = (word: number, step: 1 | -1) => {
    inWindow[word] = inWindow[word]! + step;
    if (inWindow[word] !== (step === 1 ? 1 : 0)) return;
    score += step * weight[word]!;
    if (isAnchor[word]) anchors += step;
  };
  const drop = () => add(occurrences[from++]!.word, -1);
  for (let end = 0; end < occurrences.length; end++) {
    const last = occurrences[end]!;
    add(last.word, 1);
    while (last.at - occurrences[from]!.at >= width) drop();
    // A word held again later in the passage adds nothing where it starts it.
    while (from < end && inWindow[occurrences[from]!.word]! > 1) drop();
    if (anchors === 0) continue;
    const span = last.at - occurrences[from]!.at;
    if (count > 1) candidates.push({ score, span, from, to: end + 1 });
    const gain = score - best.score;
    if (gain > 1e-9 || (gain > -1e-9 && span < best.span))
      best = { score, span, from, to: end + 1 };
  }
  const rank = (o: Occurrence) => weight[o.word]! + (tieWeights[o.word] ?? 0) * 1e-9;
  const focusOf = (passage: { from: number; to: number }) => {
    let focus = occurrences[passage.from]!;
    for (let i = passage.from + 1; i < passage.to; i++)
      if (rank(occurrences[i]!) > rank(focus)) focus = occurrences[i]!;
    return focus.at;
  };
  const foci = [focusOf(best)];
  candidates.sort((a, b) => b.score - a.score || a.span - b.span || a.from - b.from);
  for (const passage of candidates) {
    if (foci.length >= count) break;
    const at = focusOf(passage);
    if (foci.every((other) => Math.abs(other - at) >= width)) foci.push(at);
  }
  return foci;
}

/**
 * Where in a long row (read from `start`) its excerpt of `maxLineChars` is centred: on the anchor
 * (`passageFocus`) of the passage, half as wide as the excerpt so that the excerpt shows it whole,
 * where to look for the query in the row's first MiB. `weights` (one per query term)
 * decide between words the row holds equally often. A row holding none of them there (past the
 * first MiB, or in a form folding changes) keeps its first matched word.
 *
 * @example
 * const focus = await rowFocus(reader, row, start, terms, 500, weights);
 */
export async function rowFocus(
  reader: Pick<TextReader, "readChars">,
  row: RankedRow,
  start: number,
  terms: readonly string[],
  maxLineChars: number,
  weights: readonly number[] | undefined,
): Promise<number> {
  return (await rowFoci(reader, row, start, terms, maxLineChars, weights, 1))[0]!;
}

/**
 * Where a long row's excerpts are centred, at most `count`, best first: `rowFocus`'s, then the
 * anchors of its next best passages (`passageFoci`), each at least half an excerpt from the
 * others, from one read of the row's first MiB. With fewer than two of the query's words (or no
 * weights) the best stays the row's first matched word, as in `rowFocus`.
 *
 * @example
 * const foci = await rowFoci(reader, row, start, terms, 500, weights, 10); // [best, …up to 9 more]
 */
export async function rowFoci(
  reader: Pick<TextReader, "readChars">,
  row: RankedRow,
  start: number,
  terms: readonly string[],
  maxLineChars: number,
  weights: readonly number[] | undefined,
  count: number,
): Promise<number[]> {
  const firstWord = !weights || row.termIndexes.length < 2;
  if (firstWord && count <= 1) return [row.focus];
  const { text } = await reader.readChars(start, start + Math.min(row.chars, FOCUS_SCAN_CHARS));
  const words = row.termIndexes.map((term) => terms[term]!);
  const width = Math.max(1, Math.floor(maxLineChars / 2));
  const tieWeights = row.termIndexes.map((term) => weights?.[term] ?? 0);
  const found = passageFoci(text, words, width, tieWeights, count);
  if (found.length === 0) return [row.focus];
  if (!firstWord) return found;
  const later = found.filter((at) => Math.abs(at - row.focus) >= width);
  return [row.focus, ...later].slice(0, count);
}

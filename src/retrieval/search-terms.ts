/**
 * Words of a search, in any script: how a query and a line are cut into terms.
 *
 * Text is folded first (NFKC, then lower case; a final sigma counts as a sigma), so `ＢＯＯＴ`,
 * `Boot` and `BOOT` are one word; diacritics stay as written (`café` is not `cafe`). A word is a
 * run of letters, marks and digits: every other character separates words, so `boot-marker`,
 * `boot_marker`, `boot.marker` and `boot marker` give the same two terms. A camelCase word also
 * gives its parts (`bootMarker` is `bootmarker`, `boot` and `marker`), and a word where letters
 * and digits meet gives the numbers glued to its letters, two digits or more (`14T09` is
 * `14t09`, `14` and `09`, so `09:26` finds `2026-03-14T09:26:05Z`; `500ms` gives `500`). Letter
 * runs inside such a word are not terms: inside a random id they would match other ids. Scripts
 * written without spaces are cut as follows ([SW-14](../../docs/architecture.md#decision-log)):
 * - Chinese, Japanese and Korean runs become overlapping character pairs (bigrams), the same in a
 *   query and in a line, so a dictionary that cuts a query differently from the line it appears
 *   in cannot lose a match. A line also gives each character alone, for a one-character query.
 * - Other scripts (Thai, Lao, Khmer, Myanmar …) are cut into words by `Intl.Segmenter`.
 */

/** Characters searched as bigrams: Han, Hiragana, Katakana (and its long-vowel mark), Hangul. */
const CJK_CLASS =
  "[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30fc]";
const CJK = new RegExp(CJK_CLASS, "u");
const CJK_RUNS = new RegExp(`${CJK_CLASS}+`, "gu");
const CJK_TERM = new RegExp(`^${CJK_CLASS}+$`, "u");
/** A word's characters: letters, combining marks and digits. */
const WORD_PIECES = /[\p{L}\p{M}\p{N}]+/gu;
const ASCII_WORDS = /[A-Za-z0-9]+/g;
/** Where a camelCase word splits: aB, ABc (before the B), 2Bc. */
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=[\p{Lu}\p{N}])(?=\p{Lu}\p{Ll})/u;
const HAS_UPPER_AND_LOWER = /\p{Lu}[\s\S]*\p{Ll}|\p{Ll}[\s\S]*\p{Lu}/u;
/** Any UTF-16 unit past ASCII (surrogates included). */
const NOT_ASCII = /[\u0080-\uffff]/;

/**
 * Common English words a query may hold that match almost every line and are not what anyone
 * searches for ("what is the boot marker"). Only queries drop them; lines keep every word.
 * The one-letter and two-letter leftovers of contractions (customer's, don't) are here too.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his " +
    "how i if in into is it its me my of on or our she so than that the their them then there " +
    "these they this those to us was we were what when where which while who whom why will " +
    "with would you your s t d m ll re ve"
  ).split(" "),
);

let segmenter: Intl.Segmenter | undefined;

/** Folds text for comparison: NFKC, lower case, final sigma as sigma. */
export function foldText(text: string): string {
  const folded = text.normalize("NFKC").toLowerCase();
  return folded.includes("ς") ? folded.replaceAll("ς", "σ") : folded;
}

/** Where letters meet digits inside a word (`14T09`: after 14, before 09). */
const DIGIT_BOUNDARY = /(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
const LETTER_AND_DIGIT = /\p{L}[\s\S]*\p{N}|\p{N}[\s\S]*\p{L}/u;
const ASCII_LETTER_AND_DIGIT = /[A-Za-z][\s\S]*[0-9]|[0-9][\s\S]*[A-Za-z]/;

const DIGITS = /^\p{N}+$/u;

/** The numbers in a camelCase part where they meet letters: runs of two digits or more. */
function digitParts(
  part: string,
  mixed: boolean,
  out: string[],
  fold: (s: string) => string,
): void {
  if (!mixed) return;
  const runs = part.split(DIGIT_BOUNDARY);
  if (runs.length < 2) return;
  for (const run of runs) if (DIGITS.test(run) && [...run].length > 1) out.push(fold(run));
}

/**
 * A word's parts, then the word: its camelCase parts (when it has both cases), and within each
 * part the numbers glued to its letters (two digits or more), all folded by `fold`.
 */
function partsAndWord(
  word: string,
  camel: boolean,
  mixed: boolean,
  out: string[],
  fold: (s: string) => string,
): void {
  const parts = camel ? word.split(CAMEL_BOUNDARY) : [word];
  if (parts.length > 1) for (const part of parts) out.push(fold(part));
  for (const part of parts) digitParts(part, mixed, out, fold);
  out.push(fold(word));
}

const lowerCase = (s: string) => s.toLowerCase();

/** An ASCII word and its parts (lower case: folding ASCII is that). */
function asciiWordTerms(word: string, out: string[]): void {
  // Both cases present (it has upper-case letters, and lower-case ones): maybe camelCase.
  const camel = word.toLowerCase() !== word && word.toUpperCase() !== word;
  partsAndWord(word, camel, ASCII_LETTER_AND_DIGIT.test(word), out, lowerCase);
}

/** A word and its parts (all folded). */
function wordTerms(word: string, out: string[]): void {
  const camel = word.length > 1 && HAS_UPPER_AND_LOWER.test(word);
  partsAndWord(word, camel, LETTER_AND_DIGIT.test(word), out, foldText);
}

/** The terms of a CJK run: its bigrams, and each character alone for a line (or a lone one). */
function cjkTerms(run: string, forQuery: boolean, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1 || !forQuery) out.push(...chars);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/** Terms of text with no CJK character, through Intl.Segmenter (words of unspaced scripts). */
function segmentedTerms(text: string, out: string[]): void {
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  for (const segment of segmenter.segment(text)) {
    if (!segment.isWordLike) continue;
    for (const piece of segment.segment.match(WORD_PIECES) ?? []) wordTerms(piece, out);
  }
}

/**
 * The terms of a line (every word, CJK characters alone and in pairs) or of a query (CJK in
 * pairs only, so a two-character query word is one term; `cjk: false` leaves CJK out, for
 * a caller that counts those terms itself). ASCII text takes a fast path that
 * gives what the segmenter would: in ASCII it only breaks between letters or digits and other
 * characters, and every such character separates words here anyway.
 *
 * @example
 * termsOf("BOOT-MARKER-ALPHA bootMarker") // ["boot", "marker", "alpha", "boot", "marker", "bootmarker"]
 * termsOf("起動マーカー", { forQuery: true }) // ["起動", "動マ", "マー", "ーカ", "カー"]
 */
export function termsOf(
  text: string,
  options: { forQuery?: boolean; cjk?: boolean } = {},
): string[] {
  const out: string[] = [];
  if (!NOT_ASCII.test(text)) {
    for (const word of text.match(ASCII_WORDS) ?? []) asciiWordTerms(word, out);
    return out;
  }
  const normal = text.normalize("NFKC");
  if (!CJK.test(normal)) {
    segmentedTerms(normal, out);
    return out;
  }
  let from = 0;
  for (const run of normal.matchAll(CJK_RUNS)) {
    if (run.index > from) segmentedTerms(normal.slice(from, run.index), out);
    if (options.cjk !== false) cjkTerms(run[0], options.forQuery === true, out);
    from = run.index + run[0].length;
  }
  if (from < normal.length) segmentedTerms(normal.slice(from), out);
  return out;
}

/** A query's terms, once each, in order, with the common words it dropped. */
export interface QueryTerms {
  readonly terms: string[];
  /** Stop words left out (once each, in order). */
  readonly ignored: string[];
}

/**
 * A term written in hiragana alone. Japanese writes its particles, verb endings and auxiliaries
 * (は, どの, されて, ます) in hiragana and most content words in kanji or katakana, so the pairs
 * of a question's hiragana are its grammar: they match whichever lines share it, not the thing
 * asked about. A query drops them when it has other words, as it drops English stop words.
 */
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}\u30fc]+$/u;

/**
 * The words a query writes in capitals while it writes others in lower case, folded: there a
 * stop word is a name or an acronym (`region US`, `team IT`), searched for like any other word.
 */
function capitalisedNames(query: string): Set<string> {
  if (!/\p{Ll}/u.test(query)) return new Set();
  return new Set(
    [...query.matchAll(/(?<![\p{L}\p{N}])\p{Lu}{2,}(?![\p{L}\p{N}])/gu)].map((m) => foldText(m[0])),
  );
}

/**
 * The distinct terms of a query, without stop words (unless written in capitals among lower
 * case: a name) nor, beside other words, hiragana-only terms; at most `maxTerms`.
 */
export function queryTerms(query: string, maxTerms: number): QueryTerms & { dropped: string[] } {
  const terms: string[] = [];
  const ignored: string[] = [];
  const dropped: string[] = [];
  const distinct = [...new Set(termsOf(query, { forQuery: true }))];
  const names = capitalisedNames(query);
  const isStopWord = (t: string) => STOP_WORDS.has(t) && !names.has(t);
  const content = distinct.filter((t) => !isStopWord(t) && !HIRAGANA_ONLY.test(t));
  const grammar = content.length > 0 ? HIRAGANA_ONLY : undefined;
  for (const term of distinct) {
    if (isStopWord(term) || grammar?.test(term)) ignored.push(term);
    else if (terms.length < maxTerms) terms.push(term);
    else dropped.push(term);
  }
  return { terms, ignored, dropped };
}

/** True when every character of a term is searched as CJK (a character or a pair of them). */
export function isCjkTerm(term: string): boolean {
  return CJK_TERM.test(term);
}

/** True when text has only ASCII characters (then folding it is lower-casing it). */
export function isAsciiText(text: string): boolean {
  return !NOT_ASCII.test(text);
}

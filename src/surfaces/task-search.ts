/**
 * The handle message's search for the task (SW-27 in docs/architecture.md): the task's own words,
 * searched in the output as `mode="search"` searches it (any script, case and separators aside,
 * rare words first), so the model is shown where the output speaks of what it was asked, whatever
 * the task's words look like. Lines are shown only when they hold a word specific to them (held
 * by at most a tenth of the lines): a word every line has says nothing. The examples the
 * handle message offers come from here too: the task's words the output holds, never a
 * placeholder.
 */
import { escapeRegExp } from "../core/escape-regexp.js";
import { grepOutput } from "../retrieval/grep.js";
import { type SearchMatch, searchOutput } from "../retrieval/search.js";
import { foldText, termsOf } from "../retrieval/search-terms.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { withoutStatedLengths } from "./task-value-forms.js";

/** A term held by at most this share of the lines is specific to them. */
const SPECIFIC_SHARE = 0.1;
/** Words of the task in the search example, at most. */
const QUERY_WORDS = 4;
/** The task's words the search splits, beyond its rarest ones, looked for whole, at most. */
const MORE_WHOLE = 4;
/** Characters of the task searched (a long task is cut: its first words name what it asks). */
const TASK_CHARS = 1_000;

export interface TaskSearch {
  /** The best lines for the task, best first, each holding a specific word. */
  readonly matches: readonly SearchMatch[];
  /** The task's words the output holds, rarest first (a search example). */
  readonly query?: string;
  /**
   * The task's words, as written, that the output holds literally on a few lines, rarest task
   * word first: the first is the grep example.
   */
  readonly wholeWords?: readonly string[];
  /**
   * Those of them that lead: lines holding one whole come first ({@link leadGroup}). A word
   * leads only when no word of the task is rarer in the output (SW-59).
   */
  readonly leadWords?: readonly string[];
  /** The task's terms the output holds, with their search weights (rarer weighs more). */
  readonly terms?: ReadonlyMap<string, number>;
  /** The task's terms on the fewest lines, when those are specific: one is shown (SW-62). */
  readonly rarest?: readonly string[];
}

const NOTHING: TaskSearch = { matches: [] };

export interface TaskSearchOptions {
  /** Longest line shown whole; a longer one is an excerpt centred on its rarest matched word. */
  readonly maxLineChars?: number;
}

/** Scripts written without spaces between words (and Korean, whose particles attach to words). */
const UNSPACED =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc";
/** Where a run of such a script meets other text: a word ends there even with no space. */
const SCRIPT_BOUNDARY = new RegExp(
  `(?<=[${UNSPACED}])(?=[^${UNSPACED}])|(?<=[^${UNSPACED}])(?=[${UNSPACED}])`,
  "u",
);

/** A word without the punctuation and symbols at its ends (quotes, a trailing comma). */
const withoutOuterPunctuation = (word: string) =>
  word.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, "");

/**
 * The task's words as written: runs between white space, and between a script written without
 * spaces and any other text (`品番RN-17337の` holds `RN-17337`), outer punctuation and quotes off.
 */
export function taskWords(task: string): string[] {
  return task
    .split(/\s+/)
    .flatMap((w) => w.split(SCRIPT_BOUNDARY))
    .map(withoutOuterPunctuation)
    .filter((w) => w.length > 0);
}

/** A task word the output holds as written, and on how many lines. */
interface Literal {
  readonly word: string;
  readonly lines: number;
}

/**
 * The task's words, as written, that the output holds literally on a few lines (at most
 * `specificLines`): a word found whole there is stronger evidence than its parts found apart.
 */
async function specificLiterals(
  opened: Awaited<ReturnType<OutputStore["open"]>>,
  words: readonly string[],
  specificLines: number,
): Promise<Literal[]> {
  const literals: Literal[] = [];
  for (const word of words) {
    for (const candidate of leadingParts(word)) {
      // One match described, the rest only counted: describing a thousand cost seconds.
      const hits = await grepOutput(opened, { pattern: candidate, maxMatches: 1 });
      if (hits.matches.length === 0) continue;
      if (hits.totalMatches !== null && hits.totalMatches <= specificLines)
        literals.push({ word: candidate, lines: hits.totalMatches });
      break;
    }
  }
  return literals;
}

/**
 * The literals that lead the search: those on no more lines than the task's rarest term. A
 * word held whole is stronger evidence than its parts found apart, not than a rarer word of the
 * task: a field name the task writes (`Installed-Size`, on every record) would otherwise put
 * every record's field line before the one line naming the thing asked about.
 *
 * @example
 * leadingLiterals([{ word: "Installed-Size", lines: 712 }], 3) // []
 * leadingLiterals([{ word: "req-4hpi75", lines: 1 }], 1) // ["req-4hpi75"]
 */
export function leadingLiterals(literals: readonly Literal[], rarestTermLines: number): string[] {
  return literals.filter((l) => l.lines <= rarestTermLines).map((l) => l.word);
}

/**
 * A word as written, then its leading parts cut at punctuation that keep at least half of it,
 * longest first: a word the output holds with a suffix the task added (`user@example.net's`,
 * `INV-1.pdf,`) is still found whole. Parts under three characters are not tried.
 */
export function leadingParts(word: string): string[] {
  const parts = [word];
  for (const cut of [...word.matchAll(/[\p{P}\p{S}]/gu)].map((m) => m.index).reverse()) {
    if (cut * 2 >= word.length) parts.push(word.slice(0, cut));
  }
  return parts.filter((part) => part.length >= 3);
}

/**
 * Lines holding one of the task's words whole come first, in score order otherwise: BM25 scores
 * words apart, so two common parts elsewhere (`handleRequest` for "request … handle") can
 * outrank the one line that holds the task's identifier as written (`req-qmldj8`).
 */
function leadingFirst(matches: readonly SearchMatch[], literals: readonly string[]): SearchMatch[] {
  const groupOf = leadGroup(literals);
  return matches
    .map((match, index) => ({ match, index, group: groupOf(match.text) }))
    .sort((a, b) => a.group - b.group || a.index - b.index)
    .map((ranked) => ranked.match);
}

/**
 * Where a line stands in the task search, before its score: 0 when it holds one of `words`
 * whole, as written, that the search splits into several terms (the task's own identifier); 1
 * otherwise. A word of one term found whole is that term's match, which the score already counts.
 *
 * @example
 * leadGroup(["req-4hpi75"])("req=req-4hpi75 order=ord-1") // 0
 * leadGroup(["memory"])("memory: 512Mi") // 1
 */
export function leadGroup(words: readonly string[]): (text: string) => 0 | 1 {
  const holdsWord = wholeWordTest(compoundWords(words));
  return (text) => (holdsWord(text) ? 0 : 1);
}

/**
 * The words the search splits into several terms (`req-4hpi75`, `podIP`, and `3.3`, whose two
 * terms are one and the same): found whole, such a word is evidence its parts' scores do not
 * count (a line holding `3` twice is not a line holding `3.3`); a word of one term found whole
 * is that term's match, which the score counts already.
 *
 * @example
 * compoundWords(["req-4hpi75", "status", "podIP", "3.3"]) // ["req-4hpi75", "podIP", "3.3"]
 */
export function compoundWords(words: readonly string[]): string[] {
  return words.filter((word) => termsOf(word).length > 1);
}

/**
 * A test for text that holds one of `words` whole: not inside a longer run of letters and digits
 * ("handle" is not in "handleRequest"); as written, or with `ignoreCase` in any case. The
 * patterns are compiled once, for every text the test is given.
 *
 * @example
 * wholeWordTest(["req-4hpi75"])("req=req-4hpi75 order=ord-1") // true
 * wholeWordTest(["team"], true)("| Team | Region |") // true
 */
export function wholeWordTest(
  words: readonly string[],
  ignoreCase = false,
): (text: string) => boolean {
  const flags = ignoreCase ? "iu" : "u";
  const patterns = words.map(
    (w) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(w)}(?![\\p{L}\\p{N}])`, flags),
  );
  return (text) => patterns.some((p) => p.test(text));
}

/** The string values of a call's arguments, at any depth (unparsable arguments: none). */
function argumentStrings(toolArgs: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  try {
    walk(JSON.parse(toolArgs));
  } catch {
    // Arguments are stored as the call sent them; text that is not JSON names no location.
  }
  return found;
}

/** A path's separator, POSIX or Windows. */
const PATH_SEPARATOR = /[/\\]/;

/**
 * A file's name on its own: one run of characters without space or separator, a name, a dot
 * and an extension that opens with a letter (`rgb.txt`, `multirust-channel-manifest.toml`;
 * not `1.9.0`, `v2.1` or a word alone). A server reading files relative to its root is called
 * with such names, and a call's argument of that shape says which file, not what to find
 * (SW-65 in docs/architecture.md).
 */
const BARE_FILE_NAME = /^[^\s/\\]*\p{L}[^\s/\\]*\.\p{L}[\p{L}\p{N}]{0,9}$/u;

/**
 * The arguments of a call that name where it read: a path or URL (a value with a `/` or `\`),
 * or a file's name alone.
 *
 * @example
 * callLocations('{"path":"data/app.log","tail":10}'); // ["data/app.log"]
 */
export function callLocations(toolArgs: string): string[] {
  return argumentStrings(toolArgs).filter((v) => PATH_SEPARATOR.test(v) || BARE_FILE_NAME.test(v));
}

/**
 * The task without the words that name where the output came from: a path or URL the call read
 * (an argument value with a `/` or `\`, or a file's name alone), as written, as its tail from
 * a separator on (`data/app.log` of `/srv/data/app.log`), or as its last part alone (`app.log`).
 * They tell where to look, not what to find, and the output's own words that share their parts
 * (a `data` key for `data/app.log`, a `3166` key for `iso_3166-2.json`) are not what the task
 * asks about.
 *
 * @example
 * withoutLocations("Which IP in data/access.log fetched /a.pdf?", '{"path":"data/access.log"}');
 * // "Which IP in   fetched /a.pdf?"
 */
export function withoutLocations(task: string, toolArgs: string): string {
  const locations = callLocations(toolArgs);
  if (locations.length === 0) return task;
  const lastParts = new Set(locations.map((l) => foldText(l.split(PATH_SEPARATOR).pop()!)));
  const names = (word: string) =>
    PATH_SEPARATOR.test(word)
      ? locations.some(
          (l) =>
            l === word || (l.endsWith(word) && PATH_SEPARATOR.test(l[l.length - word.length - 1]!)),
        )
      : word !== "" && lastParts.has(foldText(word));
  return task
    .split(/(\s+)/)
    .map((part) => (names(withoutOuterPunctuation(part)) ? "" : part))
    .join("");
}

/**
 * Searches the output for the task's words; `maxLineChars` bounds each line shown (an excerpt
 * of a longer one, centred on its rarest matched word).
 *
 * @example
 * await searchForTask(outputs, record, scope, "Which order did request req-4hpi75 handle?", 5);
 * // { matches: [{ line: 347, text: "… req=req-4hpi75 … order=ord-16580 …", … }], query: "req-4hpi75", wholeWords: ["req-4hpi75"], terms: Map {…} }
 */
export async function searchForTask(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  task: string,
  maxLines: number,
  options: TaskSearchOptions = {},
): Promise<TaskSearch> {
  const { maxLineChars } = options;
  // Where to look and how long the value is are not words the output holds (SW-69).
  task = withoutStatedLengths(withoutLocations(task, record.toolArgs));
  if (record.kind === "binary" || task.trim() === "") return NOTHING;
  const opened = await outputs.open(record.id, scope);
  try {
    const asked = task.slice(0, TASK_CHARS);
    const found = await searchOutput(opened, {
      query: asked,
      maxResults: maxLines * 3,
      // The handle message shows a line once: what it shows is the measured `taskSearch`.
      onePerLine: true,
      ...(maxLineChars ? { maxLineChars } : {}),
    }).catch(() => undefined); // a task of common words only, or none: nothing to search for
    const lines = Math.max(1, found?.totalLines ?? record.lineCount ?? 1);
    const specificLines = Math.max(1, Math.floor(lines * SPECIFIC_SHARE));
    if (!found) return NOTHING;
    const held = found.terms.filter((t) => t.lines > 0);
    const specific = new Set(
      held.filter((t) => t.lines <= Math.max(1, lines * SPECIFIC_SHARE)).map((t) => t.term),
    );
    // The task's words that hold a held term, rarest first (ties: the rarer parts together).
    const weight = new Map(held.map((t) => [t.term, t.weight]));
    const ranked = taskWords(task)
      .map((word) => {
        const weights = termsOf(word).map((t) => weight.get(foldText(t)) ?? 0);
        return { word, weight: Math.max(0, ...weights), sum: weights.reduce((a, b) => a + b, 0) };
      })
      .filter((w) => w.weight > 0)
      .sort((a, b) => b.weight - a.weight || b.sum - a.sum);
    const heldWords = [...new Set(ranked.map((w) => w.word))];
    const words = heldWords.slice(0, QUERY_WORDS);
    const example = words.join(" ") || undefined;
    // A word the search splits can be rare whole while its terms are common (`3.3`): the task's
    // other such words are looked for whole too, after its rarest words.
    const whole = [...words, ...compoundWords(heldWords.slice(QUERY_WORDS)).slice(0, MORE_WHOLE)];
    const literals = await specificLiterals(opened, whole, specificLines);
    // The search returns its lines best first, equal scores in the order of the text.
    const searched = found.matches.filter((m) => m.terms.some((t) => specific.has(t)));
    const rarest = Math.min(...held.map((t) => t.lines));
    const leading = leadingLiterals(literals, rarest);
    const matches = leadingFirst(searched, leading).slice(0, maxLines);
    const rarestTerms = held.filter((t) => t.lines === rarest && specific.has(t.term));
    return {
      matches,
      wholeWords: literals.map((l) => l.word),
      leadWords: leading,
      rarest: rarestTerms.map((t) => t.term),
      ...(example ? { query: example } : {}),
      terms: weight,
    };
  } finally {
    await opened.close();
  }
}

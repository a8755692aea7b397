/**
 * Scoring a live task from its final report alone: right when the report names the expected
 * value (or an accepted spelling) and none of the decoys; invented when it states a value-like
 * token (a word with a digit, an address, a code) that no tool result of the session showed and
 * the question did not name. The scorer sees the report and what the model was shown, nothing
 * of the session's calls.
 */
import type { LiveTask } from "./types.js";

export interface LiveScore {
  /** The report names the expected value and no decoy. */
  readonly correct: boolean;
  /** The report names the expected value (right or not: it may name a decoy beside it). */
  readonly namesExpected: boolean;
  /** Decoys the report names. */
  readonly decoysNamed: readonly string[];
  /** Value-like tokens of the report that nothing shown held. */
  readonly inventedValues: readonly string[];
  /**
   * A tool result of the session held the expected value: a wrong report with it shown is a
   * reading miss, one without it a retrieval miss. Null where the file holds the value more than
   * once, so that seeing it says nothing of where the answer is.
   */
  readonly answerShown: boolean | null;
}

/** NFKC, lower case, one space for any run of white space, digit groups joined ("1,843" → "1843"). */
export function normalized(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(/\s+/g, " ");
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * How many times `haystack` holds `value` as a whole value: not inside a longer word or number
 * (CJK values, written without spaces, only need to be there).
 */
export function valueCount(haystack: string, value: string): number {
  const h = normalized(haystack);
  const v = normalized(value).trim();
  if (v === "") return 0;
  const anywhere = CJK.test(v);
  const edge = (c: string | undefined, inner: string) =>
    c === undefined || !WORD_CHAR.test(c) || !WORD_CHAR.test(inner);
  let count = 0;
  for (let at = h.indexOf(v); at !== -1; at = h.indexOf(v, at + 1))
    if (anywhere || (edge(h[at - 1], v[0]!) && edge(h[at + v.length], v.at(-1)!))) count++;
  return count;
}

/** Whether `haystack` holds `value` as a whole value. */
export function holdsValue(haystack: string, value: string): boolean {
  return valueCount(haystack, value) > 0;
}

/** Tokens a report may state as a value: holding a digit, at least three characters long. */
export const VALUE_TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}._:/@+-]*[\p{L}\p{N}])?/gu;
/**
 * Where a script written without spaces meets other text: Japanese, Chinese, Korean and Thai
 * attach words to a value with no space (`YH-53302です`), and the value ends there.
 */
const SCRIPT_EDGE = new RegExp(
  `(?<=${CJK.source})(?!${CJK.source})|(?<!${CJK.source})(?=${CJK.source})`,
  "gu",
);

/**
 * The value-like tokens of a report, once each.
 *
 * @example
 * valueTokens("品番はYH-53302です。"); // ["yh-53302"]
 */
export function valueTokens(report: string): string[] {
  const tokens = normalized(report).replace(SCRIPT_EDGE, " ").match(VALUE_TOKEN) ?? [];
  return [...new Set(tokens.filter((t) => t.length >= 3 && /\d/.test(t)))];
}

/**
 * Scores a report.
 *
 * @example
 * scoreLiveReport(task, "Request req-7f3a2c handled ord-58213.", shownText);
 * // { correct: true, namesExpected: true, decoysNamed: [], inventedValues: [], answerShown: true }
 */
export function scoreLiveReport(task: LiveTask, report: string | null, shown: string): LiveScore {
  const text = report ?? "";
  const answers = [task.expected, ...task.accepted];
  const namesExpected = answers.some((v) => holdsValue(text, v));
  const decoysNamed = task.decoys.filter((d) => holdsValue(text, d));
  const seen = normalized(`${task.question}\n${shown}`);
  const inventedValues = valueTokens(text).filter((t) => !seen.includes(t));
  return {
    correct: namesExpected && decoysNamed.length === 0,
    namesExpected,
    decoysNamed,
    inventedValues,
    answerShown:
      valueCount(task.text, task.expected) === 1 ? answers.some((v) => holdsValue(shown, v)) : null,
  };
}

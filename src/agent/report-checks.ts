/**
 * What a final report may not do, checked from text alone (SW-25 in docs/architecture.md):
 * repeat runtime text (a notice, a note, a handle message) as if it were an answer, or state a
 * code-like value that no tool result of the session showed. Pure functions: the report guard
 * (report-guard.ts) gives them the texts.
 */
/** Quote marks of any style, each folded to `"` by {@link normalizedText}. */
export const QUOTE_MARKS = /["'‘’‚“”„«»]/g;

/**
 * NFKC, lower case, one space for any run of white space, digit groups joined ("1,843" → "1843"),
 * every quote mark `"`: quotes are typography, and a sentence quoted again with other marks
 * (`named 'x'` for `named "x"`) is the same sentence.
 */
export function normalizedText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(QUOTE_MARKS, '"')
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** Sentences (and report lines) shorter than this are too common to call a copy. */
export const MIN_SENTENCE_CHARS = 16;

/**
 * The report's sentences worth checking for a copy: split at line ends and at sentence ends,
 * normalized, at least 16 characters, and the whole report when it is not one of them.
 *
 * @example
 * reportSentences("This is turn 2 of 8. Your context window is 9% full.");
 * // ["this is turn 2 of 8.", "your context window is 9% full.",
 * //  "this is turn 2 of 8. your context window is 9% full."]
 */
export function reportSentences(report: string): string[] {
  const sentences = report
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z"“(])/)
    .map(normalizedText)
    .filter((s) => s.length >= MIN_SENTENCE_CHARS);
  // A short report is checked whole too ("This is turn 2 of 8." alone).
  const whole = normalizedText(report);
  return whole.length >= MIN_SENTENCE_CHARS && !sentences.includes(whole)
    ? [...sentences, whole]
    : sentences;
}

/** A line-number prefix a read puts before content (`12:`, `12:5:`, `12| `). */
const LINE_PREFIX = /^\d+(?::\d+)?[:|]\s?/;

/** The sentence without the line-number prefix a read gave it (what the content itself says). */
export const withoutLinePrefix = (sentence: string) => sentence.replace(LINE_PREFIX, "");

/** A token of letters and digits with inner `._:/@+-` (`req-7f3a2c`, `10.4.2.1`, `Sven`). */
const VALUE_TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{N}._:/@+-]*[\p{L}\p{N}])?/gu;

/**
 * Value-like tokens of a report: a token of letters, digits and inner `._:/@+-` holding a digit,
 * at least three characters (`req-7f3a2c`, `10.4.2.1`, `1843`, `2026-03-14t08:00:00z`).
 *
 * @example
 * valueTokens("Request req-7f3a2c handled order 58213 in 12 ms."); // ["req-7f3a2c", "58213"]
 */
export function valueTokens(report: string): string[] {
  const tokens = normalizedText(report).match(VALUE_TOKEN) ?? [];
  return [...new Set(tokens.filter((t) => t.length >= 3 && /\d/.test(t)))];
}

/**
 * The values of a report that none of `seen` holds (the tool results the model was shown, its
 * task, its instructions), compared normalized.
 *
 * @example
 * unseenValues("The code is ZX-9041.", ["… code=ZX-9014 …"]); // ["zx-9041"]
 */
export function unseenValues(report: string, seen: readonly string[]): string[] {
  const haystack = seen.map(normalizedText).join("\n");
  return valueTokens(report).filter((value) => !haystack.includes(value));
}

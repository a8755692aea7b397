/**
 * The words a threshold is written with: units of time, data size and percent, number words,
 * and comparisons (English; the common Japanese and Chinese forms). Data only: reading a task or
 * a line with them is `task-threshold.ts`.
 */

/** What a threshold measures; values are compared in one base unit per dimension. */
export type Dimension = "time" | "size" | "percent";

export interface Unit {
  readonly dimension: Dimension;
  /** How many base units (seconds, bytes, percent) one of it is. */
  readonly factor: number;
  /** How a label writes it. */
  readonly symbol: string;
}

const time = (factor: number, symbol: string): Unit => ({ dimension: "time", factor, symbol });
const size = (factor: number, symbol: string): Unit => ({ dimension: "size", factor, symbol });
const PERCENT: Unit = { dimension: "percent", factor: 1, symbol: "%" };

/** Unit names, in lower case, as tasks and outputs write them after a number. */
export const UNITS: ReadonlyMap<string, Unit> = new Map([
  ...["ns", "nanosecond", "nanoseconds"].map((n) => [n, time(1e-9, "ns")] as const),
  ...["µs", "μs", "us", "microsecond", "microseconds"].map((n) => [n, time(1e-6, "µs")] as const),
  ...["ms", "msec", "msecs", "millisecond", "milliseconds", "ミリ秒", "毫秒"].map(
    (n) => [n, time(1e-3, "ms")] as const,
  ),
  ...["s", "sec", "secs", "second", "seconds", "秒"].map((n) => [n, time(1, "s")] as const),
  ...["min", "mins", "minute", "minutes", "分", "分钟"].map((n) => [n, time(60, "min")] as const),
  ...["h", "hr", "hrs", "hour", "hours", "時間", "小时"].map((n) => [n, time(3600, "h")] as const),
  ...["day", "days", "日間", "天"].map((n) => [n, time(86_400, "days")] as const),
  ...["b", "byte", "bytes", "バイト", "字节"].map((n) => [n, size(1, "B")] as const),
  ["kb", size(1e3, "KB")],
  ["kib", size(1024, "KiB")],
  ["mb", size(1e6, "MB")],
  ["mib", size(1024 ** 2, "MiB")],
  ["gb", size(1e9, "GB")],
  ["gib", size(1024 ** 3, "GiB")],
  ["tb", size(1e12, "TB")],
  ["tib", size(1024 ** 4, "TiB")],
  ["%", PERCENT],
  ["percent", PERCENT],
  ["per cent", PERCENT],
]);

/**
 * Sizes as `du -h`, `ls -lh` and `df -h` print them: one capital letter right after the number
 * (`1.2G`, `4.0K`), in powers of 1,024. Read in output lines only, in this case only.
 */
export const SIZE_SUFFIXES: ReadonlyMap<string, Unit> = new Map([
  ["K", size(1024, "KiB")],
  ["M", size(1024 ** 2, "MiB")],
  ["G", size(1024 ** 3, "GiB")],
  ["T", size(1024 ** 4, "TiB")],
]);

const ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** Number words a task may spell a bound with ("ten seconds"); `twenty-five` adds two of them. */
export const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ...ONES.map((w, i) => [w, i] as const),
  ...TENS.map((w, i) => [w, (i + 2) * 10] as const),
  ["a hundred", 100],
  ["hundred", 100],
  ["a thousand", 1000],
  ["thousand", 1000],
]);

/** A number word, or tens and ones joined by a hyphen, as a regular expression. */
export const WORD_NUMBER_PATTERN = `(?:(?:${TENS.join("|")})-(?:${ONES.slice(1, 10).join("|")})|${[
  ...NUMBER_WORDS.keys(),
]
  .sort((a, b) => b.length - a.length)
  .join("|")})`;

/** A comparison: which side of the bound it asks for, and whether the bound itself counts. */
export interface Comparison {
  readonly above: boolean;
  readonly inclusive: boolean;
}

const OVER: Comparison = { above: true, inclusive: false };
const AT_LEAST: Comparison = { above: true, inclusive: true };
const BELOW: Comparison = { above: false, inclusive: false };
const AT_MOST: Comparison = { above: false, inclusive: true };

const MORE = ["more", "greater", "larger", "bigger", "higher", "longer", "slower"];
const LESS = ["less", "fewer", "smaller", "lower", "shorter", "faster"];
const negated = (words: readonly string[]) =>
  words.flatMap((w) => [`no ${w} than`, `not ${w} than`]);

/**
 * Comparisons written before the number ("over 10 s", "no longer than 2 s"), by their words.
 * A negation is listed whole: "no longer than" is "at most", not "longer than".
 */
export const COMPARISONS_BEFORE: ReadonlyMap<string, Comparison> = new Map([
  ...negated(MORE).map((w) => [w, AT_MOST] as const),
  ...negated(LESS).map((w) => [w, AT_LEAST] as const),
  ...["not exceeding", "not over", "not above", "does not exceed", "up to", "at most"].map(
    (w) => [w, AT_MOST] as const,
  ),
  ...["not under", "not below", "at least"].map((w) => [w, AT_LEAST] as const),
  ...MORE.map((w) => [`${w} than`, OVER] as const),
  ...LESS.map((w) => [`${w} than`, BELOW] as const),
  ...["in excess of", "exceeding", "exceeds", "exceeded", "exceed", "above", "over"].map(
    (w) => [w, OVER] as const,
  ),
  ...["below", "under"].map((w) => [w, BELOW] as const),
  ...[">=", "≥", "至少", "不少于", "不低于", "不小于"].map((w) => [w, AT_LEAST] as const),
  ...["<=", "≤", "不超过", "不大于", "不高于", "不多于"].map((w) => [w, AT_MOST] as const),
  ...[">", "超过", "大于", "高于", "多于"].map((w) => [w, OVER] as const),
  ...["<", "少于", "小于", "低于"].map((w) => [w, BELOW] as const),
]);

/** Comparisons written after the unit ("10 s or more", "2秒以上", "5 MB未満"). */
export const COMPARISONS_AFTER: ReadonlyMap<string, Comparison> = new Map([
  ...["or more", "or longer", "or higher", "or larger", "or greater", "or above", "or over"].map(
    (w) => [w, AT_LEAST] as const,
  ),
  ...["or less", "or fewer", "or shorter", "or lower", "or smaller", "or below", "or under"].map(
    (w) => [w, AT_MOST] as const,
  ),
  ...["を超えない", "を超えず", "超えない", "以下", "以内"].map((w) => [w, AT_MOST] as const),
  ...["以上"].map((w) => [w, AT_LEAST] as const),
  ...["を超える", "を超え", "超え", "超", "より長い", "より大きい", "より多い", "より遅い"].map(
    (w) => [w, OVER] as const,
  ),
  ...["未満", "より短い", "より小さい", "より少ない", "より速い"].map((w) => [w, BELOW] as const),
]);

/** Alternatives of a regular expression, longest first (so `ms` is tried before `s`). */
export function alternatives(words: Iterable<string>): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"))
    .join("|");
}

/**
 * A threshold a task states: "slower than 10 s", "over 2 MB", "more than ten seconds",
 * "5%以上". A question that compares with a number is answered by the values past it, and those
 * share no word with the question, so no word search finds them; the handle message lists the
 * lines holding one instead (docs/agent-runtime.md, "Lines past a threshold"). Only measured
 * quantities are read (time, data size, percent): a bare number ("more than three hosts")
 * counts things the output may write in any form.
 */

/** What a threshold measures; values are compared in one base unit per dimension. */
export type Dimension = "time" | "size" | "percent";

export interface Threshold {
  /** True: values above it; false: values below it. */
  readonly above: boolean;
  /** True when the bound itself counts ("at least", "以上"). */
  readonly inclusive: boolean;
  /** The bound in the dimension's base unit (seconds, bytes, percent). */
  readonly base: number;
  readonly dimension: Dimension;
  /** The comparison as the handle message names it: "over 10 s", "below 2 MB". */
  readonly label: string;
}

interface Unit {
  readonly dimension: Dimension;
  /** How many base units one of it is. */
  readonly factor: number;
  /** How a label writes it. */
  readonly symbol: string;
}

const time = (factor: number, symbol: string): Unit => ({ dimension: "time", factor, symbol });
const size = (factor: number, symbol: string): Unit => ({ dimension: "size", factor, symbol });
const PERCENT: Unit = { dimension: "percent", factor: 1, symbol: "%" };

/** Unit names, folded to lower case, as tasks and outputs write them. */
const UNITS: ReadonlyMap<string, Unit> = new Map([
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

/** Unit names longest first, so `ms` is tried before `s` and `minutes` before `min`. */
const UNIT_ALTERNATIVES = [...UNITS.keys()]
  .sort((a, b) => b.length - a.length)
  .map((u) => u.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(" ", "\\s"))
  .join("|");

/** Number words a task may spell a bound with ("ten seconds", "twenty-five ms"). */
const ONES =
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(
    " ",
  );
const TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split(" ");
const NUMBER_WORDS: ReadonlyMap<string, number> = new Map([
  ...ONES.map((w, i) => [w, i] as const),
  ...TENS.map((w, i) => [w, (i + 2) * 10] as const),
  ["hundred", 100],
  ["a hundred", 100],
  ["thousand", 1000],
  ["a thousand", 1000],
]);
const WORD_NUMBER = `(?:(?:${TENS.join("|")})-(?:${ONES.slice(1, 10).join("|")})|a hundred|a thousand|${[...NUMBER_WORDS.keys()].sort((a, b) => b.length - a.length).join("|")})`;
/** A number in digits: thousands may be grouped with commas ("1,500"); decimals with a point. */
const DIGIT_NUMBER = "\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?";

/** Words before the number meaning "past it upwards" and "past it downwards", English and Chinese. */
const ABOVE_BEFORE =
  "no less than|not less than|at least|more than|greater than|higher than|larger than|bigger than|longer than|slower than|in excess of|exceeding|exceeds|exceeded|exceed|above|over|>=|≥|>|超过|大于|高于|多于|至少";
const BELOW_BEFORE =
  "no more than|not more than|at most|less than|fewer than|lower than|smaller than|shorter than|faster than|below|under|<=|≤|<|少于|小于|低于|不超过";
/** Words after the unit meaning the same (Japanese and Chinese write them there). */
const ABOVE_AFTER = "以上|を超える|を超え|超え|超|より長い|より大きい|より多い|より遅い";
const BELOW_AFTER = "以下|未満|より短い|より小さい|より少ない|より速い";
const INCLUSIVE = new Set([
  "no less than",
  "not less than",
  "at least",
  ">=",
  "≥",
  "至少",
  "以上",
  "no more than",
  "not more than",
  "at most",
  "<=",
  "≤",
  "不超过",
  "以下",
]);

const NUMBER = `(${DIGIT_NUMBER}|${WORD_NUMBER})`;
const UNIT = `(${UNIT_ALTERNATIVES})`;
/**
 * Where a Latin word or a number stops: comparison words and units must not be part of a longer
 * word ("overall", "10 secondary"). Scripts written without spaces need no such edge.
 */
const NO_LATIN_BEFORE = "(?<![A-Za-z0-9\\u00c0-\\u024f])";
const NO_LATIN_AFTER = "(?![A-Za-z0-9\\u00c0-\\u024f])";
/** "over 10 s", "more than ten seconds", ">2MB", "超过 3 秒". */
const BEFORE = new RegExp(
  `${NO_LATIN_BEFORE}(${ABOVE_BEFORE}|${BELOW_BEFORE})\\s*${NUMBER}\\s*${UNIT}${NO_LATIN_AFTER}`,
  "iu",
);
/** "10秒以上", "5 MB未満". */
const AFTER = new RegExp(
  `(?<![\\p{N}.,])${NUMBER}\\s*${UNIT}\\s*(${ABOVE_AFTER}|${BELOW_AFTER})`,
  "iu",
);

function parseNumber(text: string): number | undefined {
  const lower = text.toLowerCase();
  const word = NUMBER_WORDS.get(lower);
  if (word !== undefined) return word;
  const [tens, ones] = lower.split("-");
  if (ones !== undefined && NUMBER_WORDS.has(tens!) && NUMBER_WORDS.has(ones))
    return NUMBER_WORDS.get(tens!)! + NUMBER_WORDS.get(ones)!;
  const value = Number(lower.replaceAll(",", ""));
  return Number.isFinite(value) ? value : undefined;
}

const unitOf = (text: string) => UNITS.get(text.toLowerCase().replace(/\s+/g, " "));

function threshold(word: string, numeral: string, unitText: string): Threshold | undefined {
  const value = parseNumber(numeral);
  const unit = unitOf(unitText);
  if (value === undefined || !unit) return undefined;
  const folded = word.toLowerCase();
  const above = [ABOVE_BEFORE, ABOVE_AFTER].some((list) => list.split("|").includes(folded));
  const inclusive = INCLUSIVE.has(folded);
  const relation = above ? (inclusive ? "at least" : "over") : inclusive ? "at most" : "below";
  const gap = unit.symbol === "%" ? "" : " ";
  return {
    above,
    inclusive,
    base: value * unit.factor,
    dimension: unit.dimension,
    label: `${relation} ${value.toLocaleString("en-US")}${gap}${unit.symbol}`,
  };
}

/**
 * The first threshold a task states, or undefined: a comparison word, a number (digits or
 * English words) and a unit of time, data size or percent.
 *
 * @example
 * taskThreshold("Which suite ran over 10 s?"); // { above: true, base: 10, dimension: "time", label: "over 10 s", … }
 * taskThreshold("Any request faster than 250ms?")?.label; // "below 250 ms"
 * taskThreshold("Do not restart more than one host"); // undefined
 */
export function taskThreshold(task: string): Threshold | undefined {
  const before = BEFORE.exec(task);
  const after = AFTER.exec(task);
  if (before && (!after || before.index <= after.index))
    return threshold(before[1]!, before[2]!, before[3]!);
  if (after) return threshold(after[3]!, after[1]!, after[2]!);
  return undefined;
}

/** A measured value in text: a number and a unit right after it ("17.576 s", "(3000ms)", "12%"). */
const VALUE = new RegExp(
  `(?<![\\p{L}\\p{N}.,:])(${DIGIT_NUMBER})\\s?(${UNIT_ALTERNATIVES})${NO_LATIN_AFTER}`,
  "giu",
);

/**
 * The values in `text` past `bound`, in the order they are written, as written.
 *
 * @example
 * valuesPast("PASS a.test.ts (17.576 s)  Time: 9.1 s", taskThreshold("over 10 s")!); // ["17.576 s"]
 */
export function valuesPast(text: string, bound: Threshold): string[] {
  const past: string[] = [];
  for (const match of text.matchAll(VALUE)) {
    const unit = unitOf(match[2]!);
    const value = parseNumber(match[1]!);
    if (!unit || value === undefined || unit.dimension !== bound.dimension) continue;
    const base = value * unit.factor;
    const beyond = bound.above ? base > bound.base : base < bound.base;
    if (beyond || (bound.inclusive && base === bound.base)) past.push(match[0]);
  }
  return past;
}

/**
 * A grep pattern for lines that may hold a value of `dimension`: a digit and one of its units
 * right after it. Lines it finds are checked with {@link valuesPast}.
 */
export function valuePattern(dimension: Dimension): string {
  const names = [...UNITS.entries()]
    .filter(([, unit]) => unit.dimension === dimension)
    .map(([name]) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(" ", "\\s"))
    .sort((a, b) => b.length - a.length);
  return `\\d\\s?(?:${names.join("|")})${NO_LATIN_AFTER}`;
}

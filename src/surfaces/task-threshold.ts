/**
 * A threshold a task states: "longer than 2 seconds", "over 1.5 GB", "no more than 90%",
 * "2秒以上". A question that compares with a number is answered by the values past it, and those
 * share no word with the question, so no word search finds them; the handle message lists the
 * lines holding one instead (docs/agent-runtime.md, "Lines past a threshold"). Only measured
 * quantities are read (time, data size, percent): a bare number ("more than three hosts")
 * counts things the output may write in any form.
 */
import {
  alternatives,
  COMPARISONS_AFTER,
  COMPARISONS_BEFORE,
  type Comparison,
  type Dimension,
  NUMBER_WORDS,
  SIZE_SUFFIXES,
  UNITS,
  type Unit,
  WORD_NUMBER_PATTERN,
} from "./threshold-words.js";

export type { Dimension } from "./threshold-words.js";

export interface Threshold extends Comparison {
  /** The bound in the dimension's base unit (seconds, bytes, percent). */
  readonly base: number;
  readonly dimension: Dimension;
  /** The comparison as the handle message names it: "over 10 s", "at most 2 MB". */
  readonly label: string;
}

/**
 * Where a Latin word or a number stops: comparison words and units must not be part of a longer
 * word ("overall", "10 secondary"). Scripts written without spaces need no such edge.
 */
const NO_LATIN_BEFORE = "(?<![A-Za-z0-9\\u00c0-\\u024f])";
const NO_LATIN_AFTER = "(?![A-Za-z0-9\\u00c0-\\u024f])";
/** A number in digits: thousands may be grouped with commas ("1,500"); decimals with a point. */
const DIGIT_NUMBER = "\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?";
const UNIT_NAMES = alternatives(UNITS.keys());
/** A number and its unit: a number word needs a space ("ten seconds", not "tens"). */
const QUANTITY = `(?:(${DIGIT_NUMBER})\\s*|(${WORD_NUMBER_PATTERN})\\s+)(${UNIT_NAMES})${NO_LATIN_AFTER}`;
/** "over 10 s", "no longer than ten seconds", ">2MB", "超过 3 秒". */
const BEFORE = new RegExp(
  `${NO_LATIN_BEFORE}(${alternatives(COMPARISONS_BEFORE.keys())})\\s*${QUANTITY}`,
  "iu",
);
/** "10 s or more", "2秒以上", "5 MB未満". */
const AFTER = new RegExp(
  `(?<![\\p{N}.,])${QUANTITY}\\s*(${alternatives(COMPARISONS_AFTER.keys())})`,
  "iu",
);
/** A second quantity right after the first ("1 minute 30 seconds"): a sum the task means. */
const ANOTHER_QUANTITY = new RegExp(`^\\s*(?:and\\s+)?${QUANTITY}`, "iu");

/** A word as the tables write it: lower case, one space between its parts. */
const folded = (text: string) => text.toLowerCase().replace(/\s+/g, " ");

function parseNumber(text: string): number | undefined {
  const lower = folded(text);
  const word = NUMBER_WORDS.get(lower);
  if (word !== undefined) return word;
  const [tens, ones] = lower.split("-");
  if (ones !== undefined && NUMBER_WORDS.has(tens!) && NUMBER_WORDS.has(ones))
    return NUMBER_WORDS.get(tens!)! + NUMBER_WORDS.get(ones)!;
  const value = Number(lower.replaceAll(",", ""));
  return Number.isFinite(value) ? value : undefined;
}

const unitOf = (text: string) => UNITS.get(folded(text));
const comparisonOf = (words: ReadonlyMap<string, Comparison>, text: string) =>
  words.get(folded(text));

function relationOf({ above, inclusive }: Comparison): string {
  if (above) return inclusive ? "at least" : "over";
  return inclusive ? "at most" : "below";
}

function thresholdOf(
  comparison: Comparison | undefined,
  numeral: string,
  unitText: string,
): Threshold | undefined {
  const value = parseNumber(numeral);
  const unit = unitOf(unitText);
  if (!comparison || value === undefined || !unit) return undefined;
  const gap = unit.symbol === "%" ? "" : " ";
  const written = value.toLocaleString("en-US", { maximumFractionDigits: 20 });
  return {
    ...comparison,
    base: value * unit.factor,
    dimension: unit.dimension,
    label: `${relationOf(comparison)} ${written}${gap}${unit.symbol}`,
  };
}

/**
 * The first threshold a task states, or undefined: a comparison, a number (digits or English
 * words) and a unit of time, data size or percent. A compound bound ("1 minute 30 seconds")
 * states none: reading its first part alone would be wrong.
 *
 * @example
 * taskThreshold("Which request took longer than 2 seconds?"); // { above: true, inclusive: false, base: 2, dimension: "time", label: "over 2 s" }
 * taskThreshold("Any response of 5 MB or more?")?.label; // "at least 5 MB"
 * taskThreshold("Do not restart more than one host"); // undefined
 */
export function taskThreshold(task: string): Threshold | undefined {
  const text = task.normalize("NFKC");
  const before = BEFORE.exec(text);
  const after = AFTER.exec(text);
  const first = before && (!after || before.index <= after.index) ? before : after;
  if (!first) return undefined;
  if (ANOTHER_QUANTITY.test(text.slice(first.index + first[0].length))) return undefined;
  if (first === before)
    return thresholdOf(
      comparisonOf(COMPARISONS_BEFORE, first[1]!),
      first[2] ?? first[3]!,
      first[4]!,
    );
  return thresholdOf(comparisonOf(COMPARISONS_AFTER, first[4]!), first[1] ?? first[2]!, first[3]!);
}

/**
 * A measured value in a line: a number (no sign before it) and a unit right after it, not a
 * rate (`MB/s`) nor the start of a name (`12 us-east-1`).
 */
const VALUE = new RegExp(
  `(?<![\\p{L}\\p{N}.,:+\\-])(${DIGIT_NUMBER})\\s?(${UNIT_NAMES})(?![A-Za-z0-9\\u00c0-\\u024f/\\-])`,
  "giu",
);
/** A size as `du -h` prints it (`1.2G`): case matters, `5m` is not a size. */
const SUFFIXED_SIZE = /(?<![\p{L}\p{N}.,:+-])(\d+(?:\.\d+)?)([KMGT])(?![A-Za-z0-9/-])/gu;
/** Minutes written `m` just before a value ("1m 5s"): the value is part of a compound. */
const MINUTES_BEFORE = /\d\s?m\s*$/;

interface Value {
  readonly text: string;
  readonly at: number;
  readonly base: number;
  readonly dimension: Dimension;
  /** Its unit's factor: a compound's parts go from larger units to smaller. */
  readonly factor: number;
}

function valuesOf(text: string): Value[] {
  const values: Value[] = [];
  const add = (match: RegExpMatchArray, unit: Unit | undefined) => {
    const value = parseNumber(match[1]!);
    if (!unit || value === undefined) return;
    if (unit.dimension === "time" && MINUTES_BEFORE.test(text.slice(0, match.index))) return;
    values.push({ text: match[0], at: match.index!, base: value * unit.factor, ...unit });
  };
  for (const match of text.matchAll(VALUE)) add(match, unitOf(match[2]!));
  for (const match of text.matchAll(SUFFIXED_SIZE)) add(match, SIZE_SUFFIXES.get(match[2]!));
  return values.sort((a, b) => a.at - b.at);
}

/** Values of one dimension written side by side ("2 min 5 s"), added up as one. */
function compounds(values: readonly Value[], text: string): Value[] {
  const joined: Value[] = [];
  for (const value of values) {
    const last = joined.at(-1);
    const between = last ? text.slice(last.at + last.text.length, value.at) : "";
    // "2 min 5 s" is one duration; "12 ms 15 ms" (two columns) is two values.
    const smaller = last !== undefined && value.factor < last.factor;
    if (last && smaller && last.dimension === value.dimension && /^\s*$/.test(between)) {
      const merged = text.slice(last.at, value.at + value.text.length);
      joined[joined.length - 1] = {
        ...last,
        text: merged,
        base: last.base + value.base,
        factor: value.factor,
      };
    } else joined.push(value);
  }
  return joined;
}

/** Unit factors are not exact in binary (700 × 0.001 is 0.7000000000000001): equal within this. */
const RELATIVE_TOLERANCE = 1e-9;

/** Whether a value (in the bound's base unit) is past the bound; equal counts when inclusive. */
export function isPast(base: number, bound: Threshold): boolean {
  const tolerance = Math.abs(bound.base) * RELATIVE_TOLERANCE;
  if (Math.abs(base - bound.base) <= tolerance) return bound.inclusive;
  return bound.above ? base > bound.base : base < bound.base;
}

/** A value of a dimension as a line writes it, and its size in the dimension's base unit. */
export interface MeasuredValue {
  readonly text: string;
  readonly base: number;
}

/**
 * The values of `dimension` in `text`, past any bound or not, in the order they are written (a
 * duration in parts as one); `from` skips values that start before it (a value cut by the start
 * of an excerpt).
 *
 * @example
 * measuredValues("(14 ms) of 2 GB", "time"); // [{ text: "14 ms", base: 0.014 }]
 */
export function measuredValues(text: string, dimension: Dimension, from = 0): MeasuredValue[] {
  const normal = text.normalize("NFKC");
  const ofDimension = valuesOf(normal).filter((v) => v.dimension === dimension);
  return compounds(ofDimension, normal)
    .filter((v) => v.at >= from)
    .map(({ text, base }) => ({ text, base }));
}

/**
 * The values in `text` past `bound`, in the order they are written, as written; `from` as in
 * {@link measuredValues}.
 *
 * @example
 * valuesPast("took 12000ms; then 9.1 s; 2 min 5 s", taskThreshold("over 10 s")!); // ["12000ms", "2 min 5 s"]
 */
export function valuesPast(text: string, bound: Threshold, from = 0): string[] {
  return measuredValues(text, bound.dimension, from)
    .filter((v) => isPast(v.base, bound))
    .map((v) => v.text);
}

/**
 * A grep pattern for lines that may hold a value of `dimension`: a digit and one of its units
 * right after it (full-width digits too). Lines it finds are checked with {@link valuesPast}.
 */
export function valuePattern(dimension: Dimension): string {
  const names = [...UNITS.entries()].filter(([, unit]) => unit.dimension === dimension);
  const suffixes = dimension === "size" ? [...SIZE_SUFFIXES.keys()] : [];
  const units = alternatives([
    ...names.map(([name]) => name),
    ...suffixes,
    ...(dimension === "percent" ? ["％"] : []),
  ]);
  return `[0-9０-９]\\s?(?:${units})${NO_LATIN_AFTER}`;
}

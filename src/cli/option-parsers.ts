/**
 * Strict parsers for flag values. Each throws commander's InvalidArgumentError, so commander
 * reports `option '--flag <n>' argument 'x' is invalid. <what is valid>` and the CLI exits 2.
 * "12abc", "1e3", "-1", "" and "0x10" are not numbers here.
 */
import { InvalidArgumentError } from "commander";
import { checkModelRef } from "../config/index.js";

const INTEGER = /^\d+$/;

function rangeText(min: number, max: number): string {
  return max === Number.MAX_SAFE_INTEGER
    ? `a whole number >= ${min}`
    : `a whole number from ${min} to ${max}`;
}

/** A parser for a whole number in [min, max]. */
export function integer(min = 0, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value: string) => {
    const trimmed = value.trim();
    const parsed = INTEGER.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`Valid: ${rangeText(min, max)}.`);
    }
    return parsed;
  };
}

export interface LineRange {
  readonly lineStart: number;
  readonly lineEnd: number;
}

/** Parses `A:B` (1-based, inclusive, A <= B) or a single line `A`. */
export function lineRange(value: string): LineRange {
  const match = /^\s*(\d+)\s*(?::\s*(\d+)\s*)?$/.exec(value);
  const lineStart = match ? Number(match[1]) : Number.NaN;
  const lineEnd = match?.[2] !== undefined ? Number(match[2]) : lineStart;
  if (
    !Number.isSafeInteger(lineStart) ||
    !Number.isSafeInteger(lineEnd) ||
    lineStart < 1 ||
    lineEnd < lineStart
  ) {
    throw new InvalidArgumentError(
      "Valid: A:B with whole numbers 1 <= A <= B (1-based, inclusive), e.g. 120:140, or a single line A.",
    );
  }
  return { lineStart, lineEnd };
}

/** Checks that a flag holds JSON text and returns the text verbatim. */
export function jsonText(value: string): string {
  try {
    JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(
      `It is not valid JSON (${(error as Error).message}). ` +
        `Valid: JSON text, usually an object such as '{"path":"app.log","lines":200}'.`,
    );
  }
  return value;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/** A parser for a decimal number > 0 (e.g. seconds: "30", "2.5"), at most `max`. */
export function positiveNumber(max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value: string) => {
    const trimmed = value.trim();
    const parsed = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (!Number.isFinite(parsed) || parsed <= 0 || parsed > max) {
      throw new InvalidArgumentError(
        `Valid: a number > 0${max === Number.MAX_SAFE_INTEGER ? "" : ` and <= ${max}`}, e.g. 30 or 2.5.`,
      );
    }
    return parsed;
  };
}

/**
 * Collects `--model` values: each may hold several refs separated by commas; repeated flags
 * append, so `--model a --model b,c` is the fallback list [a, b, c]. Each ref is checked.
 */
export function modelRefs(value: string, previous: readonly string[] | undefined): string[] {
  const refs = value.split(",").map((ref) => ref.trim());
  for (const ref of refs) {
    const checked = checkModelRef(ref);
    if (!checked.ok) {
      const problem =
        ref === ""
          ? 'an empty model ref: expected "provider/model", e.g. "openai/gpt-4.1"'
          : checked.message;
      throw new InvalidArgumentError(
        `${problem.charAt(0).toUpperCase()}${problem.slice(1)}. ` +
          "Repeat --model or separate refs with commas for an ordered fallback list.",
      );
    }
  }
  return [...(previous ?? []), ...refs];
}

const DURATION = /^(\d+)(ms|s|m|h|d|w)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A duration such as `30d`, `12h`, `90m`, `45s` or `500ms`, in milliseconds. */
export function duration(value: string): number {
  const match = DURATION.exec(value.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
  if (!Number.isSafeInteger(ms)) {
    throw new InvalidArgumentError(
      "Valid: a whole number with a unit: ms, s, m, h, d or w (e.g. 30d).",
    );
  }
  return ms;
}

/**
 * Strict parsers for flag values. Each throws commander's InvalidArgumentError, so commander
 * reports `option '--flag <n>' argument 'x' is invalid. <what is valid>` and the CLI exits 2.
 * "12abc", "1e3", "-1", "" and "0x10" are not numbers here.
 */
import { InvalidArgumentError } from "commander";

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

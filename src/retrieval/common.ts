import {
  InvalidArgumentError,
  InvalidRangeError,
  type ReadMode,
  SpillwayError,
} from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import { TextReader } from "../store/text-reader.js";

/** The most characters one read returns unless the caller sets its own limit. */
export const DEFAULT_MAX_READ_CHARS = 1_000_000;

/** Read modes that work on any text output, for "use instead" suggestions. */
export const TEXT_MODES: ReadMode[] = ["slice", "grep", "page"];

/** The read modes that suit an output of this kind. */
export function modesFor(output: OpenedOutput): ReadMode[] {
  if (output.record.kind === "binary") return ["slice", "page"];
  if (output.record.kind === "json" || output.record.kind === "ndjson")
    return [...TEXT_MODES, "json"];
  return TEXT_MODES;
}

/** A text reader over an opened output; UNSUPPORTED_KIND for binary outputs. */
export function textReaderOf(output: OpenedOutput, mode: ReadMode): TextReader {
  if (!output.index) {
    throw new SpillwayError(
      "UNSUPPORTED_KIND",
      `Output "${output.record.id}" is binary (${output.record.byteSize} bytes); ${mode} mode reads text. ` +
        "Use slice (byte range) or page: both return base64.",
      { outputId: output.record.id, kind: "binary", mode, modes: ["raw", "slice", "page"] },
      { fault: "model" },
    );
  }
  return new TextReader(
    output.source,
    output.index,
    output.record.charCount ?? 0,
    output.record.lineCount ?? 0,
  );
}

/** Checks an optional integer argument; returns it or the default. */
export function intArg(
  name: string,
  value: unknown,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  outputId?: string,
): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new InvalidArgumentError(
      name,
      `got ${JSON.stringify(value)}`,
      `an integer from ${min} to ${max}`,
    );
  }
  if (value < min || value > max)
    throw new InvalidRangeError(name, value, `${min}..${max}`, outputId);
  return value;
}

/** Checks a required non-empty string argument. */
export function stringArg(name: string, value: unknown, valid: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new InvalidArgumentError(
      name,
      value === undefined ? "is missing" : `got ${JSON.stringify(value)}`,
      valid,
    );
  }
  return value;
}

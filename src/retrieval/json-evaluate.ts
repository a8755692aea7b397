/**
 * The work of json mode, free of I/O so it can run in a worker thread with a memory limit and
 * a deadline (json-runner.ts): parse a JSON or NDJSON document, then outline it or evaluate a
 * JSONPath query. A query stops as soon as it has the matches asked for plus a bounded count
 * of the rest, so `maxResults` bounds the work, not only the answer.
 */
import { JSONPath } from "jsonpath-plus";
import { outlineJson } from "./json-outline.js";

/** Matches counted past the last one returned before counting stops (the total is then "at least"). */
export const MATCH_COUNT_LIMIT = 10_000;

export type JsonTask =
  | { readonly type: "outline"; readonly firstValues: boolean }
  | {
      readonly type: "query";
      readonly query: string;
      readonly offset: number;
      readonly maxResults: number;
      readonly maxChars: number;
    };

export interface EvaluatedMatch {
  readonly path: string;
  readonly pointer: string;
  readonly value: unknown;
  readonly line?: number;
}

/** What a task produced, or why it could not: plain data, so it crosses a worker boundary. */
export type JsonTaskResult =
  | { readonly type: "outline"; readonly outline: string }
  | {
      readonly type: "query";
      readonly matches: EvaluatedMatch[];
      /** Matches found; exact when `complete`, else a lower bound. */
      readonly counted: number;
      readonly complete: boolean;
      readonly nextOffset: number | null;
    }
  | { readonly type: "invalid-json"; readonly reason: string; readonly line?: number }
  | { readonly type: "invalid-query"; readonly reason: string }
  | {
      readonly type: "value-too-large";
      readonly path: string;
      readonly chars: number;
    }
  /** The engine ran out of stack or string length (e.g. JSON nested 200,000 deep). */
  | { readonly type: "too-costly"; readonly reason: string };

interface Parsed {
  readonly root: unknown;
  readonly recordLines?: number[];
}

function parse(text: string, kind: "json" | "ndjson"): Parsed | JsonTaskResult {
  if (kind === "json") {
    try {
      return { root: JSON.parse(text) };
    } catch (error) {
      return { type: "invalid-json", reason: (error as Error).message };
    }
  }
  const root: unknown[] = [];
  const recordLines: number[] = [];
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const record = text.slice(start, end).trim();
    start = end + 1;
    if (record.length === 0) continue;
    try {
      root.push(JSON.parse(record));
    } catch (error) {
      return { type: "invalid-json", reason: (error as Error).message, line };
    }
    recordLines.push(line);
  }
  return { root, recordLines };
}

/** Thrown from the match callback to stop a traversal that has counted enough. */
class Enough {}

function recordLine(pointer: string, recordLines: number[]): number | undefined {
  const first = /^\/(\d+)/.exec(pointer);
  return first ? recordLines[Number(first[1])] : undefined;
}

function query(parsed: Parsed, task: Extract<JsonTask, { type: "query" }>): JsonTaskResult {
  const matches: EvaluatedMatch[] = [];
  const stopAt = task.offset + task.maxResults + MATCH_COUNT_LIMIT;
  let counted = 0;
  let chars = 0;
  let nextOffset: number | null = null;
  let tooLarge: JsonTaskResult | undefined;
  const onMatch = (hit: { path: string; pointer: string; value: unknown }) => {
    const index = counted++;
    if (index >= task.offset && nextOffset === null && tooLarge === undefined) {
      if (matches.length === task.maxResults) {
        nextOffset = index;
      } else {
        const size = JSON.stringify(hit.value)?.length ?? 9;
        if (size > task.maxChars && matches.length === 0) {
          tooLarge = { type: "value-too-large", path: hit.path, chars: size };
        } else if (matches.length > 0 && chars + size > task.maxChars) {
          nextOffset = index;
        } else {
          chars += size;
          const line = parsed.recordLines ? recordLine(hit.pointer, parsed.recordLines) : undefined;
          matches.push({
            path: hit.path,
            pointer: hit.pointer,
            value: hit.value,
            ...(line ? { line } : {}),
          });
        }
      }
    }
    if (tooLarge !== undefined || counted >= stopAt) throw new Enough();
  };
  let complete = true;
  try {
    JSONPath({
      path: task.query,
      json: parsed.root as object,
      resultType: "all",
      eval: "safe",
      wrap: true,
      callback: onMatch,
    });
  } catch (error) {
    if (!(error instanceof Enough)) {
      if (error instanceof RangeError) return { type: "too-costly", reason: error.message };
      return { type: "invalid-query", reason: (error as Error).message };
    }
    complete = false;
  }
  if (tooLarge) return tooLarge;
  return { type: "query", matches, counted, complete, nextOffset };
}

/**
 * Parses `text` and runs one task on it. Never throws for bad input: the result says what
 * went wrong, in data.
 *
 * @example
 * evaluateJson('{"items":[{"id":1}]}', "json", { type: "query", query: "$..id", offset: 0, maxResults: 50, maxChars: 100_000 });
 */
export function evaluateJson(
  text: string,
  kind: "json" | "ndjson",
  task: JsonTask,
): JsonTaskResult {
  try {
    const parsed = parse(text, kind);
    if ("type" in parsed) return parsed;
    if (task.type === "outline")
      return {
        type: "outline",
        outline: outlineJson(parsed.root, { firstValues: task.firstValues }),
      };
    return query(parsed, task);
  } catch (error) {
    if (error instanceof RangeError) return { type: "too-costly", reason: error.message };
    throw error;
  }
}

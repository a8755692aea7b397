import { OutputTooLargeError, SpillwayError } from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import { intArg, textReaderOf } from "./common.js";
import type { RetrievalJob } from "./fair-queue.js";
import { evaluateJson, type JsonTask, type JsonTaskResult } from "./json-evaluate.js";
import {
  DEFAULT_JSON_MEMORY_MB,
  DEFAULT_JSON_TIMEOUT_MS,
  runQueuedJsonTask,
  tooCostly,
} from "./json-runner.js";
import { checkRequest, jsonRequestSchema } from "./request-schemas.js";

/** Largest output json mode parses (parsing needs several times the text in memory). */
export const DEFAULT_MAX_JSON_BYTES = 512 * 1024 * 1024;
export const DEFAULT_MAX_JSON_RESULTS = 50;
/** Serialized characters of matched values one read returns. */
export const DEFAULT_MAX_JSON_RESULT_CHARS = 100_000;

export interface JsonRequest {
  /** A JSONPath query, e.g. `$.items[?(@.status=="failed")].id`. Omit for an outline. */
  readonly query?: string;
  /** Return the document's shape (keys, types, array lengths) instead of values. */
  readonly outline?: boolean;
  /** With `outline`: give each string key's first value (default true; see `outlineJson`). */
  readonly outlineFirstValues?: boolean;
  /** Skip this many matches (a previous result's `nextOffset`). */
  readonly offset?: number;
  readonly maxResults?: number;
  /** Serialized characters of values returned, at most. */
  readonly maxChars?: number;
  readonly maxJsonBytes?: number;
  /** Deadline of the whole read, parsing included, in ms (default 30000). */
  readonly timeoutMs?: number;
  /** Heap limit of the worker that parses and queries, in MiB (default 2048). */
  readonly maxMemoryMb?: number;
}

export interface JsonMatch {
  /** Normalized JSONPath of the value, e.g. `$['items'][3]['id']`. */
  readonly path: string;
  /** JSON Pointer of the value, e.g. `/items/3/id`. */
  readonly pointer: string;
  readonly value: unknown;
  /** For ndjson outputs: the 1-based line holding the record. */
  readonly line?: number;
}

export type JsonResult =
  | {
      readonly mode: "json";
      readonly kind: "query";
      readonly outputId: string;
      readonly sha256: string;
      readonly query: string;
      readonly matches: JsonMatch[];
      /** Matches from the start; a lower bound when `totalExact` is false. */
      readonly totalMatches: number;
      /** False when counting stopped early (a query stops at maxResults + 10,000 matches). */
      readonly totalExact: boolean;
      readonly offset: number;
      /** Pass as `offset` for the next matches; null when none remain. */
      readonly nextOffset: number | null;
    }
  | {
      readonly mode: "json";
      readonly kind: "outline";
      readonly outputId: string;
      readonly sha256: string;
      /** A compact, indented description of the document's shape. */
      readonly outline: string;
    };

function invalidJson(output: OpenedOutput, reason: string, line?: number): SpillwayError {
  const { record } = output;
  return new SpillwayError(
    "INVALID_JSON",
    `Output "${record.id}" (detected kind ${record.kind}) is not valid ${record.kind === "ndjson" ? "NDJSON" : "JSON"}` +
      `${line ? ` at line ${line}` : ""}: ${reason}. Use grep, slice or page to read it as text.`,
    {
      outputId: record.id,
      kind: record.kind,
      reason,
      ...(line ? { line } : {}),
      modes: ["grep", "slice", "page"],
    },
    { fault: "model" },
  );
}

/** Documents up to this size are outlined on the calling thread (no worker start-up). */
const IN_THREAD_OUTLINE_BYTES = 1024 * 1024;

interface JsonLimitsRequested {
  readonly maxJsonBytes: number;
  readonly timeoutMs: number;
  readonly maxMemoryMb: number;
}

/** Reads the document and runs one task on it: in a worker with limits, or here when tiny. */
async function runTask(
  output: OpenedOutput,
  task: JsonTask,
  limits: JsonLimitsRequested,
  job: RetrievalJob,
): Promise<Exclude<JsonTaskResult, { type: "invalid-json" }>> {
  const { record } = output;
  const byteSize = record.byteSize ?? 0;
  if (byteSize > limits.maxJsonBytes) {
    throw new OutputTooLargeError(
      `Output "${record.id}" is ${byteSize} bytes, over the ${limits.maxJsonBytes}-byte limit of json mode. Use grep or slice.`,
      {
        outputId: record.id,
        byteSize,
        limit: limits.maxJsonBytes,
        limitUnit: "bytes",
        modes: ["grep", "slice", "page"],
      },
    );
  }
  textReaderOf(output, "json"); // UNSUPPORTED_KIND for binary outputs
  const kind = record.kind === "ndjson" ? "ndjson" : "json";
  const result =
    task.type === "outline" && byteSize <= IN_THREAD_OUTLINE_BYTES
      ? evaluateJson(
          Buffer.from(await output.source.read(0, byteSize)).toString("utf8"),
          kind,
          task,
        )
      : await runQueuedJsonTask(() => output.source.read(0, byteSize), kind, task, job, {
          timeoutMs: limits.timeoutMs,
          maxMemoryMb: limits.maxMemoryMb,
          outputId: record.id,
          ...(task.type === "query" ? { query: task.query } : {}),
        });
  if (result.type === "invalid-json") throw invalidJson(output, result.reason, result.line);
  return result;
}

/**
 * Queries a JSON or NDJSON output with JSONPath, or outlines its shape. NDJSON is queried as
 * an array of its records (`$[0]` is the first record), and each match says its line.
 *
 * Parsing and evaluation run in a worker thread with a heap limit (`maxMemoryMb`, default
 * 2048) and a deadline (`timeoutMs`, default 30 s); past them the answer is QUERY_TOO_COSTLY
 * or QUERY_TIMEOUT, saying what to do instead. A query stops once it has `maxResults` matches
 * plus a bounded count of the rest, so a broad query on a large document costs what it
 * returns, not what it could return; `totalMatches` is then a lower bound (`totalExact` false).
 *
 * @example
 * await queryJson(opened, { outline: true }); // shape of a 50 MB document in a few hundred tokens
 * await queryJson(opened, { query: "$.items[?(@.status=='failed')].id" });
 */
export async function queryJson(
  output: OpenedOutput,
  unchecked: JsonRequest = {},
  job: RetrievalJob = {},
): Promise<JsonResult> {
  const request = checkRequest(jsonRequestSchema, unchecked);
  const { record } = output;
  const limits: JsonLimitsRequested = {
    maxJsonBytes: intArg("maxJsonBytes", request.maxJsonBytes, DEFAULT_MAX_JSON_BYTES, 1),
    timeoutMs: intArg("timeoutMs", request.timeoutMs, DEFAULT_JSON_TIMEOUT_MS, 1, 600_000),
    maxMemoryMb: intArg("maxMemoryMb", request.maxMemoryMb, DEFAULT_JSON_MEMORY_MB, 16, 65_536),
  };
  if (request.outline === true || request.query === undefined) {
    const result = await runTask(
      output,
      { type: "outline", firstValues: request.outlineFirstValues ?? true },
      limits,
      job,
    );
    if (result.type !== "outline") throw unexpected(output, limits, result);
    return {
      mode: "json",
      kind: "outline",
      outputId: record.id,
      sha256: record.sha256,
      outline: result.outline,
    };
  }
  const query = request.query;
  const offset = intArg("offset", request.offset, 0, 0);
  const maxResults = intArg("maxResults", request.maxResults, DEFAULT_MAX_JSON_RESULTS, 1, 10_000);
  const maxChars = intArg("maxChars", request.maxChars, DEFAULT_MAX_JSON_RESULT_CHARS, 1);
  const syntaxProblem = jsonPathSyntaxProblem(query);
  if (syntaxProblem) throw invalidQuery(query, syntaxProblem);
  const result = await runTask(
    output,
    { type: "query", query, offset, maxResults, maxChars },
    limits,
    job,
  );
  if (result.type === "invalid-query") throw invalidQuery(query, result.reason);
  if (result.type === "value-too-large") {
    throw new SpillwayError(
      "RANGE_TOO_LARGE",
      `The value at ${result.path} is ${result.chars} characters of JSON, over the limit of ${maxChars}. ` +
        "Query a deeper path, or outline it first.",
      { outputId: record.id, path: result.path, chars: result.chars, limit: maxChars },
      { fault: "model" },
    );
  }
  if (result.type !== "query") throw unexpected(output, limits, result, query);
  const returned = offset + result.matches.length;
  return {
    mode: "json",
    kind: "query",
    outputId: record.id,
    sha256: record.sha256,
    query,
    matches: result.matches,
    totalMatches: result.counted,
    totalExact: result.complete,
    offset,
    nextOffset: result.nextOffset ?? (result.counted > returned ? returned : null),
  };
}

/** QUERY_TOO_COSTLY for a result the engine could not finish (too deep, too long a string). */
function unexpected(
  output: OpenedOutput,
  limits: JsonLimitsRequested,
  result: JsonTaskResult,
  query?: string,
): SpillwayError {
  const reason =
    result.type === "too-costly" ? `the engine ran out of room (${result.reason})` : result.type;
  return tooCostly(
    { ...limits, outputId: output.record.id, ...(query !== undefined ? { query } : {}) },
    `${reason}; JSON nested very deeply, or a value too large for one string, cannot be queried here`,
    "No JSONPath query can read this document: read it as text with grep, slice or page.",
  );
}

function invalidQuery(query: string, reason: string): SpillwayError {
  return new SpillwayError(
    "INVALID_QUERY",
    `Invalid JSONPath query ${JSON.stringify(query)}: ${reason}. ` +
      'Examples: $.items[*].id, $..error, $.items[?(@.status=="failed")]',
    { query, reason },
    { fault: "model" },
  );
}

/**
 * Structural checks the JSONPath library skips (it reads `$.a[` as `$.a`): the query starts
 * at the root, and brackets, parentheses and quotes are closed.
 */
export function jsonPathSyntaxProblem(query: string): string | undefined {
  if (!query.trimStart().startsWith("$")) return "a query starts at the root, $";
  const open: string[] = [];
  let quote: string | undefined;
  for (let i = 0; i < query.length; i++) {
    const ch = query[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "[" || ch === "(") open.push(ch);
    else if (ch === "]" || ch === ")") {
      const expected = ch === "]" ? "[" : "(";
      if (open.pop() !== expected) return `unexpected "${ch}" at character ${i}`;
    }
  }
  if (quote) return `unclosed ${quote} quote`;
  if (open.length > 0) return `unclosed "${open[open.length - 1]}"`;
  if (query.trimEnd().endsWith(".")) return "the query ends with a dot: name a member after it";
  return undefined;
}

import { JSONPath } from "jsonpath-plus";
import { OutputTooLargeError, SpillwayError } from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import { intArg, textReaderOf } from "./common.js";
import { outlineJson } from "./json-outline.js";
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
  /** Skip this many matches (a previous result's `nextOffset`). */
  readonly offset?: number;
  readonly maxResults?: number;
  /** Serialized characters of values returned, at most. */
  readonly maxChars?: number;
  readonly maxJsonBytes?: number;
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
      readonly totalMatches: number;
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

interface ParsedDocument {
  readonly root: unknown;
  /** For ndjson: the 1-based line of each record. */
  readonly recordLines?: number[];
}

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

async function parseDocument(output: OpenedOutput, maxJsonBytes: number): Promise<ParsedDocument> {
  const { record } = output;
  if ((record.byteSize ?? 0) > maxJsonBytes) {
    throw new OutputTooLargeError(
      `Output "${record.id}" is ${record.byteSize} bytes, over the ${maxJsonBytes}-byte limit of json mode. Use grep or slice.`,
      {
        outputId: record.id,
        byteSize: record.byteSize ?? 0,
        limit: maxJsonBytes,
        limitUnit: "bytes",
        modes: ["grep", "slice", "page"],
      },
    );
  }
  const text = (await textReaderOf(output, "json").readChars(0, record.charCount ?? 0)).text;
  if (record.kind === "ndjson") {
    const root: unknown[] = [];
    const recordLines: number[] = [];
    const lines = text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (line.length === 0) continue;
      try {
        root.push(JSON.parse(line));
      } catch (error) {
        throw invalidJson(output, (error as Error).message, i + 1);
      }
      recordLines.push(i + 1);
    }
    return { root, recordLines };
  }
  try {
    return { root: JSON.parse(text) };
  } catch (error) {
    throw invalidJson(output, (error as Error).message);
  }
}

/**
 * Queries a JSON or NDJSON output with JSONPath, or outlines its shape. NDJSON is queried as
 * an array of its records (`$[0]` is the first record), and each match says its line.
 *
 * @example
 * await queryJson(opened, { outline: true }); // shape of a 50 MB document in a few hundred tokens
 * await queryJson(opened, { query: "$.items[?(@.status=='failed')].id" });
 */
export async function queryJson(
  output: OpenedOutput,
  unchecked: JsonRequest = {},
): Promise<JsonResult> {
  const request = checkRequest(jsonRequestSchema, unchecked);
  const { record } = output;
  const maxJsonBytes = intArg("maxJsonBytes", request.maxJsonBytes, DEFAULT_MAX_JSON_BYTES, 1);
  if (request.outline === true || request.query === undefined) {
    const document = await parseDocument(output, maxJsonBytes);
    return {
      mode: "json",
      kind: "outline",
      outputId: record.id,
      sha256: record.sha256,
      outline: outlineJson(document.root),
    };
  }
  const query = request.query;
  const offset = intArg("offset", request.offset, 0, 0);
  const maxResults = intArg("maxResults", request.maxResults, DEFAULT_MAX_JSON_RESULTS, 1, 10_000);
  const maxChars = intArg("maxChars", request.maxChars, DEFAULT_MAX_JSON_RESULT_CHARS, 1);
  const syntaxProblem = jsonPathSyntaxProblem(query);
  if (syntaxProblem) throw invalidQuery(query, syntaxProblem);
  const document = await parseDocument(output, maxJsonBytes);
  let found: { path: string; pointer: string; value: unknown }[];
  try {
    found = JSONPath({
      path: query,
      json: document.root as object,
      resultType: "all",
      eval: "safe",
      wrap: true,
    });
  } catch (error) {
    throw invalidQuery(query, (error as Error).message);
  }
  const matches: JsonMatch[] = [];
  let chars = 0;
  let index = offset;
  for (; index < found.length && matches.length < maxResults; index++) {
    const hit = found[index]!;
    const size = JSON.stringify(hit.value)?.length ?? 9;
    if (matches.length > 0 && chars + size > maxChars) break;
    if (size > maxChars) {
      throw new SpillwayError(
        "RANGE_TOO_LARGE",
        `The value at ${hit.path} is ${size} characters of JSON, over the limit of ${maxChars}. ` +
          "Query a deeper path, or outline it first.",
        { outputId: record.id, path: hit.path, chars: size, limit: maxChars },
        { fault: "model" },
      );
    }
    chars += size;
    const line = document.recordLines ? recordLine(hit.pointer, document.recordLines) : undefined;
    matches.push({
      path: hit.path,
      pointer: hit.pointer,
      value: hit.value,
      ...(line ? { line } : {}),
    });
  }
  return {
    mode: "json",
    kind: "query",
    outputId: record.id,
    sha256: record.sha256,
    query,
    matches,
    totalMatches: found.length,
    offset,
    nextOffset: index < found.length ? index : null,
  };
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

function recordLine(pointer: string, recordLines: number[]): number | undefined {
  const first = /^\/(\d+)/.exec(pointer);
  return first ? recordLines[Number(first[1])] : undefined;
}

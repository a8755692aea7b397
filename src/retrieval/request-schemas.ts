/**
 * The retrieval requests as zod schemas: the library boundary of every read. Types are
 * checked here (an integer, a string, true or false; unknown keys refused); ranges that
 * depend on the output (a cursor past its end) are checked by each mode, which knows it.
 */
import { z } from "zod";
import { checkArgument } from "../core/check-arguments.js";
import { SEARCH_RANKINGS } from "./search-corpus.js";

const int = z.int({ error: "an integer" });
const bool = z.boolean({ error: "true or false" });
const str = (valid: string) => z.string({ error: valid });

const rawShape = { maxChars: int.optional() };

const sliceShape = {
  start: int.optional(),
  length: int.optional(),
  lineStart: int.optional(),
  lineEnd: int.optional(),
  anchor: str("a literal string").optional(),
  window: int.optional(),
  matchIndex: int.optional(),
  maxChars: int.optional(),
};

const grepShape = {
  pattern: str("a non-empty literal or regular expression"),
  regex: bool.optional(),
  ignoreCase: bool.optional(),
  context: int.optional(),
  maxMatches: int.optional(),
  cursor: int.optional(),
  timeoutMs: int.optional(),
  maxLineChars: int.optional(),
  record: z
    .union(
      [
        bool,
        z.strictObject({
          maxLines: int.optional(),
          maxChars: int.optional(),
          context: int.optional(),
        }),
      ],
      { error: "true, false, or { maxLines, maxChars, context }" },
    )
    .optional(),
};

const pageShape = {
  cursor: int.optional(),
  maxChars: int.optional(),
  maxTokens: int.optional(),
  tokenizer: z
    .enum(["o200k_base", "cl100k_base"], { error: "o200k_base or cl100k_base" })
    .optional(),
};

const jsonShape = {
  query: str('a JSONPath query string, e.g. "$.items[*].id"').optional(),
  outline: bool.optional(),
  outlineFirstValues: bool.optional(),
  offset: int.optional(),
  maxResults: int.optional(),
  maxChars: int.optional(),
  maxJsonBytes: int.optional(),
  timeoutMs: int.optional(),
  maxMemoryMb: int.optional(),
};

const searchShape = {
  query: str('words to find, e.g. "boot marker"'),
  maxResults: int.optional(),
  maxLineChars: int.optional(),
  timeoutMs: int.optional(),
  maxCandidates: int.optional(),
  ranking: z
    .enum(SEARCH_RANKINGS, { error: SEARCH_RANKINGS.map((r) => `"${r}"`).join(" or ") })
    .optional(),
  latestFirst: bool.optional(),
  onePerLine: bool.optional(),
};

const REQUEST = "an object with the mode's fields";

/** A request object of one mode; `mode` itself may be present (readOutput passes it on). */
function modeSchema<const M extends string, S extends z.core.$ZodLooseShape>(mode: M, shape: S) {
  return z.strictObject({ mode: z.literal(mode).optional(), ...shape }, { error: REQUEST });
}

export const rawRequestSchema = modeSchema("raw", rawShape);
export const sliceRequestSchema = modeSchema("slice", sliceShape);
export const grepRequestSchema = modeSchema("grep", grepShape);
export const pageRequestSchema = modeSchema("page", pageShape);
export const jsonRequestSchema = modeSchema("json", jsonShape);
export const searchRequestSchema = modeSchema("search", searchShape);

const MODES = "one of raw, slice, grep, page, json, search";

/** One retrieval: `mode` picks which fields apply. */
export const retrievalRequestSchema = z.discriminatedUnion(
  "mode",
  [
    z.strictObject({ mode: z.literal("raw"), ...rawShape }),
    z.strictObject({ mode: z.literal("slice"), ...sliceShape }),
    z.strictObject({ mode: z.literal("grep"), ...grepShape }),
    z.strictObject({ mode: z.literal("page"), ...pageShape }),
    z.strictObject({ mode: z.literal("json"), ...jsonShape }),
    z.strictObject({ mode: z.literal("search"), ...searchShape }),
  ],
  { error: `an object whose mode is ${MODES}` },
);

/**
 * Checks a request against its schema and returns the checked copy (read once, so a getter
 * cannot answer differently later); otherwise INVALID_ARGUMENT naming the field.
 */
export function checkRequest<T>(schema: z.ZodType, request: T, name = "request"): T {
  return checkArgument(schema, request, name) as T;
}

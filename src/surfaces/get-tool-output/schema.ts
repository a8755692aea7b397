import { z } from "zod";
import { SpillwayError } from "../../core/errors.js";
import { toolInputSchema } from "../../core/tool-input-schema.js";

export const GET_TOOL_OUTPUT = "get_tool_output";

/** Reads of parts first, raw last: a model may take the first mode listed. */
export const GET_TOOL_OUTPUT_MODES = [
  "grep",
  "search",
  "slice",
  "page",
  "json",
  "extract",
  "raw",
] as const;
export const EXTRACT_STRATEGIES = ["auto", "full-chunked", "read-grep", "truncate"] as const;

const SLICE_KEYS = [
  "start",
  "length",
  "anchor",
  "window",
  "match_index",
  "line_start",
  "line_end",
] as const;

const int = (description: string) => z.number().int().optional().describe(description);

/**
 * The arguments of `get_tool_output`: the async tools' read (an id; mode raw, slice or extract),
 * extended with search, grep, page and json. Every request carries this schema, so its words are
 * few (SW-29): the tool's description says what each mode is; an argument says which mode it
 * belongs to and its default.
 */
export const getToolOutputArgs = z
  .object({
    id: z
      .string()
      .min(1)
      .optional()
      .describe('The output id ("out_…"). Search without one searches the whole session.'),
    mode: z.enum(GET_TOOL_OUTPUT_MODES),
    query: z.string().optional().describe("search: the words to find; extract: what to find."),
    max_results: int("search: lines (default 10)."),
    strategy: z.enum(EXTRACT_STRATEGIES).optional().describe("extract: how (default auto)."),
    slice: z
      .object({
        start: int("First character, 0-based."),
        length: int("Characters (default 4000)."),
        anchor: z.string().optional().describe("Exact text to read around."),
        window: int("Characters each side (default 1000)."),
        match_index: int("Which occurrence, 0-based."),
        line_start: int("First line, 1-based."),
        line_end: int("Last line (default line_start)."),
      })
      .strict()
      .optional()
      .describe("slice: start+length, line_start+line_end, or anchor."),
    pattern: z
      .string()
      .optional()
      .describe("grep: exact text, or a regular expression with regex."),
    regex: z.boolean().optional(),
    ignore_case: z.boolean().optional(),
    context: int("grep: lines around each match (0-20)."),
    max_matches: int("grep: lines (default 50)."),
    cursor: int("grep, page: where to continue (from a result)."),
    max_tokens: int("page: size in tokens."),
    json_query: z.string().optional().describe("json: a JSONPath query."),
    outline: z.boolean().optional().describe("json: the shape instead of values."),
    offset: int("json: matches to skip."),
  })
  .strict();

export type GetToolOutputArgs = z.infer<typeof getToolOutputArgs>;

/** The arguments of a read of one output: `id` is known (only a session-wide search has none). */
export type ReadArgs = GetToolOutputArgs & { readonly id: string };

/** The JSON Schema the model is sent, derived from {@link getToolOutputArgs}. */
export const GET_TOOL_OUTPUT_INPUT_SCHEMA = toolInputSchema(getToolOutputArgs);

/** Models often flatten `slice`: in slice mode, accept its keys at the top level too. */
export function normalizeGetToolOutputArgs(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const record = { ...(raw as Record<string, unknown>) };
  if (record.mode !== "slice") return record;
  const slice: Record<string, unknown> =
    typeof record.slice === "object" && record.slice !== null
      ? { ...(record.slice as object) }
      : {};
  for (const key of SLICE_KEYS) {
    if (!(key in record)) continue;
    slice[key] = record[key];
    delete record[key];
  }
  record.slice = slice;
  return record;
}

/** The model's arguments did not parse: every problem, and what would be valid. */
export function invalidGetToolOutputArgs(error: z.ZodError): SpillwayError {
  const problems = error.issues.map(
    (issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`,
  );
  return new SpillwayError(
    "INVALID_TOOL_ARGUMENTS",
    `Invalid get_tool_output arguments: ${problems.join("; ")}. Valid: id (string; optional for mode="search"), mode (${GET_TOOL_OUTPUT_MODES.join(", ")}), ` +
      "and the fields of that mode as described in the tool's schema.",
    { problems },
    { fault: "model" },
  );
}

/** A get_tool_output call as text, for "continue with …" lines (undefined arguments left out). */
export function getToolOutputCall(args: Record<string, unknown>): string {
  return `get_tool_output(${Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ")})`;
}

/** A mode's arguments' missing field, as the model is told. */
export function missingArgument(message: string): SpillwayError {
  return new SpillwayError("INVALID_TOOL_ARGUMENTS", message, {}, { fault: "model" });
}

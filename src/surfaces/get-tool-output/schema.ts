import { z } from "zod";
import { SpillwayError } from "../../core/errors.js";
import { toolInputSchema } from "../../core/tool-input-schema.js";

export const GET_TOOL_OUTPUT = "get_tool_output";

/** Reads of parts first: the 1.5B local model picked the first mode it saw, raw, on outputs far over raw's limit. */
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

/** The arguments of `get_tool_output`: seed 003's, extended with grep, page and json. */
export const getToolOutputArgs = z
  .object({
    id: z
      .string()
      .min(1)
      .optional()
      .describe(
        'The output id ("out_…") from a tool result. Every mode needs it except mode="search", which without an id searches every output of this session.',
      ),
    mode: z
      .enum(GET_TOOL_OUTPUT_MODES)
      .describe(
        "grep = lines matching a pattern; search = the lines that best match some words (`query`, any language, any case or separators); " +
          "slice = characters, lines or text around an anchor; " +
          "page = read in order from a cursor; json = JSONPath query or outline; " +
          "extract = ask a model to find what `query` describes; raw = the whole output (small outputs only).",
      ),
    query: z
      .string()
      .optional()
      .describe(
        'mode="search": the words to find, as you would write them; mode="extract": what to extract, precisely.',
      ),
    max_results: int('mode="search": lines to return, best first (default 10, at most 100).'),
    strategy: z
      .enum(EXTRACT_STRATEGIES)
      .optional()
      .describe(
        'mode="extract": auto (default) lets spillway choose; full-chunked = a model reads every chunk (map-reduce); read-grep = an agent searches it with Read/Grep; truncate = top and bottom only.',
      ),
    slice: z
      .object({
        start: int("First character (0-based)."),
        length: int("Number of characters (default 4000)."),
        anchor: z
          .string()
          .optional()
          .describe("Literal text to find; returns `window` characters around it."),
        window: int("Characters on each side of the anchor (default 1000)."),
        match_index: int("Which occurrence of the anchor, 0-based (default 0)."),
        line_start: int("First line, 1-based."),
        line_end: int("Last line, inclusive (default line_start)."),
      })
      .strict()
      .optional()
      .describe(
        'mode="slice": either start+length (characters), or line_start+line_end (1-based lines), or anchor (+window, match_index).',
      ),
    pattern: z
      .string()
      .optional()
      .describe('mode="grep": literal text (or a regular expression with regex=true).'),
    regex: z
      .boolean()
      .optional()
      .describe('mode="grep": treat pattern as a JavaScript regular expression.'),
    ignore_case: z.boolean().optional().describe('mode="grep": case-insensitive.'),
    context: int('mode="grep": lines of context around each match (0-20).'),
    max_matches: int('mode="grep": matching lines to return (default 50).'),
    cursor: int(
      'mode="grep" or "page": continue from this character offset (from a previous result).',
    ),
    max_tokens: int('mode="page": page size in tokens (default: what fits).'),
    json_query: z
      .string()
      .optional()
      .describe('mode="json": a JSONPath query, e.g. $.items[?(@.status=="failed")].id'),
    outline: z
      .boolean()
      .optional()
      .describe('mode="json": the document\'s shape instead of values.'),
    offset: int('mode="json": skip this many matches (from a previous result).'),
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

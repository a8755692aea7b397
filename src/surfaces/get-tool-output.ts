import { z } from "zod";
import { isSpillwayError, OutputFailedError, SpillwayError } from "../core/errors.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import { readOutput } from "../retrieval/read-output.js";
import { NOT_READY_TEXT } from "./async-texts.js";
import { defaultHandleMessage } from "./handle-message.js";
import {
  renderError,
  renderGrep,
  renderJson,
  renderPage,
  renderRaw,
  renderSlice,
} from "./render.js";
import type { Surface, SurfaceAnswer, SurfaceContext } from "./surface.js";

export const GET_TOOL_OUTPUT = "get_tool_output";
const MODES = ["raw", "slice", "grep", "page", "json", "extract"] as const;
const SLICE_KEYS = [
  "start",
  "length",
  "anchor",
  "window",
  "match_index",
  "line_start",
  "line_end",
] as const;

const int = (description: string) => ({ type: "integer", description });

/** The model-facing schema: seed 003's get_tool_output, extended with grep, page and json. */
const INPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["id", "mode"],
  properties: {
    id: { type: "string", description: 'The output id ("out_…") from a tool result.' },
    mode: {
      type: "string",
      enum: [...MODES],
      description:
        "raw = the whole output (small outputs only); slice = characters, lines or text around an anchor; " +
        "grep = lines matching a pattern; page = read in order from a cursor; json = JSONPath query or outline; " +
        "extract = ask a model to find what `query` describes.",
    },
    query: { type: "string", description: 'mode="extract": what to extract, precisely.' },
    strategy: {
      type: "string",
      enum: ["auto", "full-chunked", "read-grep", "truncate"],
      description:
        'mode="extract": auto (default) lets spillway choose; full-chunked = a model reads every chunk (map-reduce); read-grep = an agent searches it with Read/Grep; truncate = top and bottom only.',
    },
    slice: {
      type: "object",
      additionalProperties: false,
      description:
        'mode="slice": either start+length (characters), or line_start+line_end (1-based lines), or anchor (+window, match_index).',
      properties: {
        start: int("First character (0-based)."),
        length: int("Number of characters (default 4000)."),
        anchor: {
          type: "string",
          description: "Literal text to find; returns `window` characters around it.",
        },
        window: int("Characters on each side of the anchor (default 1000)."),
        match_index: int("Which occurrence of the anchor, 0-based (default 0)."),
        line_start: int("First line, 1-based."),
        line_end: int("Last line, inclusive (default line_start)."),
      },
    },
    pattern: {
      type: "string",
      description: 'mode="grep": literal text (or a regular expression with regex=true).',
    },
    regex: {
      type: "boolean",
      description: 'mode="grep": treat pattern as a JavaScript regular expression.',
    },
    ignore_case: { type: "boolean", description: 'mode="grep": case-insensitive.' },
    context: int('mode="grep": lines of context around each match (0-20).'),
    max_matches: int('mode="grep": matching lines to return (default 50).'),
    cursor: int(
      'mode="grep" or "page": continue from this character offset (from a previous result).',
    ),
    max_tokens: int('mode="page": page size in tokens (default: what fits).'),
    json_query: {
      type: "string",
      description: 'mode="json": a JSONPath query, e.g. $.items[?(@.status=="failed")].id',
    },
    outline: {
      type: "boolean",
      description: 'mode="json": the document\'s shape instead of values.',
    },
    offset: int('mode="json": skip this many matches (from a previous result).'),
  },
} as const;

const Args = z
  .object({
    id: z.string().min(1),
    mode: z.enum(MODES),
    query: z.string().optional(),
    strategy: z.enum(["auto", "full-chunked", "read-grep", "truncate"]).optional(),
    slice: z
      .object({
        start: z.number().int().optional(),
        length: z.number().int().optional(),
        anchor: z.string().optional(),
        window: z.number().int().optional(),
        match_index: z.number().int().optional(),
        line_start: z.number().int().optional(),
        line_end: z.number().int().optional(),
      })
      .strict()
      .optional(),
    pattern: z.string().optional(),
    regex: z.boolean().optional(),
    ignore_case: z.boolean().optional(),
    context: z.number().int().optional(),
    max_matches: z.number().int().optional(),
    cursor: z.number().int().optional(),
    max_tokens: z.number().int().optional(),
    json_query: z.string().optional(),
    outline: z.boolean().optional(),
    offset: z.number().int().optional(),
  })
  .strict();

type Args = z.infer<typeof Args>;

/** Models often flatten `slice`: in slice mode, accept its keys at the top level too. */
function normalize(raw: unknown): unknown {
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

function invalidArgs(error: z.ZodError): SpillwayError {
  const problems = error.issues.map(
    (issue) => `${issue.path.join(".") || "(arguments)"}: ${issue.message}`,
  );
  return new SpillwayError(
    "INVALID_TOOL_ARGUMENTS",
    `Invalid get_tool_output arguments: ${problems.join("; ")}. Valid: id (string), mode (${MODES.join(", ")}), ` +
      "and the fields of that mode as described in the tool's schema.",
    { problems },
    { fault: "model" },
  );
}

const call = (args: Record<string, unknown>) =>
  `get_tool_output(${Object.entries(args)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ")})`;

async function run(args: Args, context: SurfaceContext): Promise<string> {
  const { outputs, scope, maxChars } = context;
  const id = args.id;
  const read = <R extends Parameters<typeof readOutput>[3]>(request: R) =>
    readOutput(outputs, id, scope, request);
  const record = await outputs.get(id, scope);
  // Seed 003's edge cases: a running output is not ready; a failed one answers its failure.
  if (record.status === "running")
    throw new SpillwayError(
      "OUTPUT_NOT_READY",
      NOT_READY_TEXT,
      { outputId: id },
      { fault: "model" },
    );
  if (record.status === "failed")
    throw new OutputFailedError(id, record.toolName, record.error ?? "unknown error");
  switch (args.mode) {
    case "raw": {
      const otherModes = `mode="grep", "slice", "page"${record.kind === "json" || record.kind === "ndjson" ? ', "json"' : ""}`;
      const threshold = context.asyncTokenThreshold;
      if (threshold !== undefined && (record.tokenEstimate ?? 0) > threshold) {
        throw new SpillwayError(
          "OUTPUT_TOO_LARGE",
          `Response too large (${record.byteSize ?? 0} bytes). Use extract mode. ` +
            `Also exact: ${otherModes} (~${(record.tokenEstimate ?? 0).toLocaleString("en-US")} tokens is over the ${threshold.toLocaleString("en-US")}-token raw limit).`,
          { outputId: id, limit: threshold },
          { fault: "model" },
        );
      }
      if ((record.charCount ?? 0) > maxChars || record.kind === "binary") {
        throw new SpillwayError(
          "OUTPUT_TOO_LARGE",
          `Response too large for raw mode (${(record.byteSize ?? 0).toLocaleString("en-US")} bytes, ` +
            `~${(record.tokenEstimate ?? 0).toLocaleString("en-US")} tokens; at most ${maxChars.toLocaleString("en-US")} characters fit now). ` +
            `Use ${otherModes} or "extract".`,
          { outputId: id, limit: maxChars },
          { fault: "model" },
        );
      }
      return renderRaw(await read({ mode: "raw", maxChars }));
    }
    case "slice":
      return slice(args, context);
    case "grep": {
      if (!args.pattern)
        throw new SpillwayError(
          "INVALID_TOOL_ARGUMENTS",
          'mode="grep" needs pattern.',
          {},
          { fault: "model" },
        );
      const result = await read({
        mode: "grep",
        pattern: args.pattern,
        ...(args.regex !== undefined ? { regex: args.regex } : {}),
        ...(args.ignore_case !== undefined ? { ignoreCase: args.ignore_case } : {}),
        ...(args.context !== undefined ? { context: args.context } : {}),
        ...(args.max_matches !== undefined ? { maxMatches: args.max_matches } : {}),
        ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
      });
      return renderGrep(result, maxChars, (cursor) =>
        call({
          id,
          mode: "grep",
          pattern: args.pattern,
          ...(args.regex ? { regex: true } : {}),
          ...(args.ignore_case ? { ignore_case: true } : {}),
          ...(args.context ? { context: args.context } : {}),
          cursor,
        }),
      );
    }
    case "page": {
      const result = await read({
        mode: "page",
        cursor: args.cursor ?? 0,
        maxChars,
        ...(args.max_tokens !== undefined
          ? { maxTokens: args.max_tokens, tokenizer: context.tokenizer }
          : {}),
      });
      const next =
        result.nextCursor === null
          ? undefined
          : call({
              id,
              mode: "page",
              cursor: result.nextCursor,
              ...(args.max_tokens ? { max_tokens: args.max_tokens } : {}),
            });
      return renderPage(result, next);
    }
    case "json": {
      const result = await read({
        mode: "json",
        maxChars,
        ...(args.json_query !== undefined && args.outline !== true
          ? { query: args.json_query }
          : { outline: true }),
        ...(args.offset !== undefined ? { offset: args.offset } : {}),
      });
      return renderJson(result, (offset) =>
        call({ id, mode: "json", json_query: args.json_query, offset }),
      );
    }
    case "extract": {
      if (!args.query)
        throw new SpillwayError(
          "INVALID_TOOL_ARGUMENTS",
          "Query required for extract mode.",
          {},
          { fault: "model" },
        );
      if (!context.extractor) {
        throw new SpillwayError(
          "INVALID_ARGUMENT",
          'Extraction is not configured in this session. Read the output yourself with mode="grep", "slice", "page" or "json".',
          { outputId: id },
          { fault: "user" },
        );
      }
      const extracted = await context.extractor.extract({
        output: record,
        query: args.query,
        strategy: args.strategy ?? "auto",
        ...(context.toolCallId ? { toolCallId: context.toolCallId } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
        maxChars: context.maxChars,
      });
      if (extracted.failed) {
        throw new SpillwayError(
          "EXTRACTION_FAILED",
          extracted.text,
          { outputId: id },
          { fault: "tool" },
        );
      }
      // Decision 21 counts successful retrievals.
      await outputs.countRead(id);
      return extracted.text;
    }
  }
}

async function slice(args: Args, context: SurfaceContext): Promise<string> {
  const { outputs, scope, maxChars } = context;
  const id = args.id;
  const s = args.slice ?? {};
  const read = <R extends Parameters<typeof readOutput>[3]>(request: R) =>
    readOutput(outputs, id, scope, request);
  if (s.anchor !== undefined) {
    const window = Math.min(
      s.window ?? 1000,
      Math.max(0, Math.floor((maxChars - s.anchor.length) / 2)),
    );
    return renderSlice(
      await read({
        mode: "slice",
        anchor: s.anchor,
        window,
        ...(s.match_index !== undefined ? { matchIndex: s.match_index } : {}),
        maxChars,
      }),
    );
  }
  if (s.line_start !== undefined || s.line_end !== undefined) {
    try {
      return renderSlice(
        await read({
          mode: "slice",
          ...(s.line_start !== undefined ? { lineStart: s.line_start } : { lineStart: 1 }),
          ...(s.line_end !== undefined ? { lineEnd: s.line_end } : {}),
          maxChars,
        }),
      );
    } catch (error) {
      // Lines too long for the budget: show what fits as a page and say how to go on.
      if (!isSpillwayError(error, "RANGE_TOO_LARGE") || typeof error.details.cursor !== "number")
        throw error;
      const page = await read({ mode: "page", cursor: error.details.cursor, maxChars });
      const next =
        page.nextCursor === null ? undefined : call({ id, mode: "page", cursor: page.nextCursor });
      return `[the requested lines hold more than ${maxChars.toLocaleString("en-US")} characters, more than fits now; showing them page by page]\n${renderPage(page, next)}`;
    }
  }
  const start = s.start ?? 0;
  const wanted = s.length ?? 4000;
  const length = Math.min(wanted, maxChars);
  const result = await read({ mode: "slice", start, length, maxChars });
  const end =
    result.found && "charEnd" in result.provenance ? result.provenance.charEnd : start + length;
  const total =
    result.found && "totalChars" in result.provenance ? result.provenance.totalChars : 0;
  const more =
    length < wanted && end < Math.min(total, start + wanted)
      ? call({ id, mode: "slice", slice: { start: end, length: start + wanted - end } })
      : undefined;
  return renderSlice(result, more);
}

/** Seed 003's "Unknown tool ID: X", followed by what valid ids look like. */
function unknownId(id: string, error: SpillwayError): SpillwayError {
  return new SpillwayError(
    "OUTPUT_NOT_FOUND",
    `Unknown tool ID: ${id}. ${error.message}`,
    error.details,
    { fault: "model" },
  );
}

/**
 * The default surface: `get_tool_output(id, mode, …)` with modes raw, slice, grep, page, json
 * and extract, mapping 1:1 to the retrieval engine; results fit the budget and say how to go
 * on, never silently cut.
 */
export function createGetToolOutputSurface(options: { synopsisLines: number }): Surface {
  const definition: ToolDefinition = {
    name: GET_TOOL_OUTPUT,
    description:
      "Read a stored tool output exactly, by its id (out_…). Large tool results are stored whole and shown as a handle: " +
      "use this tool to search (grep), read lines or ranges (slice), read in order (page), query JSON (json), or have it read for you (extract). " +
      "Results say where they come from (character offsets, line numbers) and how to continue.",
    inputSchema: INPUT_SCHEMA as unknown as Record<string, unknown>,
  };
  return {
    name: "get_tool_output",
    shownAs: "handle",
    uncountedTools: new Set(),
    tools: () => [definition],
    owns: (toolName) => toolName === GET_TOOL_OUTPUT,
    placeholder: async (record, context) => ({
      text: await defaultHandleMessage(
        record,
        context.outputs,
        context.scope,
        options.synopsisLines,
      ),
    }),
    execute: async (_toolName, rawArgs, context): Promise<SurfaceAnswer> => {
      const parsed = Args.safeParse(normalize(rawArgs));
      if (!parsed.success) return { text: renderError(invalidArgs(parsed.error)), isError: true };
      try {
        return { text: await run(parsed.data, context), isError: false, outputId: parsed.data.id };
      } catch (error) {
        if (isSpillwayError(error, "OUTPUT_NOT_FOUND"))
          return { text: renderError(unknownId(parsed.data.id, error)), isError: true };
        if (isSpillwayError(error)) return { text: renderError(error), isError: true };
        throw error;
      }
    },
  };
}

/**
 * The API's shapes, once, in zod: requests are validated with them and the OpenAPI document
 * is generated from them.
 */
import { z } from "zod";
import { SEARCH_RANKINGS } from "../retrieval/search-corpus.js";
import { SURFACE_NAMES } from "../surfaces/surface.js";
import { queryBoolean, queryInt } from "./route-spec.js";

export const errorBodySchema = z
  .object({
    code: z.string().describe("A stable string code, e.g. OUTPUT_NOT_FOUND; branch on it."),
    message: z.string().describe("What went wrong and what would be valid."),
    details: z
      .record(z.string(), z.unknown())
      .describe("Structured facts, e.g. `fields: [{field, problem}]` for invalid input."),
  })
  .meta({ id: "Error" });

/** Session names for outputs stored over HTTP: also what `GET /v1/sessions/:id/outputs` takes. */
export const sessionNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
    "1-128 characters: letters, digits, . _ - (first a letter or digit)",
  )
  .describe(
    "A session: an agent session id (ses_…) or a name of your choosing for outputs you store.",
  );

export const outputIdSchema = z
  .string()
  .regex(/^out_[0-9a-z]{8,64}$/, 'an output id: "out_" and lower-case base32 characters')
  .describe("An output id (the handle), e.g. out_…");

export const sessionIdParams = z.object({ id: sessionNameSchema });
export const outputIdParams = z.object({ id: outputIdSchema });

export const outputRecordSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    toolName: z.string(),
    toolArgs: z.string().describe("The tool's arguments exactly as received (JSON text)."),
    toolCallId: z.string().nullable(),
    status: z.enum(["running", "ready", "failed"]),
    error: z.string().nullable(),
    createdAt: z.number(),
    completedAt: z.number().nullable(),
    byteSize: z.number().nullable(),
    charCount: z.number().nullable(),
    lineCount: z.number().nullable(),
    tokenEstimate: z.number().nullable(),
    tokenMethod: z.string().nullable(),
    kind: z.string().nullable(),
    mediaType: z.string().nullable(),
    sha256: z.string().nullable(),
    sanitized: z.boolean(),
    readCount: z.number(),
  })
  .meta({ id: "OutputRecord" });

export const putOutputQuery = z.object({
  session: sessionNameSchema,
  tool: z.string().min(1).max(256).describe("The tool's name, e.g. fs__read_file."),
  args: z
    .string()
    .max(1_000_000)
    .default("{}")
    .describe("The tool's arguments as JSON text, kept verbatim."),
  callId: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe("The model's tool call id, e.g. call_abc123."),
  binary: queryBoolean.optional().describe("Store as bytes (kind binary), e.g. an image."),
  mediaType: z
    .string()
    .max(128)
    .optional()
    .describe("Media type of binary content, e.g. image/png."),
  surface: z
    .enum(SURFACE_NAMES)
    .default("get_tool_output")
    .describe(
      "Whose handle message to answer with: get_tool_output, tool_output (compatibility texts, word for word) or get_continuation (fixed-size chunks with a continuation marker).",
    ),
  continuationChars: queryInt(1_000_000)
    .pipe(z.number().min(1))
    .default(4000)
    .describe("Characters shown before the continuation marker (get_continuation surface)."),
});

export const putOutputResponse = z.object({
  output: outputRecordSchema,
  handleMessage: z
    .string()
    .describe("What a model would be shown in place of the output (the surface's placeholder)."),
  continuation: z
    .object({ toolCallId: z.string(), shown: z.number(), total: z.number() })
    .optional()
    .describe("For the get_continuation surface: characters shown and total."),
});

export const outputGetQuery = z.object({
  wait: queryInt(60)
    .optional()
    .describe(
      "Seconds (at most 60) to wait while the output is still running; answers as soon as it is ready or failed, on whichever worker it ran.",
    ),
});

export const listQuery = z.object({
  limit: queryInt(1000).default(100),
  offset: queryInt().default(0),
});

export const outputListResponse = z.object({
  outputs: z.array(outputRecordSchema),
  limit: z.number(),
  offset: z.number(),
});

const SEARCH_RANKING = z
  .enum(SEARCH_RANKINGS)
  .optional()
  .describe(
    "search: bm25 (default), or coverage: lines holding the rarest words first, equal lines in the output's order.",
  );
const LATEST_FIRST = queryBoolean
  .optional()
  .describe("search: equal lines from the end of the output, the latest first.");

export const CONTENT_MODES = ["slice", "grep", "page", "json", "search"] as const;

export const contentQuery = z.object({
  mode: z.enum(CONTENT_MODES).describe("slice, grep, page, json or search."),
  // slice
  start: queryInt().optional().describe("slice: first character (UTF-16 code units)."),
  length: queryInt().optional().describe("slice: characters (default 4000)."),
  lineStart: queryInt().pipe(z.number().min(1)).optional().describe("slice: first line, 1-based."),
  lineEnd: queryInt().pipe(z.number().min(1)).optional().describe("slice: last line, inclusive."),
  anchor: z.string().min(1).max(65536).optional().describe("slice: literal text to center on."),
  window: queryInt().optional().describe("slice: characters each side of the anchor."),
  matchIndex: queryInt().optional().describe("slice: which occurrence of the anchor (0-based)."),
  // grep
  pattern: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("grep: text (or regex with regex=true)."),
  regex: queryBoolean.optional().describe("grep: pattern is a JavaScript regular expression."),
  ignoreCase: queryBoolean.optional(),
  context: queryInt(20).optional().describe("grep: lines of context each side (0-20)."),
  maxMatches: queryInt(1000)
    .optional()
    .describe(
      "grep: matches returned (default 50): each matching line once, each match apart on a line too long to show whole.",
    ),
  cursor: queryInt().optional().describe("grep/page: continue from a previous nextCursor."),
  record: queryBoolean
    .optional()
    .describe("grep: also return each match's record (records, and recordIndex on each match)."),
  // page
  maxChars: queryInt().optional().describe("page: character budget; slice: largest slice."),
  maxTokens: queryInt().optional().describe("page: token budget (exact count)."),
  // json
  query: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("json: a JSONPath query; search: the words to find."),
  outline: queryBoolean.optional().describe("json: the document's shape instead of values."),
  jsonOffset: queryInt()
    .optional()
    .describe("json: skip this many matches (a previous nextOffset)."),
  maxResults: queryInt(1000)
    .optional()
    .describe(
      "json: matches returned (default 50); search: lines returned (default 10, at most 100).",
    ),
  ranking: SEARCH_RANKING,
  latestFirst: LATEST_FIRST,
});

export const sessionSearchQuery = z.object({
  query: z.string().min(1).max(4096).describe("The words to find, in any language."),
  maxResults: queryInt(100).optional().describe("Lines returned, best first (default 10)."),
  ranking: SEARCH_RANKING,
  latestFirst: LATEST_FIRST,
});

/** A session-wide search: the best lines of all the session's outputs, each naming its output. */
export const sessionSearchResponse = z
  .object({ mode: z.literal("search"), matches: z.array(z.unknown()) })
  .catchall(z.unknown())
  .describe(
    "Ranked lines with provenance, the query's terms with their weights, the outputs searched and skipped.",
  );

/** The retrieval engine's answer, with provenance (offsets, lines, SHA-256). */
export const contentResponse = z
  .object({ mode: z.enum(CONTENT_MODES) })
  .catchall(z.unknown())
  .describe("The retrieval result of the mode asked for, with provenance.");

export const agentSettingsSchema = z
  .object({
    models: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    maxTurns: z.number().int().min(1).max(10_000).optional(),
    maxOutputTokens: z.number().int().min(1).optional(),
    toolResponseMaxBytes: z.number().int().min(1).optional(),
    toolTimeoutSecs: z.number().min(0).optional(),
    contextWindow: z
      .union([z.number().int().min(1), z.record(z.string(), z.number().int().min(1))])
      .optional(),
    stream: z.boolean().optional(),
    toolOutput: z
      .object({
        enabled: z.boolean().optional(),
        surface: z.enum(SURFACE_NAMES).optional(),
        continuationChars: z.number().int().min(1).optional(),
        synopsisLines: z.number().int().min(0).optional(),
      })
      .strict()
      .optional(),
    async: z.boolean().optional(),
    asyncTimeoutSecs: z.number().min(0).optional(),
    asyncTokenThreshold: z.number().int().min(1).optional(),
    asyncMaxRunning: z.number().int().min(1).optional(),
    asyncReadyMessage: z.enum(["handle", "ready-menu"]).optional(),
  })
  .strict()
  .describe(
    "Settings at the highest precedence (like CLI flags). MCP servers come from the agent file or config.",
  );

export const startSessionBody = z
  .object({
    agent: z
      .union([
        z.object({ path: z.string().min(1).max(4096) }).strict(),
        z
          .object({
            markdown: z.string().min(1).max(1_000_000),
            name: z
              .string()
              .regex(/^[A-Za-z0-9._-]{1,64}$/)
              .optional(),
          })
          .strict(),
      ])
      .describe(
        "`{path}`: an agent file under the server's agents directory; `{markdown}`: an agent file's text (frontmatter and prompt).",
      ),
    prompt: z.string().min(1).max(1_000_000).describe("The task."),
    settings: agentSettingsSchema.optional(),
  })
  .strict();

export const continueSessionBody = z
  .object({ prompt: z.string().min(1).max(1_000_000), settings: agentSettingsSchema.optional() })
  .strict();

export const sessionRecordSchema = z
  .object({
    id: z.string(),
    parentSessionId: z.string().nullable(),
    agentName: z.string(),
    prompt: z.string(),
    status: z.enum(["running", "completed", "failed", "aborted"]),
    finalReport: z.string().nullable(),
    error: z.string().nullable(),
    turns: z.number(),
    usage: z.unknown().describe("Tokens, cost and durations (per model in byModel)."),
    createdAt: z.number(),
    updatedAt: z.number(),
    live: z.boolean().describe("True while this server runs the session."),
  })
  .meta({ id: "Session" });

export const sessionListQuery = listQuery.extend({
  all: queryBoolean.optional().describe("Include sub-agent sessions."),
});

export const sessionListResponse = z.object({
  sessions: z.array(sessionRecordSchema),
  limit: z.number(),
  offset: z.number(),
});

export const sessionStartedResponse = z.object({
  session: sessionRecordSchema,
  events: z.string().describe("The session's SSE stream."),
});

export const continuationQuery = z.object({
  tool_call_id: z.string().min(1).max(256).describe("The tool_call_id from the truncation marker."),
  offset: queryInt()
    .optional()
    .describe("Character offset to read from (default: the surface's chunk size)."),
  chars: queryInt(1_000_000)
    .pipe(z.number().min(1))
    .default(4000)
    .describe("Characters per chunk."),
});

export const continuationResponse = z.object({
  text: z.string().describe("Exactly what get_continuation answers a model, marker included."),
  isError: z.boolean(),
  outputId: z.string().optional(),
  shown: z.number().optional().describe("Characters read so far (the next offset)."),
  total: z.number().optional(),
});

export const eventsQuery = z.object({
  lastEventId: z
    .string()
    .max(64)
    .optional()
    .describe("Resume after this event id (same as the Last-Event-ID header)."),
});

/**
 * Outputs as a service: store a tool result (streamed body), read its record, read it back by
 * retrieval mode with provenance, stream its bytes with Range, and list a session's outputs.
 * Another tenant's output answers 404 exactly like an unknown id.
 */
import { Hono } from "hono";
import { OutputNotFoundError } from "../core/errors.js";
import type { RetrievalRequest } from "../retrieval/read-output.js";
import type { OutputRecord } from "../store/output-store.js";
import { handleMessageOf } from "./handle-message.js";
import { clientAborted, limitedBody } from "./limits.js";
import { SETTLE_POLL_MS } from "./output-settlements.js";
import { HttpProblem } from "./problem.js";
import { rawResponse } from "./raw-response.js";
import { parseParams, parseQuery } from "./route-spec.js";
import {
  contentQuery,
  contentResponse,
  listQuery,
  outputGetQuery,
  outputIdParams,
  outputListResponse,
  outputRecordSchema,
  putOutputQuery,
  putOutputResponse,
  sessionIdParams,
} from "./schemas.js";
import type { ServerDeps, ServerEnv } from "./server-deps.js";
import type { TenantView } from "./tenancy.js";

/** The record as the tenant sees it (session ids without the tenant prefix). */
function publicRecord(view: TenantView, record: OutputRecord): OutputRecord {
  return { ...record, sessionId: view.publicId(record.sessionId) };
}

/** The record of an output the tenant may see; 404 (as for an unknown id) otherwise. */
export async function visibleRecord(
  deps: ServerDeps,
  view: TenantView,
  id: string,
): Promise<OutputRecord> {
  const record = await deps.stores.outputs.get(id, { allSessions: true });
  if (!(await view.sees(record.sessionId))) throw new OutputNotFoundError(id, false);
  return record;
}

type ContentQuery = ReturnType<typeof contentQuery.parse>;

const FIELDS_BY_MODE: Record<ContentQuery["mode"], readonly string[]> = {
  slice: ["start", "length", "lineStart", "lineEnd", "anchor", "window", "matchIndex", "maxChars"],
  grep: ["pattern", "regex", "ignoreCase", "context", "maxMatches", "cursor", "record"],
  page: ["cursor", "maxChars", "maxTokens"],
  json: ["query", "outline", "jsonOffset", "maxResults", "maxChars"],
  search: ["query", "maxResults", "ranking", "latestFirst"],
};

/** The retrieval request a content query asks for; fields of another mode are refused. */
export function retrievalRequestOf(query: ContentQuery, regexTimeoutMs: number): RetrievalRequest {
  const allowed = FIELDS_BY_MODE[query.mode];
  const stray = Object.keys(query).filter((key) => key !== "mode" && !allowed.includes(key));
  if (stray.length > 0) {
    throw new HttpProblem(
      400,
      "INVALID_ARGUMENT",
      `query.${stray[0]} does not apply to mode=${query.mode}; mode=${query.mode} takes ${allowed.join(", ")}.`,
      {
        fields: stray.map((field) => ({
          field: `query.${field}`,
          problem: `not a ${query.mode} field`,
        })),
      },
    );
  }
  const { mode, jsonOffset, ...given } = query;
  const rest = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  if (mode === "grep") {
    if (!given.pattern)
      throw new HttpProblem(400, "INVALID_ARGUMENT", "query.pattern is required for mode=grep.", {
        fields: [{ field: "query.pattern", problem: "required for grep" }],
      });
    return { mode, ...rest, pattern: given.pattern, timeoutMs: regexTimeoutMs };
  }
  if (mode === "search") {
    if (!given.query)
      throw new HttpProblem(400, "INVALID_ARGUMENT", "query.query is required for mode=search.", {
        fields: [{ field: "query.query", problem: "required for search: the words to find" }],
      });
    // Searches share the regex deadline: one request never holds the server longer.
    return { mode, ...rest, query: given.query, timeoutMs: regexTimeoutMs };
  }
  if (mode === "json")
    return { mode, ...rest, ...(jsonOffset !== undefined ? { offset: jsonOffset } : {}) };
  return { mode, ...rest } as RetrievalRequest;
}

/**
 * The outputs routes.
 *
 * @example
 * app.route("/", outputsRoutes(deps));
 */
export function outputsRoutes(deps: ServerDeps): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  const r = deps.registry;

  const put = r.add({
    method: "post",
    path: "/v1/outputs",
    tag: "outputs",
    summary: "Store a tool result",
    description:
      "Stores the request body whole (streamed; any size up to --max-output-bytes) as an output of the named session, with the tool's name, arguments and call id. Answers with the record and the handle message a model would be shown. Send a Content-Type other than a form or text/plain (e.g. application/octet-stream), or X-Spillway-Client: a web page of another site cannot.",
    query: putOutputQuery,
    body: {
      raw: "application/octet-stream",
      description: "The tool result: text (UTF-8) or bytes.",
    },
    responses: { 201: { description: "Stored.", schema: putOutputResponse } },
  });
  app.post(put.path, async (c) => {
    const query = parseQuery(c, put);
    const view = c.get("view");
    const sessionId = await view.storeId(query.session);
    const signal = c.req.raw.signal;
    const release = await deps.uploads.acquire(view.tenant.name, signal).catch((error: unknown) => {
      throw signal.aborted ? clientAborted() : error;
    });
    let record: OutputRecord;
    try {
      record = await deps.stores.outputs.put(
        {
          sessionId,
          toolName: query.tool,
          toolArgs: query.args,
          ...(query.callId ? { toolCallId: query.callId } : {}),
        },
        limitedBody(c, { maxBytes: deps.limits.maxOutputBytes, idleMs: deps.limits.bodyIdleMs }),
        {
          ...(query.binary ? { binary: true } : {}),
          ...(query.mediaType ? { mediaType: query.mediaType } : {}),
        },
      );
    } finally {
      release();
    }
    const message = await handleMessageOf(
      deps.stores.outputs,
      record,
      query.surface,
      query.continuationChars,
    );
    return c.json(
      {
        output: publicRecord(view, record),
        handleMessage: message.text,
        ...(message.continuation ? { continuation: message.continuation } : {}),
      },
      201,
      { location: `/v1/outputs/${record.id}` },
    );
  });

  const get = r.add({
    method: "get",
    path: "/v1/outputs/:id",
    tag: "outputs",
    summary: "An output's record",
    description:
      "With `wait`, a running output (a tool still working in the background) is waited for, up to that many seconds; the record says its status either way.",
    params: outputIdParams,
    query: outputGetQuery,
    responses: { 200: { description: "The record.", schema: outputRecordSchema } },
  });
  app.get(get.path, async (c) => {
    const { id } = parseParams(c, get);
    const { wait } = parseQuery(c, get);
    const view = c.get("view");
    let record = await visibleRecord(deps, view, id);
    const deadline = Date.now() + (wait ?? 0) * 1000;
    const signal = c.req.raw.signal;
    while (record.status === "running" && Date.now() < deadline && !signal.aborted) {
      const left = deadline - Date.now();
      await deps.settlements.waitFor(id, Math.min(left, SETTLE_POLL_MS), signal);
      record = await visibleRecord(deps, view, id);
    }
    return c.json(publicRecord(view, record));
  });

  const content = r.add({
    method: "get",
    path: "/v1/outputs/:id/content",
    tag: "outputs",
    summary: "Read an output: slice, grep, page, json or search",
    description:
      "The retrieval engine's answer, exact and with provenance (output id, SHA-256, character and byte offsets, lines). Each mode takes its own fields; a field of another mode is refused.",
    params: outputIdParams,
    query: contentQuery,
    responses: {
      200: { description: "The read.", schema: contentResponse },
      409: {
        description: "The output is still running (OUTPUT_NOT_READY) or failed (OUTPUT_FAILED).",
      },
    },
  });
  app.get(content.path, async (c) => {
    const { id } = parseParams(c, content);
    const request = retrievalRequestOf(parseQuery(c, content), deps.limits.regexTimeoutMs);
    const view = c.get("view");
    const result = await deps.reader.read(
      id,
      request,
      (record) => view.sees(record.sessionId),
      async (error) => {
        // Not openable (running, failed, unknown): say why only to whoever may see the output.
        await visibleRecord(deps, view, id);
        throw error;
      },
      // Costly reads wait in the tenant's lane and stop when the client goes away.
      { lane: view.tenant.name, signal: c.req.raw.signal },
    );
    return c.json(result);
  });

  const raw = r.add({
    method: "get",
    path: "/v1/outputs/:id/raw",
    tag: "outputs",
    summary: "The stored bytes (Range supported)",
    description:
      "Streams the output's stored bytes exactly (ETag: its SHA-256). Honours a single `Range: bytes=a-b` (206), answers 416 for a range past the end. Always inert in a browser: nosniff, `Content-Security-Policy: default-src 'none'; sandbox`, and `Content-Disposition: attachment` unless the type is text, application/json or a raster image.",
    params: outputIdParams,
    headers: { Range: "bytes=START-END, bytes=START- or bytes=-SUFFIX" },
    responses: {
      200: { description: "The whole output.", contentType: "application/octet-stream" },
      206: { description: "The requested range.", contentType: "application/octet-stream" },
      416: { description: "The range is outside the output." },
    },
  });
  app.get(raw.path, async (c) => {
    const { id } = parseParams(c, raw);
    const view = c.get("view");
    const record = await visibleRecord(deps, view, id);
    const opened = await deps.stores.outputs.open(id, { sessionId: record.sessionId });
    return rawResponse(opened, c.req.header("range"), c.req.method === "HEAD");
  });

  const list = r.add({
    method: "get",
    path: "/v1/sessions/:id/outputs",
    tag: "outputs",
    summary: "A session's outputs",
    description: "Newest first. A session you cannot see lists nothing, like an unknown one.",
    params: sessionIdParams,
    query: listQuery,
    responses: { 200: { description: "The records.", schema: outputListResponse } },
  });
  app.get(list.path, async (c) => {
    const { id } = parseParams(c, list);
    const { limit, offset } = parseQuery(c, list);
    const view = c.get("view");
    const sessionId = await view.storeId(id);
    const outputs = (await view.sees(sessionId))
      ? await deps.stores.outputs.list({ sessionId, limit, offset })
      : [];
    return c.json({ outputs: outputs.map((o) => publicRecord(view, o)), limit, offset });
  });

  return app;
}

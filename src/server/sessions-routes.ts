/**
 * Agent sessions over HTTP: start, continue, stop gracefully, abort, list, and the canonical
 * history of one (every call with its result as the model saw it and the output record); the
 * continuation surface's get_continuation read over HTTP, answering exactly what a model is
 * answered.
 */
import { Hono } from "hono";
import type { CliSettings } from "../config/index.js";
import { isSpillwayError, SpillwayError } from "../core/errors.js";
import type { SessionRecord } from "../store/history.js";
import { resolveAgent } from "./agent-source.js";
import { sessionHistory, sessionJson } from "./history-view.js";
import { limitedText } from "./limits.js";
import { parseJsonBody, parseParams, parseQuery } from "./route-spec.js";
import {
  continuationQuery,
  continuationResponse,
  continueSessionBody,
  sessionIdParams,
  sessionListQuery,
  sessionListResponse,
  sessionRecordSchema,
  sessionStartedResponse,
  startSessionBody,
} from "./schemas.js";
import type { ServerDeps, ServerEnv } from "./server-deps.js";
import type { TenantView } from "./tenancy.js";

function sessionNotFound(id: string): SpillwayError {
  return new SpillwayError(
    "SESSION_NOT_FOUND",
    `No session "${id}" is visible here; GET /v1/sessions lists yours.`,
    {
      sessionId: id,
    },
  );
}

/** The session record when the tenant may see it; SESSION_NOT_FOUND (404) otherwise, alike. */
export async function visibleSession(
  deps: ServerDeps,
  view: TenantView,
  id: string,
): Promise<SessionRecord> {
  const storeId = await view.storeId(id);
  if (!(await view.sees(storeId))) throw sessionNotFound(id);
  try {
    return await deps.stores.history.getSession(storeId);
  } catch (error) {
    if (isSpillwayError(error, "SESSION_NOT_FOUND")) throw sessionNotFound(id);
    throw error;
  }
}

/**
 * The sessions routes.
 *
 * @example
 * app.route("/", sessionsRoutes(deps));
 */
export function sessionsRoutes(deps: ServerDeps): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  const r = deps.registry;
  const json = (c: Parameters<typeof limitedText>[0]) =>
    limitedText(c, deps.limits.maxJsonBytes, deps.limits.bodyIdleMs);

  const start = r.add({
    method: "post",
    path: "/v1/sessions",
    tag: "sessions",
    summary: "Start an agent session",
    description:
      "Runs an agent (a file under the server's agents directory, or inline Markdown with frontmatter) on a prompt. Answers once the session runs (201); follow it at its events URL.",
    body: { json: startSessionBody },
    responses: {
      201: { description: "Started.", schema: sessionStartedResponse },
      429: { description: "Too many running sessions for this tenant." },
    },
  });
  app.post(start.path, async (c) => {
    const body = await parseJsonBody(c, start, json);
    const view = c.get("view");
    const agent = await resolveAgent(deps.agents, body.agent);
    const run = await deps.live.start(view.tenant.name, {
      agent,
      prompt: body.prompt,
      ...(body.settings ? { settings: body.settings as CliSettings } : {}),
    });
    const session = await deps.stores.history.getSession(run.sessionId);
    return c.json(
      { session: sessionJson(session, true), events: `/v1/sessions/${run.sessionId}/events` },
      201,
      { location: `/v1/sessions/${run.sessionId}` },
    );
  });

  const list = r.add({
    method: "get",
    path: "/v1/sessions",
    tag: "sessions",
    summary: "List sessions",
    description: "Newest first; top-level sessions unless all=true.",
    query: sessionListQuery,
    responses: { 200: { description: "Sessions.", schema: sessionListResponse } },
  });
  app.get(list.path, async (c) => {
    const { limit, offset, all } = parseQuery(c, list);
    const view = c.get("view");
    let sessions: SessionRecord[];
    if (view.tenant.seesAll) {
      sessions = await deps.stores.history.listSessions({
        limit,
        offset,
        ...(all ? {} : { parentSessionId: null }),
      });
    } else {
      sessions = [];
      for (const id of await deps.owners.sessionsOf(view.tenant.name)) {
        try {
          const session = await deps.stores.history.getSession(id);
          if (all || session.parentSessionId === null) sessions.push(session);
        } catch (error) {
          if (!isSpillwayError(error, "SESSION_NOT_FOUND")) throw error;
        }
      }
      sessions.sort((a, b) => b.createdAt - a.createdAt);
      sessions = sessions.slice(offset, offset + limit);
    }
    return c.json({
      sessions: sessions.map((s) => sessionJson(s, deps.live.isLive(s.id))),
      limit,
      offset,
    });
  });

  const show = r.add({
    method: "get",
    path: "/v1/sessions/:id",
    tag: "sessions",
    summary: "A session's canonical history",
    description:
      "Every message in order; every tool call paired with its result: the result as the model saw it (shownText) and the output record (whole size, SHA-256); context use per turn; sub-agents; background tools.",
    params: sessionIdParams,
    responses: { 200: { description: "The history.", schema: sessionRecordSchema.passthrough() } },
  });
  app.get(show.path, async (c) => {
    const { id } = parseParams(c, show);
    const view = c.get("view");
    const session = await visibleSession(deps, view, id);
    return c.json(
      await sessionHistory(deps.stores, session, deps.live.isLive(session.id), (s) =>
        view.publicId(s),
      ),
    );
  });

  const message = r.add({
    method: "post",
    path: "/v1/sessions/:id/messages",
    tag: "sessions",
    summary: "Continue a session",
    description:
      "Appends a user message and runs the session again from its canonical history. 409 while it is still running.",
    params: sessionIdParams,
    body: { json: continueSessionBody },
    responses: {
      202: { description: "Running again.", schema: sessionStartedResponse },
      409: { description: "The session is still running (SESSION_BUSY)." },
    },
  });
  app.post(message.path, async (c) => {
    const { id } = parseParams(c, message);
    const body = await parseJsonBody(c, message, json);
    const view = c.get("view");
    const session = await visibleSession(deps, view, id);
    await deps.live.start(view.tenant.name, {
      resume: session.id,
      prompt: body.prompt,
      ...(body.settings ? { settings: body.settings as CliSettings } : {}),
    });
    const now = await deps.stores.history.getSession(session.id);
    return c.json(
      { session: sessionJson(now, true), events: `/v1/sessions/${session.id}/events` },
      202,
    );
  });

  for (const [verb, summary, description] of [
    [
      "stop",
      "Stop gracefully",
      "The next turn is the final one: the model wraps up with what it has.",
    ],
    [
      "abort",
      "Abort",
      "Cancels the model call and every running tool now; the session is recorded as aborted.",
    ],
  ] as const) {
    const spec = r.add({
      method: "post",
      path: `/v1/sessions/:id/${verb}`,
      tag: "sessions",
      summary,
      description: `${description} 409 when the session is not running on this server.`,
      params: sessionIdParams,
      responses: {
        202: { description: "Requested.", schema: sessionRecordSchema },
        409: { description: "Not running (SESSION_NOT_RUNNING)." },
      },
    });
    app.post(spec.path, async (c) => {
      const { id } = parseParams(c, spec);
      const session = await visibleSession(deps, c.get("view"), id);
      if (verb === "stop") deps.live.stop(session.id);
      else deps.live.abort(session.id);
      return c.json(sessionJson(session, true), 202);
    });
  }

  const continuation = r.add({
    method: "get",
    path: "/v1/sessions/:id/continuation",
    tag: "sessions",
    summary: "The next chunk of a truncated result (get_continuation)",
    description:
      "Answers exactly what the get_continuation tool answers a model: the next characters of the result of tool_call_id from offset, ending with the truncation marker while more remains.",
    params: sessionIdParams,
    query: continuationQuery,
    responses: { 200: { description: "The chunk.", schema: continuationResponse } },
  });
  app.get(continuation.path, async (c) => {
    const { id } = parseParams(c, continuation);
    const query = parseQuery(c, continuation);
    const view = c.get("view");
    const sessionId = await view.storeId(id);
    if (!(await view.sees(sessionId))) throw sessionNotFound(id);
    const { continuationMarker, createSurface } = await import("../surfaces/index.js");
    const surface = createSurface("get_continuation", {
      synopsisLines: 5,
      continuationChars: query.chars,
    });
    const answer = await surface.execute(
      "get_continuation",
      {
        tool_call_id: query.tool_call_id,
        ...(query.offset !== undefined ? { offset: query.offset } : {}),
      },
      {
        outputs: deps.stores.outputs,
        scope: { sessionId },
        maxChars: query.chars,
        tokenizer: "o200k_base",
        outputOfToolCall: async (toolCallId) => {
          const calls = await deps.stores.history.toolCalls(sessionId);
          const call = calls.find((x) => x.toolCallId === toolCallId);
          if (call?.outputId) return call.outputId;
          for (let offset = 0; ; offset += 1000) {
            const page = await deps.stores.outputs.list({ sessionId, limit: 1000, offset });
            const hit = page.find((o) => o.toolCallId === toolCallId);
            if (hit) return hit.id;
            if (page.length < 1000) return undefined;
          }
        },
      },
    );
    const text = answer.continuation
      ? `${answer.text}\n${continuationMarker(answer.continuation.toolCallId, answer.continuation.shown, answer.continuation.total, false)}`
      : answer.text;
    return c.json({
      text,
      isError: answer.isError,
      ...(answer.outputId ? { outputId: answer.outputId } : {}),
      ...(answer.continuation
        ? { shown: answer.continuation.shown, total: answer.continuation.total }
        : {}),
    });
  });

  return app;
}

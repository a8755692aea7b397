/**
 * `GET /v1/sessions/:id/events`: a session's events over SSE. Resumes after `Last-Event-ID`
 * (header, or the `lastEventId` query for clients that cannot set headers), sends heartbeat
 * comments while idle, and copes with slow consumers (see event-hub.ts). A session that ended
 * before this server run answers one `snapshot` event with its status, then closes.
 */
import { Hono } from "hono";
import { HttpProblem } from "./problem.js";
import { parseParams, parseQuery } from "./route-spec.js";
import { eventsQuery, sessionIdParams } from "./schemas.js";
import type { ServerDeps, ServerEnv } from "./server-deps.js";
import { visibleSession } from "./sessions-routes.js";
import { sseStream } from "./sse-stream.js";

/** SSE event types, for the document. */
const EVENT_TYPES =
  "session.start, turn, model.call, context (window use and thresholds), tool.start, tool.end (result preview: preview=true, outputId, totalBytes, bytesShown), background (running/ready/failed/aborted), extraction, compaction, status, warning, final (the report), reset (fell behind the window), snapshot (ended before this server run)";

/**
 * The events route.
 *
 * @example
 * app.route("/", eventsRoutes(deps));
 */
export function eventsRoutes(deps: ServerDeps): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  const spec = deps.registry.add({
    method: "get",
    path: "/v1/sessions/:id/events",
    tag: "events",
    summary: "Follow a session (SSE)",
    description: `Server-sent events: ${EVENT_TYPES}. Each event has an id; reconnect with Last-Event-ID to resume.`,
    params: sessionIdParams,
    query: eventsQuery,
    headers: { "Last-Event-ID": "Resume after this event id." },
    responses: { 200: { description: "An event stream.", contentType: "text/event-stream" } },
  });
  app.get(spec.path, async (c) => {
    const { id } = parseParams(c, spec);
    const query = parseQuery(c, spec);
    const view = c.get("view");
    const session = await visibleSession(deps, view, id);
    const after = c.req.header("last-event-id") ?? query.lastEventId ?? null;
    if (after !== null && !/^[0-9a-z]+-\d+$/.test(after))
      throw new HttpProblem(
        400,
        "INVALID_ARGUMENT",
        `Last-Event-ID ${JSON.stringify(after)} is not an event id (they look like "lq3k9x-12").`,
        {
          field: "header.last-event-id",
        },
      );
    const stream = sseStream({
      feed: deps.feed,
      sessionId: session.id,
      after,
      heartbeatMs: deps.heartbeatMs,
      snapshot: async () => {
        if (deps.live.isLive(session.id) || deps.feed.knows(session.id)) return null;
        const now = await deps.stores.history.getSession(session.id);
        if (now.status === "running") return null; // run elsewhere: wait for its events
        return {
          type: "snapshot",
          sessionId: id,
          status: now.status,
          turns: now.turns,
          report: now.finalReport,
          error: now.error,
          history: `/v1/sessions/${id}`,
        };
      },
    });
    return new Response(stream, {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      },
    });
  });
  return app;
}

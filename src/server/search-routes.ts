/**
 * Search without an id: `GET /v1/sessions/:id/search?query=…` ranks the lines of every output
 * of a session together (src/retrieval/search-session.ts). A session the caller may not see
 * answers exactly as one without outputs, like the session's output list.
 */
import { Hono } from "hono";
import { searchRecords, sessionOutputs } from "../retrieval/search-session.js";
import { parseParams, parseQuery } from "./route-spec.js";
import { sessionIdParams, sessionSearchQuery, sessionSearchResponse } from "./schemas.js";
import type { ServerDeps, ServerEnv } from "./server-deps.js";

/**
 * The session search route.
 *
 * @example
 * app.route("/", searchRoutes(deps));
 */
export function searchRoutes(deps: ServerDeps): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  const search = deps.registry.add({
    method: "get",
    path: "/v1/sessions/:id/search",
    tag: "outputs",
    summary: "Search every output of a session by words",
    description:
      "The lines of all the session's outputs that best match the query's words (any language; case, width and separators do not matter), ranked together (BM25, or `ranking=coverage`: the rarest words held first, equal lines in order), each with its output id, line number and provenance. Outputs still running, failed or binary are listed as skipped. A session you cannot see answers like one without outputs.",
    params: sessionIdParams,
    query: sessionSearchQuery,
    responses: { 200: { description: "The ranked lines.", schema: sessionSearchResponse } },
  });
  app.get(search.path, async (c) => {
    const { id } = parseParams(c, search);
    const { query, maxResults, ranking, latestFirst } = parseQuery(c, search);
    const view = c.get("view");
    const sessionId = await view.storeId(id);
    const records = (await view.sees(sessionId))
      ? await sessionOutputs(deps.stores.outputs, sessionId)
      : [];
    const result = await searchRecords(
      deps.stores.outputs,
      sessionId,
      records,
      { sessionId },
      {
        query,
        ...(maxResults !== undefined ? { maxResults } : {}),
        ...(ranking !== undefined ? { ranking } : {}),
        ...(latestFirst !== undefined ? { latestFirst } : {}),
        timeoutMs: deps.limits.regexTimeoutMs,
      },
    );
    return c.json({ ...result, sessionId: view.publicId(sessionId) });
  });
  return app;
}

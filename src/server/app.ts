/**
 * The HTTP app: middleware (errors, host check, CORS, auth, rate limit) around the resource
 * routes (outputs, sessions, events), the OpenAPI document and the web inspector.
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { TokenTable } from "./auth.js";
import { eventsRoutes } from "./events-routes.js";
import type { RateLimiter } from "./limits.js";
import { openApiDocument } from "./openapi.js";
import { outputsRoutes } from "./outputs-routes.js";
import { errorResponseOf, HttpProblem } from "./problem.js";
import { searchRoutes } from "./search-routes.js";
import type { ServerDeps, ServerEnv } from "./server-deps.js";
import { sessionsRoutes } from "./sessions-routes.js";
import { type SessionOwners, TenantView } from "./tenancy.js";

export interface AppOptions {
  readonly deps: ServerDeps;
  readonly tokens: TokenTable;
  readonly owners: SessionOwners;
  readonly limiter: RateLimiter;
  /** Origins allowed by CORS; empty: CORS off (no Access-Control headers at all). */
  readonly corsOrigins: readonly string[];
  /** Host header values accepted without a token (loopback names), or null to accept any. */
  readonly allowedHosts: () => ReadonlySet<string> | null;
  readonly version: string;
  readonly assets: (path: string) => Promise<Response>;
  /** Receives errors that answered 500 (the body stays generic). */
  readonly onInternalError: (error: unknown) => void;
}

/**
 * Builds the app. `app.fetch` is a standard fetch handler.
 *
 * @example
 * const app = createApp(options);
 * const res = await app.request("/v1/sessions");
 */
export function createApp(options: AppOptions): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.onError((error, c) => {
    const { status, body, headers } = errorResponseOf(error);
    if (status >= 500) options.onInternalError(error);
    return c.json(body, status, headers);
  });
  app.notFound((c) => {
    if (c.req.path.startsWith("/v1/") || c.req.method !== "GET")
      return c.json(
        {
          code: "NOT_FOUND",
          message: `No route ${c.req.method} ${c.req.path}; the routes are listed at /openapi.json.`,
          details: { path: c.req.path },
        },
        404,
      );
    return options.assets(c.req.path);
  });

  // Without a token only this machine may call: refuse other Host names (DNS rebinding).
  app.use("*", async (c, next) => {
    const hosts = options.allowedHosts();
    if (hosts) {
      const host = (c.req.header("host") ?? "").toLowerCase();
      if (!hosts.has(host))
        throw new HttpProblem(
          403,
          "FORBIDDEN",
          `Host ${JSON.stringify(host)} is not this loopback server; without a token it answers only to ${[...hosts].join(", ")}.`,
          { field: "header.host" },
        );
    }
    await next();
  });
  if (options.corsOrigins.length > 0)
    app.use(
      "/v1/*",
      cors({
        origin: [...options.corsOrigins],
        allowHeaders: ["authorization", "content-type", "last-event-id", "range"],
        exposeHeaders: ["content-range", "etag", "x-spillway-sha256", "location"],
      }),
    );

  app.use("/v1/*", async (c, next) => {
    const tenant = options.tokens.tenantOf(c.req.header("authorization"));
    options.limiter.take(tenant.name);
    c.set("view", new TenantView(tenant, options.owners));
    await next();
  });

  const { deps } = options;
  deps.registry.add({
    method: "get",
    path: "/health",
    tag: "server",
    summary: "Health",
    auth: false,
    responses: { 200: { description: "The server answers." } },
  });
  app.get("/health", (c) => c.json({ ok: true, version: options.version }));
  deps.registry.add({
    method: "get",
    path: "/openapi.json",
    tag: "server",
    summary: "This document",
    auth: false,
    responses: { 200: { description: "OpenAPI 3.1." } },
  });
  app.route("/", outputsRoutes(deps));
  app.route("/", searchRoutes(deps));
  app.route("/", sessionsRoutes(deps));
  app.route("/", eventsRoutes(deps));
  const document = openApiDocument(deps.registry, options.version);
  app.get("/openapi.json", (c) => c.json(document));
  return app;
}

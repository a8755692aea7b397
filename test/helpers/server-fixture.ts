import { type RunningServer, type ServeOptions, startServer } from "../../src/server/serve.js";
import type { Responder } from "../../src/testing/index.js";
import { type AgentFixture, agentFixture } from "./agent-fixture.js";
import { onCleanup } from "./temp-store.js";

export interface ServerFixture extends AgentFixture {
  readonly server: AgentFixture["server"];
  readonly http: RunningServer;
  /** fetch against the server, JSON helpers. */
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/**
 * A scripted model server, stores, and `spillway serve` on a free loopback port over them,
 * with agent paths resolving in the fixture directory. Closed after the test.
 */
export async function serverFixture(
  respond: Responder,
  options: Partial<ServeOptions> = {},
): Promise<ServerFixture> {
  const fixture = await agentFixture(respond);
  const http = await startServer({
    port: 0,
    stores: fixture.stores,
    agentsDir: fixture.dir,
    cwd: fixture.dir,
    heartbeatMs: 500,
    log: () => {},
    ...options,
  });
  onCleanup(() => http.close());
  return {
    ...fixture,
    http,
    get: (path, headers = {}) => fetch(`${http.url}${path}`, { headers }),
    post: (path, body, headers = {}) =>
      fetch(`${http.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
  };
}

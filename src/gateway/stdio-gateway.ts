/**
 * The gateway over stdio: one client, one process, one spillway session (resumable with
 * `--session <id>`). Diagnostics go to stderr; stdout is the protocol.
 */
import type { Readable, Writable } from "node:stream";
import { systemClock } from "../core/clock.js";
import { randomId } from "../core/ids.js";
import { GatewaySession, type GatewaySessionOptions } from "./gateway-session.js";
import { GatewayStdioServerTransport } from "./stdio-server-transport.js";

/** Options of {@link serveStdio}; ids, clock and log have defaults. */
export type StdioGatewayOptions = Omit<GatewaySessionOptions, "ids" | "clock" | "log"> &
  Partial<Pick<GatewaySessionOptions, "ids" | "clock" | "log">> & {
    readonly input?: Readable;
    readonly output?: Writable;
    /** Aborting ends the session gracefully (SIGTERM, Ctrl-C). */
    readonly signal?: AbortSignal;
  };

/**
 * Serves one client on stdin/stdout until it disconnects; resolves with the session id (or
 * null when the client never initialized). The session is recorded `completed`.
 *
 * @example
 * const settings = resolveGatewaySettings({ command: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"] }, undefined);
 * const stores = await openSqliteStores();
 * await serveStdio({ settings, stores, description: "spillway mcp (stdio)", serverInfo: { name: "spillway", version: "0.1.0" } });
 */
export async function serveStdio(options: StdioGatewayOptions): Promise<string | null> {
  const log = options.log ?? ((line: string) => process.stderr.write(`spillway mcp: ${line}\n`));
  const session = new GatewaySession({
    ...options,
    ids: options.ids ?? randomId,
    clock: options.clock ?? systemClock,
    log,
  });
  const transport = new GatewayStdioServerTransport(options.input, options.output);
  const closed = new Promise<void>((resolve) => {
    session.server.onclose = () => resolve();
  });
  await session.server.connect(transport);
  const stop = () => {
    transport.close().catch((error: unknown) => log(`closing stdio: ${String(error)}`));
  };
  options.signal?.addEventListener("abort", stop, { once: true });
  await closed;
  options.signal?.removeEventListener("abort", stop);
  await session.close("completed");
  return session.sessionId ?? null;
}

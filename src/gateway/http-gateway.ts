/**
 * The gateway over Streamable HTTP: `POST/GET/DELETE /mcp`, the official SDK transport, one
 * spillway session (and one set of server connections) per MCP session. Bound to a loopback
 * address it accepts only loopback Host and Origin headers (DNS rebinding protection).
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { systemClock } from "../core/clock.js";
import { randomId } from "../core/ids.js";
import { GatewaySession, type GatewaySessionOptions } from "./gateway-session.js";
import { MemoryEventStore } from "./memory-event-store.js";

/** The largest request body accepted (the SDK's default is 4 MiB). */
export const MAX_REQUEST_BODY_BYTES = 512 * 1024 * 1024;

/** Options of {@link startHttpGateway}. */
export type HttpGatewayOptions = Omit<GatewaySessionOptions, "ids" | "clock" | "log" | "resume"> &
  Partial<Pick<GatewaySessionOptions, "ids" | "clock" | "log">> & {
    /** Default 127.0.0.1. */
    readonly host?: string;
    /** 0 picks a free port. */
    readonly port: number;
    /** Sessions without a request or an open stream for this long are closed. Default 1 hour. */
    readonly idleMs?: number;
  };

/** A running HTTP gateway. */
export interface HttpGateway {
  /** `http://host:port/mcp`. */
  readonly url: string;
  /** spillway session ids by MCP session id, for the sessions open now. */
  sessions(): Map<string, string | undefined>;
  /** Closes every session (recorded completed) and the server. */
  close(): Promise<void>;
}

type Entry = {
  transport: StreamableHTTPServerTransport;
  session: GatewaySession;
  lastSeen: number;
  streams: number;
};

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith("127.");
}

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Reads a body up to `max` bytes; undefined when it is larger. */
async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) =>
      typeof m === "object" && m !== null && (m as { method?: unknown }).method === "initialize",
  );
}

/**
 * Starts the gateway on `host:port` and resolves once it listens.
 *
 * @example
 * const gateway = await startHttpGateway({ settings, stores, port: 8080, description: "spillway mcp --http 8080", serverInfo });
 * console.log(gateway.url); // http://127.0.0.1:8080/mcp
 */
export async function startHttpGateway(options: HttpGatewayOptions): Promise<HttpGateway> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? ((line: string) => process.stderr.write(`spillway mcp: ${line}\n`));
  const clock = options.clock ?? systemClock;
  const entries = new Map<string, Entry>();
  const protect = isLoopback(host);

  const rejectedHost = (req: IncomingMessage): string | undefined => {
    if (!protect) return undefined;
    const hostHeader = hostnameOf(req.headers.host ?? "");
    if (!hostHeader || !isLoopback(hostHeader)) return `Host ${JSON.stringify(req.headers.host)}`;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== "null") {
      const name = hostnameOf(origin);
      if (!name || !isLoopback(name)) return `Origin ${JSON.stringify(origin)}`;
    }
    return undefined;
  };

  const newEntry = (): Entry => {
    const session = new GatewaySession({ ...options, ids: options.ids ?? randomId, clock, log });
    const closeSession = () => {
      session.close("completed").catch((error: unknown) => {
        log(`session ${session.sessionId ?? "?"} did not close cleanly: ${String(error)}`);
      });
    };
    const entry: Entry = {
      session,
      lastSeen: clock(),
      streams: 0,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new MemoryEventStore(),
        retryInterval: 1_000,
        maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
        onsessioninitialized: (id) => {
          entries.set(id, entry);
        },
        onsessionclosed: (id) => {
          entries.delete(id);
          closeSession();
        },
      }),
    };
    entry.transport.onclose = () => {
      const id = entry.transport.sessionId;
      if (id) entries.delete(id);
      closeSession();
    };
    return entry;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") {
      jsonRpcError(res, 404, -32601, `Not found: the MCP endpoint is /mcp, not ${path}`);
      return;
    }
    const rejected = rejectedHost(req);
    if (rejected) {
      jsonRpcError(
        res,
        403,
        -32000,
        `Forbidden: ${rejected} is not a loopback address (DNS rebinding protection)`,
      );
      return;
    }
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? entries.get(sessionId) : undefined;
    let body: unknown;
    if (req.method === "POST") {
      const text = await readBody(req, MAX_REQUEST_BODY_BYTES);
      if (text === undefined) {
        jsonRpcError(res, 413, -32000, `Payload Too Large: over ${MAX_REQUEST_BODY_BYTES} bytes`);
        return;
      }
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        jsonRpcError(res, 400, -32700, "Parse error: the request body is not JSON");
        return;
      }
    }
    let entry = existing;
    if (!entry) {
      if (typeof sessionId === "string") {
        jsonRpcError(
          res,
          404,
          -32001,
          `Session not found: ${sessionId} (it ended or never existed); initialize a new one`,
        );
        return;
      }
      if (req.method !== "POST" || !isInitialize(body)) {
        jsonRpcError(
          res,
          400,
          -32000,
          "Bad Request: no Mcp-Session-Id header; send initialize first",
        );
        return;
      }
      entry = newEntry();
      await entry.session.server.connect(entry.transport);
    }
    entry.lastSeen = clock();
    if (req.method === "GET") {
      entry.streams++;
      const current = entry;
      res.once("close", () => {
        current.streams--;
        current.lastSeen = clock();
      });
    }
    await entry.transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${String(error)}`);
      jsonRpcError(
        res,
        500,
        -32603,
        `Internal error: ${(error as Error).message ?? String(error)}`,
      );
    });
  });
  http.listen(options.port, host);
  await once(http, "listening");
  const address = http.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;

  const idleMs = options.idleMs ?? 60 * 60 * 1000;
  const sweep = setInterval(
    () => {
      const now = clock();
      for (const [id, entry] of entries) {
        if (entry.streams > 0 || now - entry.lastSeen < idleMs) continue;
        log(
          `session ${entry.session.sessionId ?? id} idle for ${Math.round((now - entry.lastSeen) / 1000)} s: closed`,
        );
        entries.delete(id);
        entry.transport
          .close()
          .catch((error: unknown) => log(`closing session ${id}: ${String(error)}`));
      }
    },
    Math.min(60_000, idleMs),
  );
  sweep.unref();

  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    sessions: () => new Map([...entries].map(([id, entry]) => [id, entry.session.sessionId])),
    close: async () => {
      clearInterval(sweep);
      const open = [...entries.values()];
      entries.clear();
      await Promise.all(
        open.map(async (entry) => {
          await entry.transport.close().catch(() => {});
          await entry.session.close("completed");
        }),
      );
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/**
 * `spillway serve` as a library call: opens the stores, builds the app and listens. Bound to
 * loopback it may run without a token; bound to any other address it refuses to start
 * without one.
 */
import { readFileSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serve as listen, type ServerType } from "@hono/node-server";
import type { Hono } from "hono";
import type { RunAgentOptions } from "../agent/run-agent.js";
import { type Clock, systemClock } from "../core/clock.js";
import { SpillwayError } from "../core/errors.js";
import { openStores } from "../store/open-stores.js";
import type { SpillwayStores } from "../store/stores.js";
import { createApp } from "./app.js";
import { TokenTable } from "./auth.js";
import { EventHub, type SessionEventFeed } from "./event-hub.js";
import { RelayedEventFeed } from "./event-relay.js";
import { inspectorAssets } from "./inspector-assets.js";
import { DEFAULT_BODY_IDLE_MS, RateLimiter } from "./limits.js";
import { LiveSessions } from "./live-sessions.js";
import { OutputReader } from "./output-reader.js";
import { OutputSettlements, reportingSettlements } from "./output-settlements.js";
import { ApiRegistry } from "./route-spec.js";
import type { ServerDeps, ServerEnv } from "./server-deps.js";
import { DEFAULT_LEASE_TTL_MS, LeaseKeeper } from "./session-lease.js";
import { localSessionRunner, type SessionRunner } from "./session-runner.js";
import { startTakeover } from "./takeover.js";
import { FileSessionOwners, type SessionOwners } from "./tenancy.js";
import { DEFAULT_MAX_UPLOADS, UploadSlots } from "./upload-slots.js";

/** The port `spillway serve` listens on without `--port`. */
export const DEFAULT_PORT = 7411;
/** The address `spillway serve` binds without `--host`: this machine only. */
export const DEFAULT_HOST = "127.0.0.1";

export interface ServeOptions {
  /** Address to bind (default 127.0.0.1). Anything but loopback needs a token. */
  readonly host?: string;
  /** Port (default 7411; 0 picks a free one). */
  readonly port?: number;
  /** Store directory (default $SPILLWAY_HOME or ~/.spillway). Ignored when `stores` is given. */
  readonly home?: string;
  /** A PostgreSQL URL: outputs and sessions in that database (several workers may share it). */
  readonly store?: string;
  readonly stores?: SpillwayStores;
  /** One bearer token (the store's owner). */
  readonly token?: string;
  /** A JSON file of tenants and their tokens: each tenant sees only its own sessions. */
  readonly tokensFile?: string;
  /** Agent paths resolve here and may not leave it (default: cwd). */
  readonly agentsDir?: string;
  /** Config lookup and relative paths of runs (default: process.cwd()). */
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Inline agents may declare MCP server commands (default false). */
  readonly allowInlineCommands?: boolean;
  /** Origins allowed by CORS (default none: CORS off). */
  readonly corsOrigins?: readonly string[];
  /** Largest output body, bytes (default: the store's limit). */
  readonly maxOutputBytes?: number;
  /** Largest JSON body, bytes (default 1 MiB). */
  readonly maxJsonBytes?: number;
  /** Requests a second per tenant, bursts of twice that (default 0: off). */
  readonly rateLimit?: number;
  /** Concurrent running sessions per tenant (default 4). */
  readonly maxRunningSessions?: number;
  /**
   * How long a session's lease outlives this worker's last renewal (default 30 s): on a shared
   * store, another worker continues a session this long after this one died (it looks every
   * half lease time).
   */
  readonly leaseTtlMs?: number;
  /** Idle time before an SSE heartbeat, ms (default 15000). */
  readonly heartbeatMs?: number;
  /** Characters of a tool result previewed on SSE (default 2000). */
  readonly previewChars?: number;
  /** Events each session's SSE window keeps (default 4096) and their bytes (default 8 MiB). */
  readonly eventWindow?: { readonly maxEvents?: number; readonly maxBytes?: number };
  /** Regular-expression deadline for grep reads, ms (default 5000, as in the CLI). */
  readonly regexTimeoutMs?: number;
  /** Uploads (`POST /v1/outputs`) a tenant may have in progress at once (default 8); more wait, then 429. */
  readonly maxUploads?: number;
  /** A request body that sends nothing for this long is dropped with 408, ms (default 30000). */
  readonly bodyIdleMs?: number;
  /** The built inspector (default: dist/inspector beside this module). */
  readonly inspectorDir?: string;
  /** Replace how sessions run (e.g. wrap the local runner in a lease). */
  readonly runner?: SessionRunner;
  /** Replace the event fan-out (e.g. one fed by a cross-worker channel). */
  readonly feed?: SessionEventFeed;
  readonly owners?: SessionOwners;
  /** Extra runAgent options for the local runner (tests: a scripted model call). */
  readonly runOptions?: Partial<RunAgentOptions>;
  readonly clock?: Clock;
  /** Log lines (errors that answered 500); default stderr. */
  readonly log?: (line: string) => void;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:7411` */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly app: Hono<ServerEnv>;
  readonly deps: ServerDeps;
  /** Stops running sessions (gracefully, then aborts), closes connections and the stores it opened. */
  close(): Promise<void>;
  /**
   * Reads the tokens file again (`spillway serve` does on SIGHUP): added tokens work and
   * removed ones are refused from the next request on. An unreadable or invalid file changes
   * nothing and rejects with CONFIG_INVALID; without a tokens file it rejects too.
   */
  reloadTokens(): Promise<{ readonly tenants: number }>;
}

/** True for loopback addresses and `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

function packageVersion(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === "string" ? version : "0.0.0";
  } catch {
    return "0.0.0";
  }
}

async function tokenTable(options: ServeOptions): Promise<TokenTable> {
  if (options.token !== undefined && options.tokensFile !== undefined)
    throw new SpillwayError("CONFIG_INVALID", "Give --token or --tokens-file, not both.", {
      option: "--token",
    });
  if (options.tokensFile !== undefined) return TokenTable.fromFile(options.tokensFile);
  if (options.token !== undefined) return TokenTable.single(options.token);
  return TokenTable.none();
}

function loopbackHosts(port: number): Set<string> {
  return new Set(["127.0.0.1", "localhost", "[::1]"].flatMap((h) => [h, `${h}:${port}`]));
}

/** The hub, relayed to the other workers when the store is shared (PostgreSQL). */
async function eventFeed(
  stores: SpillwayStores,
  options: ServeOptions,
  onError: (error: unknown) => void,
): Promise<SessionEventFeed> {
  const hub = new EventHub(options.eventWindow ?? {});
  if (!stores.channel) return hub;
  const relayed = new RelayedEventFeed(
    hub,
    stores.channel,
    async (sessionId) => (await stores.history.getSession(sessionId)).status === "running",
    onError,
  );
  await relayed.ready();
  return relayed;
}

/**
 * Starts `spillway serve`.
 *
 * @example
 * const server = await startServer({ port: 0, home: "/tmp/spillway" });
 * const res = await fetch(`${server.url}/v1/sessions`);
 * await server.close();
 */
export async function startServer(options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  let tokens = await tokenTable(options);
  if (!isLoopback(host) && !tokens.required)
    throw new SpillwayError(
      "CONFIG_INVALID",
      `Refusing to listen on ${host} without a token: anyone who can reach it could read every output. Give --token T (or --tokens-file F), or bind to 127.0.0.1.`,
      { option: "--host", host },
    );
  const ownStores = !options.stores;
  const stores =
    options.stores ??
    (await openStores({
      ...(options.home ? { home: options.home } : {}),
      ...(options.store ? { store: options.store } : {}),
    }));
  try {
    const cwd = resolve(options.cwd ?? process.cwd());
    const agentsDir = await realpath(resolve(cwd, options.agentsDir ?? "."));
    await mkdir(join(stores.home, "server"), { recursive: true, mode: 0o700 });
    const owners =
      options.owners ??
      stores.owners ??
      (await FileSessionOwners.open(join(stores.home, "server", "owners.jsonl")));
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    const onError = (error: unknown) =>
      log(
        `spillway serve: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    const feed = options.feed ?? (await eventFeed(stores, options, onError));
    const registry = new ApiRegistry();
    const settlements = new OutputSettlements(stores.channel, onError);
    const runner =
      options.runner ??
      localSessionRunner({
        // Background tools settling here wake waiters on every worker.
        stores: reportingSettlements(stores, (id) => settlements.settled(id)),
        cwd,
        ...(options.env ? { env: options.env } : {}),
        ...(options.runOptions ? { runOptions: options.runOptions } : {}),
      });
    const live = new LiveSessions({
      stores,
      runner,
      feed,
      owners,
      maxRunningPerTenant: options.maxRunningSessions ?? 4,
      previewChars: options.previewChars ?? 2000,
      onError,
      leases: new LeaseKeeper(stores.leases, options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS),
    });
    const leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    const stopTakeover = stores.leases
      ? startTakeover({
          live,
          expired: () => stores.leases!.expired(),
          everyMs: Math.max(100, Math.floor(leaseTtlMs / 2)),
          log,
        })
      : () => {};
    const reader = new OutputReader(stores.outputs, { onError });
    const deps: ServerDeps = {
      stores,
      reader,
      feed,
      live,
      settlements,
      owners,
      registry,
      limits: {
        maxOutputBytes: options.maxOutputBytes ?? stores.outputs.maxOutputBytes,
        maxJsonBytes: options.maxJsonBytes ?? 1024 * 1024,
        regexTimeoutMs: options.regexTimeoutMs ?? 5000,
        bodyIdleMs: options.bodyIdleMs ?? DEFAULT_BODY_IDLE_MS,
      },
      uploads: new UploadSlots({ perTenant: options.maxUploads ?? DEFAULT_MAX_UPLOADS }),
      agents: { agentsDir, allowInlineCommands: options.allowInlineCommands ?? false },
      heartbeatMs: options.heartbeatMs ?? 15_000,
    };
    const rate = options.rateLimit ?? 0;
    const inspectorDir =
      options.inspectorDir ??
      join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "inspector");
    let allowedHosts: Set<string> | null = null;
    const app = createApp({
      deps,
      tokens: () => tokens,
      owners,
      limiter: new RateLimiter(rate, rate * 2, options.clock ?? systemClock),
      corsOrigins: options.corsOrigins ?? [],
      allowedHosts: () => allowedHosts,
      version: packageVersion(),
      assets: inspectorAssets(inspectorDir),
      onInternalError: onError,
    });
    const server: ServerType = await new Promise((resolveListen, rejectListen) => {
      const s = listen(
        { fetch: app.fetch, hostname: host, port: options.port ?? DEFAULT_PORT },
        () => resolveListen(s),
      );
      s.once("error", (error: NodeJS.ErrnoException) =>
        rejectListen(
          new SpillwayError(
            "CONFIG_INVALID",
            error.code === "EADDRINUSE"
              ? `Port ${options.port ?? DEFAULT_PORT} on ${host} is in use; pick another with --port (0 picks a free one).`
              : `Could not listen on ${host}:${options.port ?? DEFAULT_PORT}: ${error.message}`,
            { option: "--port", code: error.code ?? "" },
            { cause: error },
          ),
        ),
      );
    });
    const port = (server.address() as AddressInfo).port;
    if (!tokens.required) allowedHosts = loopbackHosts(port);
    const shownHost = host.includes(":") ? `[${host}]` : host;
    return {
      url: `http://${shownHost}:${port}`,
      host,
      port,
      app,
      deps,
      reloadTokens: async () => {
        if (options.tokensFile === undefined)
          throw new SpillwayError(
            "CONFIG_INVALID",
            "There is no tokens file to reload: this server was started without --tokens-file.",
            { option: "--tokens-file" },
          );
        const next = await TokenTable.fromFile(options.tokensFile);
        tokens = next;
        return { tenants: next.tenants };
      },
      close: async () => {
        stopTakeover();
        await live.closeAll(5000);
        await reader.close();
        if (feed instanceof RelayedEventFeed) feed.close();
        settlements.close();
        await new Promise<void>((done) => {
          server.close(() => done());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        if (ownStores) await stores.close();
      },
    };
  } catch (error) {
    if (ownStores) await stores.close();
    throw error;
  }
}

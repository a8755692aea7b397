/**
 * One configured server over its lifetime: connect, call tools, notice when it dies, restart it
 * at most `maxRestarts` times (on the next call after a death; after a second death, not before
 * its backoff, `restartBackoffMs`), and close it.
 *
 * States: `connected` → (dies) → `exited` (restart pending) or `failed` (no restarts left);
 * a server that never connected is `failed`; `close()` makes every server `closed`.
 */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  McpError,
  ResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { isSpillwayError, SpillwayError } from "../../core/errors.js";
import { decodeCallToolResult } from "./decode-result.js";
import {
  abortedError,
  messageTooLargeError,
  serverDiedError,
  serverDownError,
  toolFailedError,
  toolTimeoutError,
} from "./mcp-errors.js";
import { type McpSession, openSession, sessionFacts } from "./open-session.js";
import {
  describeTarget,
  type McpCallOptions,
  type McpCallResult,
  type McpMessage,
  type McpServerHandshake,
  type McpServerSpec,
  type McpServerState,
  type McpServerStatus,
  type ResolvedMcpHubOptions,
} from "./types.js";

/** A server as the hub manages it. */
export class McpServerConnection {
  readonly name: string;
  readonly spec: McpServerSpec;
  readonly #options: ResolvedMcpHubOptions;
  #state: McpServerState = "failed";
  #session: McpSession | undefined;
  #error: SpillwayError | undefined;
  #restartsLeft: number;
  #restarting: Promise<void> | undefined;
  /** Deaths since the last session that stayed up for the longest backoff. */
  #deaths = 0;
  #upSince = 0;
  /** No restart before this time (epoch ms). */
  #restartAt = 0;
  /** Tools found by the first successful connection: the catalog the model is shown. */
  #tools: McpSession["tools"] = [];

  constructor(name: string, spec: McpServerSpec, options: ResolvedMcpHubOptions) {
    this.name = name;
    this.spec = spec;
    this.#options = options;
    this.#restartsLeft = options.maxRestarts;
  }

  get tools(): McpSession["tools"] {
    return this.#tools;
  }

  /** Connects; never throws. Resolves with the failure, if any. */
  async connect(): Promise<SpillwayError | undefined> {
    try {
      this.#adopt(await openSession(this.name, this.spec, this.#options, this.#events));
      this.#tools = this.#session?.tools ?? [];
      return undefined;
    } catch (error) {
      this.#state = "failed";
      this.#error = asSpillwayError(error);
      return this.#error;
    }
  }

  status(): McpServerStatus {
    const pid = this.#state === "connected" ? this.#session?.stdio?.pid : undefined;
    const handshake = this.#state === "connected" ? handshakeOf(this.#session) : undefined;
    return {
      server: this.name,
      state: this.#state,
      target: describeTarget(this.spec),
      toolCount: this.#tools.length,
      ...(pid === undefined ? {} : { pid }),
      ...(handshake ? { handshake } : {}),
      ...(this.#error && this.#state !== "connected" ? { error: this.#error } : {}),
    };
  }

  /** Calls `toolName` on this server; `publicName` (the namespaced name) is used in errors. */
  async callTool(
    toolName: string,
    publicName: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<McpCallResult> {
    const result = await this.#send<CallToolResult>(
      { method: "tools/call", params: { name: toolName, arguments: args } },
      CallToolResultSchema,
      publicName,
      options,
    );
    return decodeCallToolResult(result);
  }

  /** Sends any request (resources, prompts, …) and resolves with the result as sent. */
  async request(request: McpMessage, options: McpCallOptions): Promise<Record<string, unknown>> {
    return this.#send(request, ResultSchema, request.method, options);
  }

  async #send<T>(
    request: McpMessage,
    schema: Parameters<Client["request"]>[1],
    publicName: string,
    options: McpCallOptions,
  ): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) throw abortedError(this.name, publicName, signal.reason);
    const session = await this.#ready(publicName);
    if (signal?.aborted) throw abortedError(this.name, publicName, signal.reason);
    // The SDK never removes its "abort" listener: give it a signal of its own per call.
    const controller = new AbortController();
    const forward = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", forward, { once: true });
    const timeoutMs = options.timeoutMs ?? this.#options.callTimeoutMs;
    const params =
      options.meta === undefined
        ? request.params
        : { ...request.params, _meta: { ...options.meta, ...(request.params?._meta as object) } };
    const onProgress = options.onProgress;
    try {
      const result = await session.client.request(
        { method: request.method, ...(params === undefined ? {} : { params }) } as Parameters<
          Client["request"]
        >[0],
        schema,
        {
          signal: controller.signal,
          timeout: timeoutMs,
          resetTimeoutOnProgress: true,
          // Always asked for, so the server's progress notifications reset the inactivity timer.
          onprogress: ({ progress, total, message }) =>
            onProgress?.({
              progress,
              ...(total === undefined ? {} : { total }),
              ...(message === undefined ? {} : { message }),
            }),
          ...(options.maxTotalTimeoutMs === undefined
            ? {}
            : { maxTotalTimeout: options.maxTotalTimeoutMs }),
        },
      );
      return result as T;
    } catch (error) {
      if (signal?.aborted) throw abortedError(this.name, publicName, signal.reason);
      throw this.#callError(session, publicName, error, timeoutMs, options.maxTotalTimeoutMs);
    } finally {
      signal?.removeEventListener("abort", forward);
    }
  }

  /** Closes the session (a stdio child is ended, then killed) and waits until it is gone. */
  async close(): Promise<void> {
    this.#state = "closed";
    this.#error = undefined;
    await this.#restarting?.catch(() => {});
    const session = this.#session;
    if (!session) return;
    if (session.http?.sessionId !== undefined) {
      await Promise.race([session.http.terminateSession().catch(() => {}), delay(1_000)]);
    }
    await session.client.close().catch(() => {});
    await session.stdio?.closed;
  }

  readonly #events = {
    onClose: (session: McpSession) => {
      if (session !== this.#session || this.#state !== "connected") return;
      this.#state = this.#restartsLeft > 0 ? "exited" : "failed";
      const now = Date.now();
      if (now - this.#upSince >= MAX_BACKOFF_MS) this.#deaths = 0;
      this.#deaths += 1;
      const backoff = this.#options.restartBackoffMs;
      // The first death restarts at the next call; later ones wait, twice as long each time.
      this.#restartAt =
        backoff > 0 && this.#deaths > 1
          ? now + Math.min(MAX_BACKOFF_MS, backoff * 2 ** (this.#deaths - 2))
          : 0;
      const fatal = session.stdio?.fatalError;
      const facts = sessionFacts(this.name, this.spec, session);
      this.#error = fatal
        ? messageTooLargeError(this.name, undefined, fatal)
        : serverDiedError(facts, undefined, session.lost?.error ?? "the connection closed");
    },
  };

  #adopt(session: McpSession): void {
    this.#session = session;
    this.#state = "connected";
    this.#error = undefined;
    this.#upSince = Date.now();
  }

  async #ready(publicName: string): Promise<McpSession> {
    if (this.#state === "exited" && Date.now() < this.#restartAt) {
      throw restartPendingError(
        this.name,
        publicName,
        this.#deaths,
        this.#restartAt - Date.now(),
        this.#error ?? unknownDown(this.name),
      );
    }
    if (this.#state === "exited") {
      this.#restarting ??= this.#restart().finally(() => {
        this.#restarting = undefined;
      });
      await this.#restarting;
    }
    const session = this.#session;
    if (this.#state === "connected" && session) return session;
    if (this.#state === "closed") {
      throw new SpillwayError(
        "MCP_SERVER_FAILED",
        `MCP server "${this.name}" was closed, so tool ${publicName} cannot be called.`,
        { server: this.name, tool: publicName, reason: "closed" },
        { fault: "internal" },
      );
    }
    throw serverDownError(this.name, publicName, this.#error ?? unknownDown(this.name));
  }

  async #restart(): Promise<void> {
    this.#restartsLeft -= 1;
    try {
      const session = await openSession(this.name, this.spec, this.#options, this.#events);
      if (this.#state !== "exited") {
        await session.client.close().catch(() => {}); // closed meanwhile
        return;
      }
      this.#adopt(session);
    } catch (error) {
      if (this.#state !== "exited") return;
      const reason = asSpillwayError(error);
      this.#state = "failed";
      this.#error = new SpillwayError(
        "MCP_SERVER_FAILED",
        `MCP server "${this.name}" died and could not be restarted: ${reason.message}`,
        { ...reason.details, restartFailed: true },
        { fault: reason.fault, cause: reason },
      );
    }
  }

  #callError(
    session: McpSession,
    tool: string,
    error: unknown,
    timeoutMs: number,
    maxTotalTimeoutMs: number | undefined,
  ): SpillwayError {
    if (this.#state === "closed") return abortedError(this.name, tool, "the MCP hub was closed");
    const fatal = session.stdio?.fatalError;
    if (fatal) return messageTooLargeError(this.name, tool, fatal);
    const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
    if (session.closed || session.lost || closed) {
      const facts = sessionFacts(this.name, this.spec, session);
      return serverDiedError(facts, tool, session.lost?.error ?? error);
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return toolTimeoutError(this.name, tool, { timeoutMs, maxTotalTimeoutMs }, error);
    }
    return toolFailedError(
      this.name,
      tool,
      error,
      error instanceof McpError ? error.code : undefined,
    );
  }
}

function handshakeOf(session: McpSession | undefined): McpServerHandshake | undefined {
  if (!session) return undefined;
  const { client } = session;
  const serverInfo = client.getServerVersion() as Record<string, unknown> | undefined;
  const instructions = client.getInstructions();
  return {
    capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    ...(serverInfo ? { serverInfo } : {}),
    ...(instructions ? { instructions } : {}),
  };
}

function asSpillwayError(error: unknown): SpillwayError {
  if (isSpillwayError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SpillwayError("MCP_SERVER_FAILED", message, {}, { fault: "internal", cause: error });
}

/** The longest wait between restarts, and how long a session must stay up to reset it. */
const MAX_BACKOFF_MS = 60_000;

/** MCP_SERVER_FAILED while a dying server waits for its next restart. */
function restartPendingError(
  server: string,
  tool: string,
  deaths: number,
  waitMs: number,
  earlier: SpillwayError,
): SpillwayError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new SpillwayError(
    "MCP_SERVER_FAILED",
    `MCP server "${server}" is down: it died ${deaths} times in a row, so tool ${tool} cannot be called now. It is started again at the first call after ${seconds} s (the wait doubles with each death, up to 60 s). Last: ${earlier.message}`,
    { ...earlier.details, server, tool, reason: "restart_pending", deaths, retryAfterMs: waitMs },
    { fault: "tool", cause: earlier },
  );
}

function unknownDown(server: string): SpillwayError {
  return new SpillwayError("MCP_SERVER_FAILED", `MCP server "${server}" is not connected.`, {
    server,
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

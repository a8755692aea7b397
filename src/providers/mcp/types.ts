/**
 * The public data types of the MCP client layer: server specs, the tool catalog, call results
 * and options. Kept free of SDK types so callers never depend on the SDK's shapes.
 */

import type { SpillwayError } from "../../core/errors.js";
import type { TextStream } from "../../core/text-stream.js";

/** A local MCP server run as a child process speaking JSON-RPC over stdin/stdout. */
export type McpStdioServerSpec = {
  command: string;
  args?: string[];
  /** Merged over the SDK's safe default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Record<string, string>;
  cwd?: string;
};

/** A remote MCP server reached over Streamable HTTP. */
export type McpHttpServerSpec = {
  url: string;
  headers?: Record<string, string>;
};

/** How to reach one MCP server: a command to spawn (stdio) or a URL (Streamable HTTP). */
export type McpServerSpec = McpStdioServerSpec | McpHttpServerSpec;

/** One tool of a connected server, as the model sees it. */
export type McpToolInfo = {
  /** Namespaced, provider-safe name (`server__tool`, at most 64 of `[a-zA-Z0-9_-]`). */
  name: string;
  server: string;
  /** The tool's name on its server. */
  toolName: string;
  description: string;
  /** The JSON Schema object exactly as the server gave it. */
  inputSchema: Record<string, unknown>;
  /**
   * The tool exactly as the server listed it (title, annotations, outputSchema, icons, _meta
   * included), for callers that pass it on, such as a gateway.
   */
  definition: Readonly<Record<string, unknown>>;
};

/** One content block of a tool result, with base64 payloads decoded to bytes. */
export type McpContent =
  | { type: "text"; text: string }
  /**
   * A text too large to hold in memory, kept in a file while it was parsed (only with the
   * hub's `spillTextOverBytes`): read it with `text.chunks()`, then `text.release()` it.
   */
  | { type: "text-stream"; text: TextStream }
  | {
      type: "binary";
      data: Uint8Array;
      mediaType: string;
      /** `image` and `audio` come from MCP content of those types; `blob` is any other bytes. */
      kind: "image" | "audio" | "blob";
    }
  | {
      type: "resource";
      uri: string;
      text?: string;
      /** The resource's text when it was too large to hold (see `text-stream`). */
      textStream?: TextStream;
      data?: Uint8Array;
      mediaType?: string;
    }
  | { type: "resource_link"; uri: string; name?: string };

/** A tool's result. `isError` is the tool's own verdict; transport failures throw instead. */
export type McpCallResult = {
  isError: boolean;
  content: McpContent[];
  /**
   * The result's `structuredContent`, when the server sent one (the same object, not a copy).
   * With `spillTextOverBytes`, its very long strings are {@link TextStream}s.
   */
  structured?: unknown;
  /**
   * The result exactly as the server sent it (the same object, not a copy): content blocks
   * with their annotations and base64 payloads, `structuredContent`, `_meta`. With
   * `spillTextOverBytes`, strings that were spilled to files are placeholders (or streams) here:
   * read them from `content` and `structured`.
   */
  raw: Readonly<Record<string, unknown>>;
};

/** A progress notification sent by the server while a tool runs. */
export type McpProgress = { progress: number; total?: number; message?: string };

/** Per-call options of {@link McpHub.callTool}. */
export type McpCallOptions = {
  /** Aborting rejects the call with `ABORTED` and sends the server a cancellation. */
  signal?: AbortSignal;
  /**
   * Milliseconds without an answer (or a progress notification) before the call fails with
   * `TOOL_TIMEOUT`. Defaults to the hub's `callTimeoutMs`.
   */
  timeoutMs?: number;
  /** Hard limit in milliseconds regardless of progress notifications. No limit by default. */
  maxTotalTimeoutMs?: number;
  onProgress?: (progress: McpProgress) => void;
  /** Sent as the request's `_meta` (the progress token is added by the hub when `onProgress` is set). */
  meta?: Record<string, unknown>;
};

/** A JSON-RPC request or notification as a server sent it (method and raw params). */
export type McpMessage = { method: string; params?: Record<string, unknown> };

/**
 * Answers a request a server sends to its client (`sampling/createMessage`,
 * `elicitation/create`, `roots/list`): resolves with the JSON-RPC result, or rejects (the
 * server gets the error). `signal` aborts when the server cancels its request; `notify` sends
 * the server a notification about it (progress, with the request's `_meta.progressToken`).
 */
export type McpServerRequestHandler = (
  server: string,
  request: McpMessage,
  extra: { signal: AbortSignal; notify: (notification: McpMessage) => Promise<void> },
) => Promise<Record<string, unknown>>;

/** What a connected server said about itself in the handshake. */
export type McpServerHandshake = {
  /** The server's `capabilities` (tools, resources, prompts, logging, completions, …). */
  capabilities: Record<string, unknown>;
  /** The server's `serverInfo` (name, version, title, …). */
  serverInfo?: Record<string, unknown>;
  instructions?: string;
};

/** A server that could not be used, with the typed error (`MCP_SERVER_FAILED`) saying why. */
export type McpServerFailure = { server: string; error: SpillwayError };

/** Where one server stands. `exited`: died after connecting; the next call may restart it. */
export type McpServerState = "connected" | "exited" | "failed" | "closed";

/** The status of one configured server. */
export type McpServerStatus = {
  server: string;
  state: McpServerState;
  /** `command args…` or the URL. */
  target: string;
  toolCount: number;
  /** The child's process id while a stdio server runs. */
  pid?: number;
  error?: SpillwayError;
  /** The handshake of the current connection, while connected. */
  handshake?: McpServerHandshake;
};

/** Options of {@link connectMcpServers}. Every field has a default. */
export type McpHubOptions = {
  /** Sent to servers in the handshake. Default `{ name: "spillway", version: "0.1.0" }`. */
  clientInfo?: { name: string; version: string };
  /** Limit for the handshake and for listing tools, per server. Default 30,000 ms. */
  connectTimeoutMs?: number;
  /** Default per-call inactivity limit (reset by progress notifications). Default 60,000 ms. */
  callTimeoutMs?: number;
  /** Largest single JSON-RPC message accepted from a stdio server. Default 2 GiB - 1 bytes. */
  maxMessageBytes?: number;
  /** How much of a stdio server's stderr is kept for error messages. Default 16 KiB. */
  stderrTailBytes?: number;
  /** Receives every stderr chunk of stdio servers (they are otherwise only kept as a tail). */
  onStderr?: (server: string, text: string) => void;
  /**
   * How many times a server that died after connecting is started again, on the next call to
   * one of its tools. Default 1; 0 makes every call after a crash fail fast.
   */
  maxRestarts?: number;
  /**
   * Backoff between restarts of a server that keeps dying: the first restart is at the next
   * call, each later one waits this long, doubled per death (at most 60 s; reset once a
   * session stays up that long). Calls meanwhile fail at once, saying when it restarts.
   * Default 0: no wait. The MCP gateway uses 1,000 ms with unlimited restarts.
   */
  restartBackoffMs?: number;
  /** On close, how long a stdio server gets to exit after stdin ends, before SIGTERM. Default 2,000 ms. */
  closeGraceMs?: number;
  /**
   * Stream large stdio results to files instead of memory: in a message over 8 MiB, strings
   * over this many bytes arrive as `text-stream` content (a 500 MB result then costs a few MB
   * of RAM). Off by default, so every text is a string.
   */
  spillTextOverBytes?: number;
  /** Where spilled texts are written (default: a private directory under the temp dir). */
  spillDir?: string;
  /**
   * Client capabilities declared to every server in the handshake (`sampling`, `elicitation`,
   * `roots`, …). Default none. Declare only what `onServerRequest` can answer.
   */
  clientCapabilities?: Record<string, unknown>;
  /**
   * Answers requests servers send (sampling, elicitation, roots). Without it such requests
   * get "Method not found".
   */
  onServerRequest?: McpServerRequestHandler;
  /**
   * Receives the notifications servers send (log messages, list changes, resource updates),
   * except progress and cancellation, which the hub routes to the calls they belong to.
   */
  onServerNotification?: (server: string, notification: McpMessage) => void;
};

type OptionalHooks =
  | "onStderr"
  | "onServerRequest"
  | "onServerNotification"
  | "spillTextOverBytes"
  | "spillDir";

/** {@link McpHubOptions} with every default applied. */
export type ResolvedMcpHubOptions = Required<Omit<McpHubOptions, OptionalHooks>> &
  Pick<McpHubOptions, OptionalHooks>;

/** The largest message the stdio transport accepts by default: 2 GiB - 1 bytes. */
export const DEFAULT_MAX_MESSAGE_BYTES = 2 ** 31 - 1;

/** Applies the defaults documented on {@link McpHubOptions}. */
export function resolveHubOptions(options: McpHubOptions = {}): ResolvedMcpHubOptions {
  return {
    clientInfo: options.clientInfo ?? { name: "spillway", version: "0.1.0" },
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    callTimeoutMs: options.callTimeoutMs ?? 60_000,
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    stderrTailBytes: options.stderrTailBytes ?? 16 * 1024,
    maxRestarts: options.maxRestarts ?? 1,
    restartBackoffMs: options.restartBackoffMs ?? 0,
    closeGraceMs: options.closeGraceMs ?? 2_000,
    clientCapabilities: options.clientCapabilities ?? {},
    ...(options.onStderr ? { onStderr: options.onStderr } : {}),
    ...(options.spillTextOverBytes !== undefined
      ? { spillTextOverBytes: options.spillTextOverBytes }
      : {}),
    ...(options.spillDir !== undefined ? { spillDir: options.spillDir } : {}),
    ...(options.onServerRequest ? { onServerRequest: options.onServerRequest } : {}),
    ...(options.onServerNotification ? { onServerNotification: options.onServerNotification } : {}),
  };
}

/** True for a stdio spec (it has a `command`). */
export function isStdioSpec(spec: McpServerSpec): spec is McpStdioServerSpec {
  return "command" in spec;
}

/** `command arg…` for a stdio server, the URL for an HTTP one: how messages name a server. */
export function describeTarget(spec: McpServerSpec): string {
  if (!isStdioSpec(spec)) return spec.url;
  return [spec.command, ...(spec.args ?? [])].map(quoteIfNeeded).join(" ");
}

function quoteIfNeeded(part: string): string {
  return /^[\w./:@=+-]+$/.test(part) ? part : JSON.stringify(part);
}

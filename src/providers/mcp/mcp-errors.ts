/**
 * The typed errors of the MCP layer. Each names the server (and the tool, for calls), says what
 * happened in words a model or a user can act on, and carries the same facts as `details`.
 */

import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { SpillwayError } from "../../core/errors.js";
import type { ProcessExit, StdioMessageError } from "./stdio-transport.js";

/** Facts about a server used in messages. */
export type ServerFacts = {
  server: string;
  /** `command args…` or the URL. */
  target: string;
  http: boolean;
  exit?: ProcessExit | undefined;
  stderr?: string | undefined;
};

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ECONNRESET: "connection reset",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  UND_ERR_SOCKET: "connection closed by the server",
};

/** The first `code` string found along an error's `cause` / `errors` chain. */
export function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") return code;
  const fromCause = errorCode(cause, depth + 1);
  if (fromCause) return fromCause;
  return Array.isArray(errors) ? errorCode(errors[0], depth + 1) : undefined;
}

/** A one-line reason for any thrown value, including the network cause fetch hides. */
export function reasonOf(error: unknown): string {
  const code = errorCode(error);
  if (code && code in NETWORK_CODES) return `${NETWORK_CODES[code]} (${code})`;
  let message = error instanceof Error ? error.message : String(error);
  // fetch says only "fetch failed"; the reason is in `cause`.
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && !message.includes(cause.message)) message += `: ${cause.message}`;
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** "exit code 3" or "killed by SIGKILL". */
export function describeExit(exit: ProcessExit | undefined): string {
  if (!exit) return "exit status unknown";
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exit code ${exit.code}`;
}

function stderrSuffix(stderr: string | undefined): string {
  return stderr ? `. Its stderr ended with: ${stderr}` : "";
}

function factDetails(facts: ServerFacts): Record<string, unknown> {
  return {
    server: facts.server,
    target: facts.target,
    ...(facts.exit ? { exitCode: facts.exit.code, signal: facts.exit.signal } : {}),
    ...(facts.stderr ? { stderr: facts.stderr } : {}),
  };
}

/** The server could not be started or did not complete the handshake. */
export function serverStartError(
  facts: ServerFacts,
  cause: unknown,
  timeoutMs: number,
  network = false,
): SpillwayError {
  const { server, target } = facts;
  const code = errorCode(cause);
  const mcpCode = mcpErrorCode(cause);
  const where = facts.http ? `at ${target}` : `(${target})`;
  let reason: string;
  let message: string;
  if (!facts.http && code === "ENOENT") {
    reason = "command_not_found";
    const command = (cause as { path?: unknown }).path;
    message = `MCP server "${server}" could not start: command "${typeof command === "string" ? command : target}" was not found on PATH (ENOENT)`;
  } else if (!facts.http && code === "EACCES") {
    reason = "command_not_executable";
    message = `MCP server "${server}" could not start: command ${target} is not executable (EACCES)`;
  } else if (mcpCode === -32001) {
    reason = "timeout";
    message = `MCP server "${server}" ${where} did not complete the MCP handshake within ${timeoutMs} ms`;
  } else if (mcpCode !== undefined && mcpCode !== -32000) {
    reason = "handshake_failed";
    message = `MCP server "${server}" ${where} refused the MCP handshake: ${reasonOf(cause)}`;
  } else if (facts.exit) {
    reason = "exited";
    message = `MCP server "${server}" ${where} exited during startup (${describeExit(facts.exit)})`;
  } else if (cause instanceof StreamableHTTPError && cause.code !== undefined && cause.code > 0) {
    reason = "http_error";
    message = `MCP server "${server}" ${where} answered the MCP handshake with HTTP ${cause.code}: ${reasonOf(cause)}`;
  } else if (facts.http && (network || (code !== undefined && code in NETWORK_CODES))) {
    reason = "unreachable";
    message = `MCP server "${server}" ${where} could not be reached: ${reasonOf(cause)}`;
  } else {
    reason = "handshake_failed";
    message = `MCP server "${server}" ${where} failed during the MCP handshake: ${reasonOf(cause)}`;
  }
  return new SpillwayError(
    "MCP_SERVER_FAILED",
    `${message}${stderrSuffix(facts.stderr)}. Its tools are not available.`,
    { ...factDetails(facts), reason, cause: reasonOf(cause) },
    { fault: reason === "command_not_found" ? "user" : "tool", cause },
  );
}

/** The server died (or its connection was lost), while running `tool` when one is given. */
export function serverDiedError(
  facts: ServerFacts,
  tool: string | undefined,
  cause: unknown,
): SpillwayError {
  const during = tool === undefined ? "" : ` while running tool ${tool}`;
  const what = facts.http
    ? `MCP server "${facts.server}" at ${facts.target} lost its connection${during}: ${reasonOf(cause)}`
    : `MCP server "${facts.server}" exited${during} (${describeExit(facts.exit)})`;
  const lost =
    tool === undefined ? "" : " The tool's result is lost; other servers are unaffected.";
  return new SpillwayError(
    "MCP_SERVER_FAILED",
    `${what}${stderrSuffix(facts.stderr)}.${lost}`,
    {
      ...factDetails(facts),
      ...(tool === undefined ? {} : { tool }),
      reason: facts.http ? "connection_lost" : "exited",
    },
    { fault: "tool", cause },
  );
}

/** The stdio transport stopped the server because a message was over the size limit. */
export function messageTooLargeError(
  server: string,
  tool: string | undefined,
  fatal: StdioMessageError,
): SpillwayError {
  const lost = tool === undefined ? "" : ` Tool ${tool}'s result is lost.`;
  return new SpillwayError(
    "MCP_SERVER_FAILED",
    `${fatal.message}.${lost}`,
    {
      server,
      ...(tool === undefined ? {} : { tool }),
      reason: "message_too_large",
      bytes: fatal.bytes,
      limit: fatal.limit,
    },
    { fault: "tool", cause: fatal },
  );
}

/** A call to a server that is known to be down: fails fast with the earlier reason. */
export function serverDownError(
  server: string,
  tool: string,
  earlier: SpillwayError,
): SpillwayError {
  return new SpillwayError(
    "MCP_SERVER_FAILED",
    `MCP server "${server}" is not running, so tool ${tool} cannot be called. Earlier: ${earlier.message}`,
    { ...earlier.details, server, tool, reason: "server_down" },
    { fault: earlier.fault, cause: earlier },
  );
}

/** The request got no answer within the limit; the server was sent a cancellation. */
export function toolTimeoutError(
  server: string,
  tool: string,
  limit: { timeoutMs: number; maxTotalTimeoutMs?: number | undefined },
  cause: unknown,
): SpillwayError {
  const total =
    limit.maxTotalTimeoutMs === undefined ? "" : ` (or ${limit.maxTotalTimeoutMs} ms in total)`;
  return new SpillwayError(
    "TOOL_TIMEOUT",
    `Tool ${tool} (MCP server "${server}") did not answer within ${limit.timeoutMs} ms${total}; the call was cancelled.`,
    { server, tool, ...limit },
    { fault: "tool", cause },
  );
}

/** The caller aborted the call. */
export function abortedError(server: string, tool: string, reason: unknown): SpillwayError {
  const why = reason instanceof Error ? reason.message : reason === undefined ? "" : String(reason);
  return new SpillwayError(
    "ABORTED",
    `Tool ${tool} (MCP server "${server}") was aborted${why ? `: ${why}` : ""}.`,
    { server, tool },
    { fault: "user", cause: reason },
  );
}

/** A namespaced name that no connected server offers. */
export function unknownToolError(name: string, valid: string[]): SpillwayError {
  const shown = valid.slice(0, 20);
  const more = valid.length > shown.length ? `, … (${valid.length} in all)` : "";
  const list =
    shown.length > 0 ? `Valid tools: ${shown.join(", ")}${more}.` : "No MCP tools are available.";
  return new SpillwayError(
    "UNKNOWN_TOOL",
    `No MCP tool is named "${name}". ${list}`,
    { tool: name, valid: shown },
    { fault: "model" },
  );
}

/** The server answered the request with a JSON-RPC error, or with something that is not a result. */
export function toolFailedError(
  server: string,
  tool: string,
  cause: unknown,
  mcpCode?: number,
): SpillwayError {
  const invalidArgs = mcpCode === -32602;
  return new SpillwayError(
    invalidArgs ? "INVALID_TOOL_ARGUMENTS" : "TOOL_FAILED",
    `Tool ${tool} (MCP server "${server}") failed: ${reasonOf(cause)}`,
    { server, tool, ...(mcpCode === undefined ? {} : { mcpCode }) },
    { fault: invalidArgs ? "model" : "tool", cause },
  );
}

/** The numeric JSON-RPC / MCP error code of an `McpError` (-32000 connection closed, -32001 timeout). */
export function mcpErrorCode(error: unknown): number | undefined {
  return error instanceof McpError ? error.code : undefined;
}

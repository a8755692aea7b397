/**
 * How failures reach the client: a server's own JSON-RPC error is passed on as it was; a
 * spillway error becomes a tool error result (for tools, so the client's model reads it) or a
 * JSON-RPC error carrying its code and details (for other requests).
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { SpillwayError } from "../core/errors.js";

/** MCP's "resource not found" error code. */
export const RESOURCE_NOT_FOUND = -32002;

/** A tool error result whose text is `Error CODE: message`, as an agent's model is shown. */
export function errorResult(error: SpillwayError): Record<string, unknown> {
  return {
    content: [{ type: "text", text: `Error ${error.code}: ${error.message}` }],
    isError: true,
  };
}

/** The server's own JSON-RPC error, when the server answered with one. */
export function serverError(error: SpillwayError): McpError | undefined {
  const cause = error.cause;
  if (!(cause instanceof McpError) || typeof error.details.mcpCode !== "number") return undefined;
  const prefix = `MCP error ${cause.code}: `;
  const message = cause.message.startsWith(prefix)
    ? cause.message.slice(prefix.length)
    : cause.message;
  return new McpError(cause.code, message, cause.data);
}

/** A spillway error as the JSON-RPC error a client gets (its code and details as data). */
export function asMcpError(error: SpillwayError): McpError {
  const passed = serverError(error);
  if (passed) return passed;
  const code =
    error.code === "OUTPUT_NOT_FOUND"
      ? RESOURCE_NOT_FOUND
      : error.fault === "user" || error.fault === "model"
        ? ErrorCode.InvalidParams
        : ErrorCode.InternalError;
  return new McpError(code, `${error.code}: ${error.message}`, {
    code: error.code,
    ...error.details,
  });
}

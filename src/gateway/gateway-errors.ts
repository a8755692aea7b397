/**
 * How failures reach the client: a server's own JSON-RPC error is passed on as it was; a
 * spillway error becomes a tool error result (for tools, so the client's model reads it) or a
 * JSON-RPC error carrying its code and details (for other requests).
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { SpillwayError } from "../core/errors.js";

/** MCP's "resource not found" error code. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * An McpError whose message is sent as given. The SDK's McpError prefixes its message with
 * "MCP error CODE: " and a server sends that message on the wire, where the client's SDK adds
 * the prefix again ("MCP error -32002: MCP error -32002: …"); every error the gateway answers
 * is one of these instead, so a client reads the prefix once.
 *
 * @example
 * throw new GatewayError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
 */
export class GatewayError extends McpError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.message = message;
  }
}

/** A tool error result whose text is `Error CODE: message`, as an agent's model is shown. */
export function errorResult(error: SpillwayError): Record<string, unknown> {
  return {
    content: [{ type: "text", text: `Error ${error.code}: ${error.message}` }],
    isError: true,
  };
}

/**
 * The message of a client-side McpError without the prefixes the SDK added: the client's, and
 * the one an SDK server already put on the wire.
 */
function unprefixed(error: McpError): string {
  const prefix = `MCP error ${error.code}: `;
  let message = error.message;
  while (message.startsWith(prefix)) message = message.slice(prefix.length);
  return message;
}

/**
 * An upstream server's JSON-RPC error (as the hub's client got it) passed on as it was: same
 * code, message and data, the prefix once. Anything else is returned unchanged.
 */
export function passOn(error: unknown): unknown {
  if (!(error instanceof McpError) || error instanceof GatewayError) return error;
  return new GatewayError(error.code, unprefixed(error), error.data);
}

/** The server's own JSON-RPC error, when the server answered with one. */
export function serverError(error: SpillwayError): GatewayError | undefined {
  const cause = error.cause;
  if (!(cause instanceof McpError) || typeof error.details.mcpCode !== "number") return undefined;
  return new GatewayError(cause.code, unprefixed(cause), cause.data);
}

/** A spillway error as the JSON-RPC error a client gets (its code and details as data). */
export function asMcpError(error: SpillwayError): GatewayError {
  const passed = serverError(error);
  if (passed) return passed;
  const code =
    error.code === "OUTPUT_NOT_FOUND"
      ? RESOURCE_NOT_FOUND
      : error.fault === "user" || error.fault === "model"
        ? ErrorCode.InvalidParams
        : ErrorCode.InternalError;
  return new GatewayError(code, `${error.code}: ${error.message}`, {
    code: error.code,
    ...error.details,
  });
}

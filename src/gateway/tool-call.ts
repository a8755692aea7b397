/**
 * One `tools/call` to a server behind the gateway, end to end: handle references in the
 * arguments replaced by the exact stored content, the call forwarded (progress back to the
 * client, cancellation on to the server), the result stored whole FIRST, then passed through
 * unchanged when it fits or replaced by its handle message, and the call recorded in the
 * session's history.
 */

import { isSpillwayError, SpillwayError } from "../core/errors.js";
import type { IdGenerator } from "../core/ids.js";
import type { McpCallResult, McpProgress } from "../providers/mcp/index.js";
import { substituteHandleReferences } from "../retrieval/substitute-references.js";
import type { OutputStore } from "../store/output-store.js";
import { errorResult, serverError } from "./gateway-errors.js";
import type { GatewayHistory } from "./gateway-history.js";
import type { GatewaySettings } from "./gateway-settings.js";
import { fitsInline, handleResult } from "./result-view.js";
import { storeResult } from "./store-result.js";
import type { Upstream, UpstreamTool } from "./upstream.js";

/** What a call needs from the request being answered (the SDK's request extra). */
export interface CallRequest {
  readonly signal: AbortSignal;
  readonly meta: Record<string, unknown> | undefined;
  /** Sends a notification on this request's stream (progress). */
  readonly notify: (notification: {
    method: string;
    params: Record<string, unknown>;
  }) => Promise<void>;
}

/** What every call of a session shares. */
export interface CallServices {
  readonly settings: GatewaySettings;
  readonly upstream: Upstream;
  readonly outputs: OutputStore;
  readonly history: GatewayHistory;
  readonly ids: IdGenerator;
  /** New outputs were stored (resources list changed). */
  readonly onStored: () => void;
}

function progressRelay(request: CallRequest): ((progress: McpProgress) => void) | undefined {
  const token = request.meta?.progressToken;
  if (typeof token !== "string" && typeof token !== "number") return undefined;
  return (progress) => {
    request
      .notify({ method: "notifications/progress", params: { progressToken: token, ...progress } })
      .catch(() => {
        // The client went away: the call itself reports that.
      });
  };
}

/** The request's `_meta` minus the progress token (the hub sends its own). */
function forwardedMeta(
  meta: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!meta) return undefined;
  const { progressToken: _token, ...rest } = meta;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** Above this, a failed call that carried handle references says servers may refuse large messages. */
const LARGE_CALL_BYTES = 4 * 1024 * 1024;

/** The error, with a hint when the call carried large substituted arguments. */
function withLargeCallHint(error: SpillwayError, bytes: number): SpillwayError {
  if (bytes < LARGE_CALL_BYTES || error.code === "ABORTED" || serverError(error)) return error;
  return new SpillwayError(
    error.code,
    `${error.message} The call carried ${bytes.toLocaleString("en-US")} bytes from handle references: servers built on the ` +
      "MCP TypeScript SDK accept at most 10 MiB per message over stdio (4 MiB per HTTP request by default) and drop the " +
      "connection past it. Pass a part of the output (?lines=A-B) per call, or raise the server's limit.",
    { ...error.details, substitutedBytes: bytes },
    { fault: error.fault, cause: error },
  );
}

/**
 * Runs one call to an upstream tool and answers with the CallToolResult the client gets.
 * Throws an `McpError` only where the server itself answered with a JSON-RPC error (passed on
 * as it was); every other failure is a tool error result the client's model can read.
 */
export async function callUpstreamTool(
  services: CallServices,
  tool: UpstreamTool,
  args: Record<string, unknown>,
  request: CallRequest,
): Promise<Record<string, unknown>> {
  const { settings, outputs, history } = services;
  const toolCallId = services.ids("call");
  const startedAt = history.now();
  const argsText = JSON.stringify(args);
  const sessionId = history.sessionId;
  const origin = {
    sessionId,
    toolName: tool.name,
    toolArgs: argsText,
    toolCallId,
    createdAt: startedAt,
  };
  const finish = (call: Parameters<GatewayHistory["record"]>[0]) => history.record(call);
  const failed = async (error: SpillwayError, store: boolean) => {
    let outputId: string | undefined;
    if (store) {
      // Errors are stored too: a failed output record holding the error.
      const running = await outputs.begin(origin);
      outputId = (await outputs.fail(running.id, error.message)).id;
      services.onStored();
    }
    finish({
      toolCallId,
      toolName: tool.name,
      argsText,
      startedAt,
      finishedAt: history.now(),
      status: request.signal.aborted ? "aborted" : "error",
      ...(outputId ? { outputId } : {}),
      error: error.message,
      ref: { kind: "error", code: error.code, message: error.message },
    });
  };

  let forwarded: Record<string, unknown>;
  let substitutedBytes = 0;
  try {
    const substituted = await substituteHandleReferences(
      args,
      outputs,
      { sessionId },
      {
        maxBytes: settings.limits.maxReferenceBytes,
        limitName: "--max-reference-bytes",
      },
    );
    forwarded = substituted.value;
    substitutedBytes = substituted.bytes;
  } catch (error) {
    if (!isSpillwayError(error)) throw error;
    await failed(error, false);
    return errorResult(error);
  }

  let result: McpCallResult;
  try {
    const onProgress = progressRelay(request);
    const meta = forwardedMeta(request.meta);
    result = await services.upstream.hub.callTool(tool.hubName, forwarded, {
      signal: request.signal,
      timeoutMs: settings.toolTimeoutMs,
      ...(onProgress ? { onProgress } : {}),
      ...(meta ? { meta } : {}),
    });
  } catch (error) {
    if (!isSpillwayError(error)) throw error;
    const reported = withLargeCallHint(error, substitutedBytes);
    await failed(reported, true);
    const answer = serverError(reported);
    if (answer) throw answer;
    return errorResult(reported);
  }

  let stored: Awaited<ReturnType<typeof storeResult>>;
  try {
    stored = await storeResult(outputs, origin, result);
  } catch (error) {
    if (!isSpillwayError(error)) throw error;
    await failed(error, false);
    return errorResult(error);
  }
  services.onStored();
  const inline = fitsInline(stored, result, settings.limits);
  const answer = inline
    ? (result.raw as Record<string, unknown>)
    : await handleResult(stored, result, {
        outputs,
        sessionId,
        synopsisLines: settings.synopsisLines,
      });
  const attachments = stored.all.slice(1).map((record) => record.id);
  finish({
    toolCallId,
    toolName: tool.name,
    argsText,
    startedAt,
    finishedAt: history.now(),
    status: result.isError ? "error" : "ok",
    outputId: stored.primary.id,
    ...(result.isError ? { error: "the tool reported an error" } : {}),
    ref: {
      kind: "output",
      outputId: stored.primary.id,
      isError: result.isError,
      shown: inline ? "inline" : "handle",
      ...(attachments.length > 0 ? { attachments } : {}),
    },
  });
  return answer;
}

/**
 * A call of the gateway's own `get_tool_output`: answered by spillway's surface over this
 * session's outputs (exact reads, or extraction through the client's model or the configured
 * one), recorded in the history as a read.
 */
import type { IdGenerator } from "../core/ids.js";
import type { Surface } from "../surfaces/index.js";
import { type ExtractionSource, gatewayExtractor } from "./gateway-extractor.js";
import type { GatewayHistory } from "./gateway-history.js";
import type { GatewaySettings } from "./gateway-settings.js";
import type { GatewayStores } from "./gateway-stores.js";
import { READ_TOOL_NAME } from "./read-tool.js";
import type { SendSampling } from "./sampling-model.js";

/** Runs one get_tool_output call and answers with its CallToolResult. */
export async function runReadTool(options: {
  readonly surface: Surface;
  readonly settings: GatewaySettings;
  readonly stores: GatewayStores;
  readonly history: GatewayHistory;
  readonly ids: IdGenerator;
  readonly source: ExtractionSource;
  readonly args: Record<string, unknown>;
  readonly signal: AbortSignal;
  readonly send: SendSampling;
}): Promise<Record<string, unknown>> {
  const { settings, stores, history } = options;
  const toolCallId = options.ids("call");
  const startedAt = history.now();
  const sessionId = history.sessionId;
  const extractor = gatewayExtractor({
    source: options.source,
    settings,
    outputs: stores.outputs,
    sessionId,
    ...(stores.extractionCache ? { cache: stores.extractionCache } : {}),
    send: options.send,
    emit: () => {},
  });
  const answer = await options.surface.execute(READ_TOOL_NAME, options.args, {
    outputs: stores.outputs,
    scope: { sessionId },
    maxChars: settings.limits.maxReadChars,
    tokenizer: settings.tokenizer,
    outputOfToolCall: async (id) =>
      (await stores.history.toolCalls(sessionId)).find((c) => c.toolCallId === id)?.outputId ??
      undefined,
    extractor,
    signal: options.signal,
    toolCallId,
  });
  history.record({
    toolCallId,
    toolName: READ_TOOL_NAME,
    argsText: JSON.stringify(options.args),
    startedAt,
    finishedAt: history.now(),
    status: answer.isError ? "error" : "ok",
    ...(answer.isError ? { error: answer.text.split("\n")[0] ?? "" } : {}),
    ref: {
      kind: "retrieval",
      text: answer.text,
      ...(answer.outputId ? { outputId: answer.outputId } : {}),
      ...(answer.isError ? { isError: true } : {}),
    },
  });
  return {
    content: [{ type: "text", text: answer.text }],
    ...(answer.isError ? { isError: true } : {}),
  };
}

import type { ModelReply } from "../providers/model-caller.js";
import type { SessionContext } from "./session-context.js";

/**
 * Counts one model reply as the session's (accounting and a `model.call` event): a turn's, or a
 * request the runtime made for the session (`purpose`), whose tokens the session paid for too.
 */
export function recordModelCall(
  context: SessionContext,
  reply: ModelReply,
  turn: number,
  purpose?: "focused-reading",
): void {
  const cost = context.accounting.addModelCall(
    reply.target,
    reply.usage.inputTokens,
    reply.usage.outputTokens,
  );
  context.emit({
    type: "model.call",
    sessionId: context.sessionId,
    turn,
    model: reply.target.ref,
    inputTokens: reply.usage.inputTokens,
    outputTokens: reply.usage.outputTokens,
    costUsd: cost,
    latencyMs: reply.latencyMs,
    toolCalls: reply.toolCalls.length,
    ...(purpose ? { purpose } : {}),
  });
}

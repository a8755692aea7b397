import type { ModelReply } from "../providers/model-caller.js";
import type { HistoryPart } from "../store/history.js";
import { buildProjection, type Projection } from "./projection.js";
import { newProjectionTail, resultsSentWhole } from "./projection-tail.js";
import type { SessionContext } from "./session-context.js";
import { runToolCalls } from "./tool-runner.js";
import { decideReply, finalTurnError, planTurn, turnCounts } from "./turn-policy.js";

/** How a session's loop ended. */
export type LoopEnd =
  | { readonly status: "completed"; readonly report: string }
  | { readonly status: "failed"; readonly error: string; readonly report: string | null }
  | { readonly status: "aborted"; readonly error: string };

async function callModel(context: SessionContext, projection: Projection): Promise<ModelReply> {
  const { plan } = projection;
  const reply = await context.callModel({
    system: projection.system,
    messages: projection.messages,
    tools: plan.offered ?? plan.tools,
    // The last turn requires agent__final_report (a reply without it loses the run); it lists
    // the earlier turns' tools, so the prompt's prefix holds.
    ...(plan.requiredTool
      ? { toolChoice: { tool: plan.requiredTool } }
      : plan.requireToolCall
        ? { toolChoice: "required" as const }
        : {}),
    signal: context.signal,
    stream: context.settings.stream,
  });
  context.state.modelCalls++;
  context.state.servingModel = reply.target.ref;
  const cost = context.accounting.addModelCall(
    reply.target,
    reply.usage.inputTokens,
    reply.usage.outputTokens,
  );
  context.emit({
    type: "model.call",
    sessionId: context.sessionId,
    turn: plan.turn,
    model: reply.target.ref,
    inputTokens: reply.usage.inputTokens,
    outputTokens: reply.usage.outputTokens,
    costUsd: cost,
    latencyMs: reply.latencyMs,
    toolCalls: reply.toolCalls.length,
  });
  const parts: HistoryPart[] = [];
  if (reply.text) parts.push({ type: "text", text: reply.text });
  for (const call of reply.toolCalls) {
    parts.push({
      type: "tool-call",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      argsText: call.argsText,
    });
  }
  await context.history.appendMessage(context.sessionId, plan.turn, "assistant", parts);
  return reply;
}

/**
 * D3-22: async ids are not new information. When every call of a turn went async and no
 * background tool settled meanwhile, wait until one does (bounded by the tool timeout; an
 * abort or a graceful stop ends the wait) before calling the model again.
 */
async function awaitNewInformation(context: SessionContext, settledBefore: number): Promise<void> {
  if (context.background.settledCount > settledBefore || context.state.stopRequested) return;
  await context.background.nextSettlement(context.signal, context.settings.toolTimeoutSecs * 1000);
}

/**
 * The session loop, a small state machine: plan the turn → build the projection (compacting
 * when due) → call the model → run its tool calls (each stored whole, then projected) → next
 * turn, until a final report, the last turn, or an abort. Policy lives in the functions it
 * calls; the projection's tail remembers what it already read of the history.
 */
export async function runSessionLoop(context: SessionContext): Promise<LoopEnd> {
  const { state } = context;
  const tail = newProjectionTail();
  let lastText: string | null = null;
  for (;;) {
    if (context.signal.aborted) return { status: "aborted", error: "The run was aborted." };
    const plan = planTurn(context);
    context.emit({
      type: "turn.start",
      sessionId: context.sessionId,
      turn: plan.turn,
      maxTurns: plan.maxTurns,
      final: plan.final,
    });
    const projection = await buildProjection(context, tail, plan);
    state.projectedTokens = projection.tokens;
    state.resultsInView = resultsSentWhole(tail);
    state.finalTurn = projection.plan.final;
    state.pendingTokens = 0;
    const reply = await callModel(context, projection);
    if (reply.text.trim()) lastText = reply.text.trim();
    const decision = decideReply(reply, context, plan);
    state.lastReplyEmpty = decision.kind === "empty";
    state.lastReplyText = decision.kind === "confirm";
    if (turnCounts(context, reply)) state.turn = plan.turn;
    await context.history.updateSession(context.sessionId, { turns: state.turn });
    if (decision.kind === "final") return { status: "completed", report: decision.report };
    if (decision.kind === "run-tools") {
      const allowed = new Set(projection.plan.tools.map((t) => t.name));
      const settledBefore = context.background.settledCount;
      const { finalReport, reportRefused, allAsync } = await runToolCalls(
        context,
        reply.toolCalls,
        plan.turn,
        allowed,
      );
      if (finalReport !== null) return { status: "completed", report: finalReport };
      if (reportRefused !== null) return { status: "failed", error: reportRefused, report: null };
      if (allAsync) await awaitNewInformation(context, settledBefore);
    }
    if (projection.plan.final) {
      // A report the guards sent back in the final turn gets one more final turn (SW-25).
      if (state.sentBackTurn === plan.turn && !state.extraFinalTurn) {
        state.extraFinalTurn = true;
        continue;
      }
      return { status: "failed", error: finalTurnError(context, plan), report: lastText };
    }
  }
}

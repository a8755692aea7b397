import { mapConcurrent } from "../core/concurrency.js";
import { argumentsWithBackslashes } from "../core/misescaped-backslash.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import { runAsyncCapable } from "./async-execution.js";
import {
  type CallResult,
  errorResult,
  isAsyncRef,
  settleOutcome,
  thrownResult,
} from "./call-result.js";
import { rememberCallResult, stopRepeatedCall } from "./repeat-stop.js";
import { asyncActive, type SessionContext } from "./session-context.js";
import type { ToolCallInput, ToolOutcome } from "./tool-types.js";
import { answerUnchangedRead, rememberOutputRead } from "./unchanged-read.js";

/**
 * Runs one tool call: validates it, dispatches it to its handler (MCP, internal, sub-agent,
 * surface), and settles its outcome through the interception point. A tool that throws, a
 * server that died, an unknown tool or invalid arguments all become error results for the
 * model; the session goes on.
 */
export async function executeCall(
  context: SessionContext,
  call: ModelToolCall,
  allowed: ReadonlySet<string>,
  options: { readonly inBatch?: boolean } = {},
): Promise<CallResult> {
  if (call.invalid) return errorResult(call.invalid.code, call.invalid.message);
  const handler = context.tools.get(call.toolName);
  if (!handler || !allowed.has(call.toolName)) {
    const available = [...allowed].sort();
    return errorResult(
      "UNKNOWN_TOOL",
      `Tool "${call.toolName}" is not available ${handler ? "in this turn" : "in this session"}. Available now: ${available.join(", ") || "none"}.`,
    );
  }
  // Spillway's own tools take the model's text as it was typed (SW-67); a server's tool gets
  // its arguments untouched.
  const args = handler.kind === "mcp" ? call.args : argumentsWithBackslashes(call.args);
  const refused = handler.rejectArguments?.(args);
  if (refused !== undefined) return errorResult("INVALID_ARGUMENT", refused);
  const input: ToolCallInput = {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    argsText: call.argsText,
    args,
  };
  // MCP tools and sub-agents race the time trigger and may go on in the background.
  if (asyncActive(context) && (handler.kind === "mcp" || handler.kind === "subagent"))
    return runAsyncCapable(context, input, handler, { accounted: options.inBatch !== true });
  let outcome: ToolOutcome;
  try {
    outcome = await handler.run(input, context.signal);
  } catch (error) {
    return thrownResult(error, call.toolName, context.signal.aborted);
  }
  return settleOutcome(context, input, outcome);
}

/**
 * Runs a turn's tool calls in parallel (at most `toolConcurrency` at once). Each call is
 * recorded as running before it starts and gets exactly one result in the canonical history
 * when it ends (an async id when it went on in the background). Returns the final report when
 * one of them delivered it (or why one was refused), and whether every call went async (D3-22:
 * no new information).
 */
export async function runToolCalls(
  context: SessionContext,
  calls: readonly ModelToolCall[],
  turn: number,
  allowed: ReadonlySet<string>,
): Promise<{ finalReport: string | null; reportRefused: string | null; allAsync: boolean }> {
  for (const call of calls) {
    await context.history.startToolCall({
      sessionId: context.sessionId,
      toolCallId: call.toolCallId,
      turn,
      toolName: call.toolName,
      argsText: call.argsText,
      startedAt: context.clock(),
    });
  }
  let finalReport: string | null = null;
  let reportRefused: string | null = null;
  let asyncCount = 0;
  await mapConcurrent(calls, context.settings.toolConcurrency, async (call) => {
    const started = performance.now();
    context.emit({
      type: "tool.start",
      sessionId: context.sessionId,
      turn,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
    });
    const result =
      stopRepeatedCall(context, call, allowed) ??
      answerUnchangedRead(context, call, allowed) ??
      (await executeCall(context, call, allowed));
    rememberOutputRead(context, call, turn, result);
    rememberCallResult(context, call, turn, result);
    const durationMs = performance.now() - started;
    await context.history.finishToolCall(
      context.sessionId,
      call.toolCallId,
      {
        status: result.status,
        ...(result.outputId ? { outputId: result.outputId } : {}),
        ...(result.error ? { error: result.error } : {}),
      },
      { turn, toolName: call.toolName, ref: result.ref },
    );
    // A call that went async is accounted when it settles (its duration is not known yet); a
    // batch is one call, whatever its items did.
    if (!result.async) context.accounting.addToolCall(durationMs, result.storedBytes);
    if (isAsyncRef(result.ref)) asyncCount++;
    if (result.finalReport !== undefined && finalReport === null) finalReport = result.finalReport;
    if (result.reportRefused !== undefined && reportRefused === null)
      reportRefused = result.reportRefused;
    context.emit({
      type: "tool.end",
      sessionId: context.sessionId,
      turn,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      status: result.status === "ok" ? "ok" : "error",
      durationMs,
      ...(result.outputId ? { outputId: result.outputId, bytes: result.storedBytes } : {}),
      ...(result.shown ? { shown: result.shown } : {}),
      ...(result.readOutputId ? { readOutputId: result.readOutputId } : {}),
      ...(result.async ? { background: true as const } : {}),
      ...(result.error ? { error: result.error } : {}),
    });
  });
  return {
    finalReport,
    reportRefused,
    allAsync: calls.length > 0 && asyncCount === calls.length,
  };
}

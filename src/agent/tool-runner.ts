import { mapConcurrent } from "../core/concurrency.js";
import { isSpillwayError, type SpillwayError } from "../core/errors.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import type { ShownAs, ToolCallStatus, ToolResultRef } from "../store/history.js";
import { interceptContent } from "./intercept.js";
import type { SessionContext } from "./session-context.js";
import type { ToolCallInput, ToolOutcome } from "./tool-types.js";

/** One finished call: its canonical result and what the loop needs to know. */
export interface CallResult {
  readonly ref: ToolResultRef;
  readonly status: Exclude<ToolCallStatus, "running">;
  readonly outputId?: string;
  readonly error?: string;
  readonly finalReport?: string;
  readonly storedBytes: number;
  readonly shown?: ShownAs;
  /** For surface reads: the output read. */
  readonly readOutputId?: string;
}

function errorResult(code: SpillwayError["code"], message: string): CallResult {
  return { ref: { kind: "error", code, message }, status: "error", error: message, storedBytes: 0 };
}

/** Turns a tool's outcome into its canonical result (storing raw content first). */
async function settle(
  context: SessionContext,
  call: ToolCallInput,
  outcome: ToolOutcome,
): Promise<CallResult> {
  switch (outcome.type) {
    case "content": {
      const { ref, record, storedBytes } = await interceptContent(context, call, outcome);
      return {
        ref,
        status: outcome.isError ? "error" : "ok",
        outputId: record.id,
        storedBytes,
        ...(ref.kind === "output" ? { shown: ref.shown } : {}),
        ...(outcome.isError ? { error: "the tool reported an error" } : {}),
      };
    }
    case "retrieval":
      return {
        ref: {
          kind: "retrieval",
          text: outcome.text,
          ...(outcome.continuation ? { continuation: outcome.continuation } : {}),
          ...(outcome.outputId ? { outputId: outcome.outputId } : {}),
          ...(outcome.isError ? { isError: true } : {}),
        },
        status: outcome.isError ? "error" : "ok",
        storedBytes: 0,
        ...(outcome.outputId ? { readOutputId: outcome.outputId } : {}),
      };
    case "note":
      return { ref: { kind: "note", text: outcome.text }, status: "ok", storedBytes: 0 };
    case "final":
      return {
        ref: { kind: "note", text: "Final report received." },
        status: "ok",
        finalReport: outcome.report,
        storedBytes: 0,
      };
    case "batch":
      return { ref: { kind: "batch", items: outcome.items }, status: "ok", storedBytes: 0 };
    case "error":
      return errorResult(outcome.code, outcome.message);
  }
}

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
  const input: ToolCallInput = {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    argsText: call.argsText,
    args: call.args,
  };
  let outcome: ToolOutcome;
  try {
    outcome = await handler.run(input, context.signal);
  } catch (error) {
    if (context.signal.aborted)
      return errorResult("ABORTED", `Tool ${call.toolName} was aborted with the session.`);
    if (isSpillwayError(error)) return errorResult(error.code, error.message);
    // A tool (or its adapter) threw something untyped: the model gets the message, the run goes on.
    return errorResult(
      "TOOL_FAILED",
      `Tool ${call.toolName} failed: ${(error as Error)?.message ?? String(error)}`,
    );
  }
  return settle(context, input, outcome);
}

/**
 * Runs a turn's tool calls in parallel (at most `toolConcurrency` at once). Each call is
 * recorded as running before it starts and gets exactly one result in the canonical history
 * when it ends. Returns the final report when one of them delivered it.
 */
export async function runToolCalls(
  context: SessionContext,
  calls: readonly ModelToolCall[],
  turn: number,
  allowed: ReadonlySet<string>,
): Promise<{ finalReport: string | null }> {
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
  await mapConcurrent(calls, context.settings.toolConcurrency, async (call) => {
    const started = performance.now();
    context.emit({
      type: "tool.start",
      sessionId: context.sessionId,
      turn,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
    });
    const result = await executeCall(context, call, allowed);
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
    context.accounting.addToolCall(durationMs, result.storedBytes);
    if (result.finalReport !== undefined && finalReport === null) finalReport = result.finalReport;
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
      ...(result.error ? { error: result.error } : {}),
    });
  });
  return { finalReport };
}

import { abortReasonText, type Settlement } from "../async/background.js";
import { failureText, settleContent } from "../async/settle-content.js";
import { isTextStream } from "../core/text-stream.js";
import type { OutputRecord } from "../store/output-store.js";
import { type CallResult, settleOutcome, thrownResult } from "./call-result.js";
import { originOf } from "./intercept.js";
import { asyncSettingsOf, type SessionContext } from "./session-context.js";
import type { ToolCallInput, ToolHandler, ToolOutcome } from "./tool-types.js";

/**
 * Async tool execution (decisions D3-13, D3-17, D3-18): a tool call races the time trigger;
 * the tool that wins is settled as usual (then the size trigger may apply), the timer that wins
 * hands the still-running call to the session's background tools and answers the model with
 * the call's async id at once. An async sub-agent (`async: true`) starts in the background.
 * Either way the result is stored when the tool settles, whether or not the model asks.
 */

/**
 * Sub-agents take `async: true` to run in the background from the start. A call without a
 * valid task runs at once instead, so its error comes back in the same turn.
 */
export function wantsExplicitAsync(handler: ToolHandler, args: unknown): boolean {
  if (handler.kind !== "subagent" || typeof args !== "object" || args === null) return false;
  const { async, task } = args as { async?: unknown; task?: unknown };
  return async === true && typeof task === "string" && task.trim() !== "";
}

type Race<T> =
  | { readonly won: "tool"; readonly value: PromiseSettledResult<T> }
  | { readonly won: "timer" };

/** Waits for `work` or `ms`, whichever ends first; never rejects. */
async function raceTimer<T>(work: Promise<T>, ms: number): Promise<Race<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Race<T>>((resolve) => {
    timer = setTimeout(() => resolve({ won: "timer" }), ms);
  });
  const settled = work.then(
    (value): Race<T> => ({ won: "tool", value: { status: "fulfilled", value } }),
    (reason: unknown): Race<T> => ({ won: "tool", value: { status: "rejected", reason } }),
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function asyncResult(
  context: SessionContext,
  input: ToolCallInput,
  record: OutputRecord,
  trigger: "time" | "explicit",
): CallResult {
  // get_tool_output is listed from now on: the id is readable once the tool settles.
  context.state.hasStoredOutputs = true;
  // Its content is not in the context either: a report giving its id is sent back.
  context.state.shownByHandle.add(record.id);
  context.emit({
    type: "tool.async",
    sessionId: context.sessionId,
    toolCallId: input.toolCallId,
    toolName: input.toolName,
    outputId: record.id,
    trigger,
  });
  return {
    ref: { kind: "async", outputId: record.id, trigger },
    status: "ok",
    outputId: record.id,
    storedBytes: 0,
    async: true,
  };
}

/** How a call that may go async is run. */
export interface AsyncRunOptions {
  /**
   * Whether the call's duration is accounted here when it settles in the background (false
   * inside agent__batch: the batch is accounted as one call).
   */
  readonly accounted: boolean;
}

/**
 * Runs an MCP tool or a sub-agent under the async triggers. Returns the settled result when
 * the tool ends before `asyncTimeoutSecs` (or when the background is full: the call then
 * blocks as without async), else the async id.
 */
export async function runAsyncCapable(
  context: SessionContext,
  input: ToolCallInput,
  handler: ToolHandler,
  options: AsyncRunOptions,
): Promise<CallResult> {
  const settings = asyncSettingsOf(context.settings);
  const startedAt = context.clock();
  const started = performance.now();
  const origin = {
    sessionId: context.sessionId,
    toolName: input.toolName,
    toolArgs: input.argsText,
    toolCallId: input.toolCallId,
    createdAt: startedAt,
  };
  const job = { toolCallId: input.toolCallId, toolName: input.toolName, startedAt };
  const settler =
    (record: OutputRecord) => (result: PromiseSettledResult<unknown>, abortReason: string | null) =>
      settleInBackground(context, input, record, { started, ...options }, result, abortReason);
  if (wantsExplicitAsync(handler, input.args)) {
    const record = await context.outputs.begin(origin);
    context.background.start(
      { ...job, outputId: record.id },
      (signal) => handler.run(input, AbortSignal.any([context.signal, signal])),
      settler(record),
    );
    return asyncResult(context, input, record, "explicit");
  }
  const controller = new AbortController();
  const work = handler.run(input, AbortSignal.any([context.signal, controller.signal]));
  const race = await raceTimer(work, settings.timeoutSecs * 1000);
  if (race.won === "timer" && context.background.reserve()) {
    let record: OutputRecord | undefined;
    try {
      record = await context.outputs.begin(origin);
    } catch (error) {
      // No record, no handle to give out: the call blocks as without async.
      context.background.release();
      context.emit({
        type: "warning",
        sessionId: context.sessionId,
        message: `${input.toolName} could not go on in the background (${(error as Error)?.message ?? String(error)}); waiting for it`,
      });
    }
    if (record) {
      context.background.adopt({ ...job, outputId: record.id }, controller, work, settler(record));
      return asyncResult(context, input, record, "time");
    }
  }
  // The tool won, or the background is at its cap: the call blocks until the tool ends.
  const settled: PromiseSettledResult<ToolOutcome> =
    race.won === "tool"
      ? race.value
      : await work.then(
          (value) => ({ status: "fulfilled", value }) as const,
          (reason: unknown) => ({ status: "rejected", reason }) as const,
        );
  if (settled.status === "rejected")
    return thrownResult(settled.reason, input.toolName, context.signal.aborted);
  return settleOutcome(context, input, settled.value);
}

/**
 * Stores a background call's result in its output record (begun when it went async): content
 * makes it ready; a tool error, a thrown error or an abort makes it failed with the reason.
 * Content that arrived is kept even when an abort came after it.
 */
async function settleInBackground(
  context: SessionContext,
  input: ToolCallInput,
  record: OutputRecord,
  timing: { readonly started: number; readonly accounted: boolean },
  result: PromiseSettledResult<unknown>,
  abortReason: string | null,
): Promise<Settlement> {
  let settlement: Settlement;
  try {
    settlement = await storeSettlement(context, input, record, result, abortReason);
  } catch (error) {
    // Storing failed (disk, size limit): the record must not stay "running" forever.
    const reason = `storing the result failed: ${failureText(error)}`;
    await context.outputs.fail(record.id, reason).catch(() => {
      // The record was settled already, or the store is gone: the job still says why.
    });
    settlement = { status: "failed", error: reason };
  }
  const durationMs = performance.now() - timing.started;
  if (timing.accounted)
    context.accounting.addToolCall(
      durationMs,
      settlement.status === "ready" ? settlement.bytes : 0,
    );
  context.emit({
    type: "tool.done",
    sessionId: context.sessionId,
    toolCallId: input.toolCallId,
    toolName: input.toolName,
    outputId: record.id,
    status: settlement.status,
    durationMs,
    ...(settlement.status === "ready" ? { bytes: settlement.bytes } : { error: settlement.error }),
  });
  return settlement;
}

async function storeSettlement(
  context: SessionContext,
  input: ToolCallInput,
  record: OutputRecord,
  result: PromiseSettledResult<unknown>,
  abortReason: string | null,
): Promise<Settlement> {
  const fail = async (status: "failed" | "aborted", error: string): Promise<Settlement> => {
    await context.outputs.fail(record.id, status === "aborted" ? `aborted: ${error}` : error);
    return { status, error: status === "aborted" ? `aborted: ${error}` : error };
  };
  // The session's own abort (Ctrl-C, a caller's signal) names the real reason.
  const abortedBy = context.signal.aborted ? abortReasonText(context.signal.reason) : abortReason;
  if (result.status === "rejected")
    return abortedBy !== null
      ? fail("aborted", abortedBy)
      : fail("failed", failureText(result.reason));
  const outcome = result.value as ToolOutcome;
  // A tool that answered its cancellation with an error (a sub-agent reports "ended aborted")
  // was aborted, not failed.
  const isFailure = outcome.type === "error" || (outcome.type === "content" && outcome.isError);
  if (abortedBy !== null && isFailure) {
    if (outcome.type === "content" && isTextStream(outcome.text)) await outcome.text.release();
    return fail("aborted", abortedBy);
  }
  switch (outcome.type) {
    case "content":
      return settleContent(context.outputs, originOf(context, input), record, outcome);
    case "error":
      return fail("failed", `${outcome.code}: ${outcome.message}`);
    default: {
      // MCP tools and sub-agents answer with content; anything else is stored as its text.
      const text =
        "text" in outcome
          ? outcome.text
          : "report" in outcome
            ? outcome.report
            : JSON.stringify(outcome);
      return settleContent(context.outputs, originOf(context, input), record, {
        text,
        isError: false,
      });
    }
  }
}

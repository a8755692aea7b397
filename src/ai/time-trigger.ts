import { z } from "zod";
import { abortReasonText, type Settlement } from "../async/background.js";
import { failureText, settleContent } from "../async/settle-content.js";
import type { OutputRecord } from "../store/output-store.js";
import { asyncRunningText } from "../surfaces/async-texts.js";
import type { CallInfo, SpillwaySession } from "./session.js";
import { storedContentOf } from "./stored-content.js";

/**
 * What a call that went on in the background (the async time trigger) gives the loop in place
 * of its output: the handle its result will be stored under. Plain JSON, so it survives UI
 * messages. The model is told the id and to retrieve it once the notice shows it ready.
 */
export interface SpillwayBackgroundOutput {
  readonly spillway: "background";
  readonly outputId: string;
  readonly toolName: string;
  /** What the model is shown (D3-13). */
  readonly message: string;
}

const backgroundOutput = z
  .object({
    spillway: z.literal("background"),
    outputId: z.string(),
    toolName: z.string(),
    message: z.string(),
  })
  .strict();

/**
 * True for the placeholder output of a call that went on in the background.
 *
 * @example
 * for (const result of steps.flatMap((s) => s.toolResults))
 *   if (isBackgroundOutput(result.output)) console.log("still running:", result.output.outputId);
 */
export function isBackgroundOutput(value: unknown): value is SpillwayBackgroundOutput {
  return backgroundOutput.safeParse(value).success;
}

/**
 * Stores a background call's result in the record begun when it went async: a value makes it
 * ready; a throw, an abort or an MCP error result makes it failed with the reason.
 */
async function settle(
  session: SpillwaySession,
  call: CallInfo,
  record: OutputRecord,
  result: PromiseSettledResult<unknown>,
  abortReason: string | null,
): Promise<Settlement> {
  const outputs = await session.store();
  if (result.status === "rejected") {
    const error = abortReason !== null ? `aborted: ${abortReason}` : failureText(result.reason);
    await outputs.fail(record.id, error);
    return { status: abortReason !== null ? "aborted" : "failed", error };
  }
  return settleContent(outputs, session.origin(call), record, storedContentOf(result.value));
}

type Race<T> = { readonly won: "tool"; readonly value: T } | { readonly won: "timer" };

/** Waits for `work` until `deadline` (ms on the performance clock); never rejects by itself. */
export async function raceDeadline<T>(work: Promise<T>, deadline: number): Promise<Race<T>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Race<T>>((resolve) => {
    timer = setTimeout(() => resolve({ won: "timer" }), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([work.then((value): Race<T> => ({ won: "tool", value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Hands a still-running call to the conversation's background tools: its record is begun now
 * (the handle the model gets), and its result is stored when `work` settles, whether or not
 * the model asks. Undefined when the background is at its cap (the call then blocks as
 * without async).
 */
export async function handOver(
  session: SpillwaySession,
  call: CallInfo,
  controller: AbortController,
  work: Promise<unknown>,
  startedAt: number,
  loopSignal: AbortSignal | undefined,
): Promise<SpillwayBackgroundOutput | undefined> {
  const background = await session.background();
  if (!background.reserve()) return undefined;
  let record: OutputRecord;
  try {
    record = await (await session.store()).begin({ ...session.origin(call), createdAt: startedAt });
  } catch (error) {
    // No record, no handle to give out: give the place back and let the error reach the loop.
    background.release();
    throw error;
  }
  // The loop's abort ends the call in the background too, and names the reason.
  const onAbort = () => controller.abort(loopSignal?.reason);
  if (loopSignal?.aborted) onAbort();
  else loopSignal?.addEventListener("abort", onAbort, { once: true });
  background.adopt(
    { outputId: record.id, toolCallId: call.toolCallId, toolName: call.toolName, startedAt },
    controller,
    work,
    (result, abortReason) => {
      loopSignal?.removeEventListener("abort", onAbort);
      return settle(session, call, record, result, abortReason);
    },
  );
  await session.announce(record.id);
  return {
    spillway: "background",
    outputId: record.id,
    toolName: call.toolName,
    message: asyncRunningText(record.id, call.toolName),
  };
}

export { abortReasonText };

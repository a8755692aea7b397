import { isSpillwayError } from "../core/errors.js";
import type { AgentRunResult } from "./run-types.js";
import type { SessionContext } from "./session-context.js";
import type { LoopEnd } from "./session-loop.js";

/**
 * How a loop that threw ends: aborted when the run was aborted, failed with the error's code
 * for a typed error. Anything else is a bug: `undefined`, so the caller records the session
 * as failed and rethrows.
 */
export function endOfThrownLoop(error: unknown, aborted: boolean): LoopEnd | undefined {
  if (aborted) return { status: "aborted", error: "The run was aborted." };
  if (isSpillwayError(error))
    return { status: "failed", error: `${error.code}: ${error.message}`, report: null };
  return undefined;
}

/**
 * The session-end bookkeeping, in one place for every way a session ends: the session record
 * (status, report, error, turns, accounting), the `session.end` event and the trace flush.
 */
export async function finishSession(
  context: SessionContext,
  end: LoopEnd,
): Promise<AgentRunResult> {
  const report = end.status === "completed" || end.status === "failed" ? end.report : null;
  const error = end.status === "completed" ? null : end.error;
  const usage = context.accounting.report();
  await context.history.updateSession(context.sessionId, {
    status: end.status,
    finalReport: report,
    error,
    turns: context.state.turn,
    accounting: usage,
  });
  context.emit({
    type: "session.end",
    sessionId: context.sessionId,
    status: end.status,
    report,
    error,
    usage,
  });
  await context.trace.flush();
  return {
    sessionId: context.sessionId,
    status: end.status,
    report,
    error,
    turns: context.state.turn,
    usage,
    tracePath: context.trace.path,
  };
}

import type { HistoryStore } from "../store/history.js";
import type { OutputStore } from "../store/output-store.js";
import type { SessionContext } from "./session-context.js";

const ABORTED_MESSAGE =
  "The run stopped before this tool call finished (the process ended); it was not retried. Call the tool again if you still need it.";

/**
 * Restores the pairing invariant after a crash: every tool call in the history gets exactly
 * one result. Calls recorded as running, and calls the model made but that never started,
 * get an explicit ABORTED error result.
 */
export async function repairHistory(history: HistoryStore, sessionId: string): Promise<number> {
  const messages = await history.messages(sessionId);
  const answered = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts)
      if (part.type === "tool-result") answered.add(part.toolCallId);
  }
  const records = new Map(
    (await history.toolCalls(sessionId)).map((call) => [call.toolCallId, call]),
  );
  let repaired = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== "tool-call" || answered.has(part.toolCallId)) continue;
      if (!records.has(part.toolCallId)) {
        await history.startToolCall({
          sessionId,
          toolCallId: part.toolCallId,
          turn: message.turn,
          toolName: part.toolName,
          argsText: part.argsText,
          startedAt: message.createdAt,
        });
      }
      await history.finishToolCall(
        sessionId,
        part.toolCallId,
        { status: "aborted", error: "the run stopped before the tool finished" },
        {
          turn: message.turn,
          toolName: part.toolName,
          ref: { kind: "error", code: "ABORTED", message: ABORTED_MESSAGE },
        },
      );
      answered.add(part.toolCallId);
      repaired++;
    }
  }
  return repaired;
}

/**
 * Background tools die with their process: on resume, outputs of the session still recorded as
 * running are marked failed (aborted), so the notice and get_tool_output say what happened.
 */
export async function failInterruptedOutputs(
  outputs: OutputStore,
  sessionId: string,
): Promise<number> {
  let failed = 0;
  for (;;) {
    const running = await outputs.list({ sessionId, status: "running", limit: 500 });
    if (running.length === 0) return failed;
    for (const record of running) {
      await outputs.fail(
        record.id,
        "aborted: the run stopped before the tool finished (the process ended)",
      );
      failed++;
    }
  }
}

/** Rebuilds the in-memory state of a resumed session from its canonical history. */
export async function restoreState(context: SessionContext): Promise<void> {
  const session = await context.history.getSession(context.sessionId);
  context.state.turn = session.turns;
  for (const message of await context.history.messages(context.sessionId)) {
    for (const part of message.parts) {
      if (part.type !== "tool-result") continue;
      if (
        part.result.kind === "async" ||
        (part.result.kind === "output" &&
          (part.result.shown === "handle" ||
            part.result.shown === "continuation" ||
            part.result.shown === "ready"))
      ) {
        context.state.hasStoredOutputs = true;
      }
    }
  }
  // A compaction summary names handles the model may read again.
  const summaries = await context.history.summaries(context.sessionId);
  if (summaries.some((s) => s.calls.some((c) => c.outputIds.length > 0)))
    context.state.hasStoredOutputs = true;
}

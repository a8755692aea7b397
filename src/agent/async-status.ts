import type { HistoryMessage, ToolResultRef } from "../store/history.js";
import { asyncOutputStatuses } from "../surfaces/async-statuses.js";
import type { AsyncOutputStatus } from "../surfaces/async-texts.js";
import type { SessionContext } from "./session-context.js";

/** The output ids of async results in a ref (a batch's items included). */
function asyncOutputIds(ref: ToolResultRef, into: string[]): void {
  if (ref.kind === "async") into.push(ref.outputId);
  else if (ref.kind === "output" && ref.shown === "ready") into.push(ref.outputId);
  else if (ref.kind === "batch") for (const item of ref.items) asyncOutputIds(item.ref, into);
}

/**
 * The session's async outputs (time-triggered, explicit and size-triggered) with their status
 * as the store has it now, oldest first: what the System Notice's Async Tool Status shows.
 * Read from the canonical history and the store, so a resumed session shows them too.
 */
export async function asyncOutputsOf(
  context: SessionContext,
  history: readonly HistoryMessage[],
): Promise<AsyncOutputStatus[]> {
  const ids: string[] = [];
  for (const message of history) {
    for (const part of message.parts)
      if (part.type === "tool-result") asyncOutputIds(part.result, ids);
  }
  return asyncOutputStatuses(context.outputs, { sessionId: context.sessionId }, ids);
}

import { isSpillwayError } from "../core/errors.js";
import type { HistoryMessage, ToolResultRef } from "../store/history.js";
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
  const statuses: AsyncOutputStatus[] = [];
  for (const id of new Set(ids)) {
    try {
      const record = await context.outputs.get(id, { sessionId: context.sessionId });
      statuses.push({
        id,
        toolName: record.toolName,
        status: record.status,
        tokens: record.tokenEstimate,
        startedAt: record.createdAt,
        reads: record.readCount,
        error: record.error,
      });
    } catch (error) {
      // A record that cannot be read is left out of the notice; its tool result says what it was.
      if (!isSpillwayError(error, "OUTPUT_NOT_FOUND")) throw error;
    }
  }
  return statuses;
}

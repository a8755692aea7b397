import { isSpillwayError } from "../core/errors.js";
import type { AsyncOutputStatus } from "../surfaces/async-texts.js";
import type { SessionContext } from "./session-context.js";

/**
 * The session's async outputs (time-triggered, explicit and size-triggered) with their status
 * as the store has it now, oldest first: what the System Notice's Async Tool Status shows.
 * The ids come from the projection's tail (the canonical history, read once per message), so
 * a resumed session shows them too; settled ones a compaction covered are left out.
 */
export async function asyncOutputsOf(
  context: SessionContext,
  ids: Iterable<string>,
): Promise<AsyncOutputStatus[]> {
  const statuses: AsyncOutputStatus[] = [];
  for (const id of ids) {
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

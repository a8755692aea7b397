import { isSpillwayError } from "../core/errors.js";
import type { OutputStore, ReadScope } from "../store/output-store.js";
import type { AsyncOutputStatus } from "./async-texts.js";

/**
 * The status of async outputs (time-triggered, explicit and size-triggered) as the store has
 * them now, in the order given, each id once: what the System Notice's Async Tool Status shows.
 * Read from the store, so a resumed session (or another process) shows them too. An id the
 * store does not know is left out: the tool result that named it says what it was.
 *
 * @example
 * const statuses = await asyncOutputStatuses(store, { sessionId }, ["out_a", "out_b"]);
 * statuses[0]; // { id: "out_a", toolName: "fetch_logs", status: "running", … }
 */
export async function asyncOutputStatuses(
  outputs: OutputStore,
  scope: ReadScope,
  ids: Iterable<string>,
): Promise<AsyncOutputStatus[]> {
  const statuses: AsyncOutputStatus[] = [];
  for (const id of new Set(ids)) {
    try {
      const record = await outputs.get(id, scope);
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
      if (!isSpillwayError(error, "OUTPUT_NOT_FOUND")) throw error;
    }
  }
  return statuses;
}

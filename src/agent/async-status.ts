import { asyncOutputStatuses } from "../surfaces/async-statuses.js";
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
  return asyncOutputStatuses(context.outputs, { sessionId: context.sessionId }, [...ids]);
}

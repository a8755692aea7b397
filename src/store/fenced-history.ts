/**
 * Fencing a run that lost its session's lease: a worker that stalled past its lease (or lost
 * its database) may find another worker continuing the session. From the moment it knows, or
 * its own clock says the lease ran out, every history write of its run fails with LEASE_LOST,
 * so the two never interleave turns in one session's canonical history. Reads stay open.
 */
import { SpillwayError } from "../core/errors.js";
import type { HistoryStore } from "./history.js";
import type { SpillwayStores } from "./stores.js";

/**
 * The history store a run writes through, refusing writes once `lost()` gives a reason.
 *
 * @example
 * const lease = keepLease(stores.leases, "ses_1", holder, 30_000, () => run.abort());
 * const history = fencedHistory(stores.history, lease.lost);
 */
export function fencedHistory(history: HistoryStore, lost: () => string | undefined): HistoryStore {
  const guard =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const reason = lost();
      if (reason !== undefined)
        throw new SpillwayError(
          "LEASE_LOST",
          `This worker no longer holds the session's lease (${reason}); another worker may be running it, so this run stops without writing.`,
          { reason },
          { fault: "internal" },
        );
      return write(...args);
    };
  return {
    createSession: guard((s) => history.createSession(s)),
    getSession: (id) => history.getSession(id),
    listSessions: (filter) => history.listSessions(filter),
    updateSession: guard((id, patch) => history.updateSession(id, patch)),
    appendMessage: guard((id, turn, role, parts) => history.appendMessage(id, turn, role, parts)),
    messages: (id, options) => history.messages(id, options),
    startToolCall: guard((call) => history.startToolCall(call)),
    finishToolCall: guard((id, callId, outcome, result) =>
      history.finishToolCall(id, callId, outcome, result),
    ),
    toolCalls: (id) => history.toolCalls(id),
    appendSummary: guard((summary) => history.appendSummary(summary)),
    summaries: (id) => history.summaries(id),
  };
}

/**
 * The same stores with their history fenced by `lost` (outputs stay writable: a stored output
 * is content-addressed and harmless; it is the history that must have one writer).
 *
 * @example
 * await runAgent({ resume: "ses_1", prompt, stores: fencedStores(stores, lease.lost) });
 */
export function fencedStores(
  stores: SpillwayStores,
  lost: () => string | undefined,
): SpillwayStores {
  return Object.create(stores, {
    history: { value: fencedHistory(stores.history, lost), enumerable: true },
  }) as SpillwayStores;
}

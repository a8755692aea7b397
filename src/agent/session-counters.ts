import type { HistoryStore, SessionRecord, SummaryRecord } from "../store/history.js";
import type { UsageReport } from "./accounting.js";
import type { ContextUsage } from "./context-usage.js";
import { FINAL_REPORT, TASK_STATUS } from "./internal-tools.js";
import { bannerInParts } from "./invariants.js";
import { WAIT_FOR_TOOL_OUTPUT } from "./wait-tool.js";

/**
 * The long-session counters of a session, computed from its canonical history (so they hold for any
 * stored session, resumed or crashed, and agree with what the store says).
 */
export interface HistoryCounters {
  /** Tool calls the session made. */
  toolCalls: number;
  /** Canonical messages whose tool results carry a projection's shortening banner (target 0). */
  truncatedCanonicalWrites: number;
  /** Tool calls with no result in the history; a running session's last calls are in flight (target 0). */
  missingToolResults: number;
  /** Calls of a tool with the same arguments as an earlier call of the session. */
  refetches: number;
  /** Compaction summaries stored. */
  compactions: number;
  /** Compactions that failed and fell back to handle-form shortening (from the accounting). */
  compactionFailures: number;
  /** Projection tokens the compactions removed (before minus after, summed). */
  tokensSaved: number;
}

export function emptyCounters(): HistoryCounters {
  return {
    toolCalls: 0,
    truncatedCanonicalWrites: 0,
    missingToolResults: 0,
    refetches: 0,
    compactions: 0,
    compactionFailures: 0,
    tokensSaved: 0,
  };
}

/** Repeating these is not fetching anything again. */
const NOT_REFETCHES = new Set([FINAL_REPORT, TASK_STATUS, WAIT_FOR_TOOL_OUTPUT]);

function usageOf(session: SessionRecord): UsageReport | null {
  const usage = session.accounting as UsageReport | null;
  return usage?.total ? usage : null;
}

/**
 * The counters of one session.
 *
 * @example
 * const counters = await sessionCounters(stores.history, "ses_…");
 * counters.missingToolResults; // 0
 */
export async function sessionCounters(
  history: HistoryStore,
  sessionId: string,
): Promise<HistoryCounters> {
  const session = await history.getSession(sessionId);
  const messages = await history.messages(sessionId);
  const calls = await history.toolCalls(sessionId);
  const summaries = await history.summaries(sessionId);
  const counters = emptyCounters();
  const answered = new Set<string>();
  const made: { toolCallId: string; seq: number }[] = [];
  let lastAssistant = 0;
  for (const message of messages) {
    if (bannerInParts(message.parts) !== undefined) counters.truncatedCanonicalWrites++;
    if (message.role === "assistant") lastAssistant = message.seq;
    for (const part of message.parts) {
      if (part.type === "tool-result") answered.add(part.toolCallId);
      else if (part.type === "tool-call")
        made.push({ toolCallId: part.toolCallId, seq: message.seq });
    }
  }
  // While a session runs, the calls of its last assistant message may still be running.
  const live = session.status === "running";
  counters.toolCalls = made.length;
  for (const call of made) {
    if (answered.has(call.toolCallId)) continue;
    if (live && call.seq === lastAssistant) continue;
    counters.missingToolResults++;
  }
  const seen = new Set<string>();
  for (const call of calls) {
    if (NOT_REFETCHES.has(call.toolName)) continue;
    const key = `${call.toolName}\u0000${call.argsText}`;
    if (seen.has(key)) counters.refetches++;
    else seen.add(key);
  }
  counters.compactions = summaries.length;
  counters.tokensSaved = summaries.reduce((sum, s) => sum + (s.tokensBefore - s.tokensAfter), 0);
  counters.compactionFailures = usageOf(session)?.compaction?.failures ?? 0;
  return counters;
}

function add(into: HistoryCounters, more: HistoryCounters): void {
  for (const key of Object.keys(into) as (keyof HistoryCounters)[]) into[key] += more[key];
}

/**
 * The counters of every session in the store (sub-agent sessions included), summed.
 *
 * @example
 * const { sessions, total } = await storeCounters(stores.history);
 */
export async function storeCounters(
  history: HistoryStore,
): Promise<{ sessions: number; total: HistoryCounters }> {
  const total = emptyCounters();
  let sessions = 0;
  const page = 500;
  for (let offset = 0; ; offset += page) {
    const batch = await history.listSessions({ limit: page, offset });
    for (const session of batch) {
      add(total, await sessionCounters(history, session.id));
      sessions++;
    }
    if (batch.length < page) break;
  }
  return { sessions, total };
}

/** A compaction as status data: the summary record without its texts. */
export type CompactionInfo = Omit<SummaryRecord, "summary" | "text" | "calls"> & {
  readonly coveredCalls: number;
};

/** What a session reports about its long-horizon health (for `sessions show` and an HTTP API). */
export interface SessionHealth {
  readonly sessionId: string;
  readonly status: SessionRecord["status"];
  readonly counters: HistoryCounters;
  /** The last projection's context use against the thresholds (null before the first turn). */
  readonly context: ContextUsage | null;
  readonly compactions: readonly CompactionInfo[];
}

/**
 * A session's counters, compactions and last context use, from the store.
 *
 * @example
 * const health = await sessionHealth(stores.history, "ses_…");
 * health.context?.level; // "ok" | "warn" | "compact" | "hard"
 */
export async function sessionHealth(
  history: HistoryStore,
  sessionId: string,
): Promise<SessionHealth> {
  const session = await history.getSession(sessionId);
  const counters = await sessionCounters(history, sessionId);
  const summaries = await history.summaries(sessionId);
  return {
    sessionId,
    status: session.status,
    counters,
    context: usageOf(session)?.context ?? null,
    compactions: summaries.map(({ summary: _s, text: _t, calls, ...rest }) => ({
      ...rest,
      coveredCalls: calls.length,
    })),
  };
}

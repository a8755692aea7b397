/**
 * The long-session part of `spillway sessions show`: the long-session counters (this session and
 * the whole store), the context use of the last projection against the thresholds, and each
 * compaction.
 */
import type { ContextUsage } from "../agent/context-usage.js";
import type { HistoryCounters, SessionHealth } from "../agent/session-counters.js";
import { formatCount } from "./format.js";

const pct = (fraction: number) => `${Math.round(fraction * 100)}%`;

function countersText(c: HistoryCounters): string {
  return (
    `${formatCount(c.compactions)} compaction${c.compactions === 1 ? "" : "s"} (${formatCount(c.compactionFailures)} failed) · ` +
    `${formatCount(c.tokensSaved)} tokens saved · ${formatCount(c.refetches)} refetch${c.refetches === 1 ? "" : "es"} of ${formatCount(c.toolCalls)} tool calls`
  );
}

function invariantsText(c: HistoryCounters): string {
  const ok = c.truncatedCanonicalWrites === 0 && c.missingToolResults === 0;
  return (
    `canonical writes with a truncation marker ${formatCount(c.truncatedCanonicalWrites)} · ` +
    `tool results missing ${formatCount(c.missingToolResults)} (target 0: ${ok ? "ok" : "VIOLATED"})`
  );
}

function contextText(u: ContextUsage): string {
  // The input window is in our counted tokens: the window less the reply, over the provider
  // family's tokenizer margin (a model's own tokenizer may split text finer than ours).
  const margin = (u.contextWindow - u.reservedOutputTokens) / Math.max(1, u.inputWindow);
  return (
    `${formatCount(u.tokens)} of ${formatCount(u.inputWindow)} tokens at turn ${u.turn} (${pct(u.used)}, ${u.level}) · ` +
    `warn ${pct(u.thresholds.warn)} · compact ${pct(u.thresholds.compact)}${u.compactionEnabled ? "" : " (off)"} · hard ${pct(u.thresholds.hard)} ` +
    `of the ${formatCount(u.contextWindow)}-token window less ${formatCount(u.reservedOutputTokens)} for the reply` +
    (margin >= 1.005 ? `, over a ${Number(margin.toFixed(2))}x tokenizer margin` : "")
  );
}

/** The `[label, value]` rows for a session's health and the store's totals. */
export function healthFields(
  health: SessionHealth,
  store: { readonly sessions: number; readonly total: HistoryCounters },
): [string, string][] {
  const rows: [string, string][] = [
    ["invariants", invariantsText(health.counters)],
    ["long session", countersText(health.counters)],
  ];
  if (health.context) rows.push(["context", contextText(health.context)]);
  for (const [i, c] of health.compactions.entries()) {
    const turns =
      c.fromTurn === c.throughTurn
        ? `turn ${c.throughTurn}`
        : `turns ${c.fromTurn}-${c.throughTurn}`;
    rows.push([
      i === 0 ? "compactions" : "",
      `#${c.seq} ${turns} (messages ${c.fromSeq}-${c.throughSeq}) · ${formatCount(c.tokensBefore)} → ${formatCount(c.tokensAfter)} tokens · ` +
        `${formatCount(c.coveredCalls)} ${c.coveredCalls === 1 ? "call" : "calls"}${c.indexOutputId ? ` · index ${c.indexOutputId}` : ""} · by ${c.model}`,
    ]);
  }
  rows.push([
    "store total",
    `${formatCount(store.sessions)} session${store.sessions === 1 ? "" : "s"}: ${invariantsText(store.total)} · ${countersText(store.total)}`,
  ]);
  return rows;
}

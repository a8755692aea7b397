/** Line texts of `spillway run` progress that need no progress state. */

import type { AgentEvent } from "../agent/events.js";
import { clipText } from "../core/clip-text.js";
import { formatBytes, formatCompact, formatDuration } from "./format.js";

export type RunEvent = AgentEvent & { readonly depth: number };
type EventOf<T extends string> = Extract<RunEvent, { type: T }>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "tool slow (background) → out_x 12 KB ready · 7.20 s", or how it failed. */
export function backgroundDoneLine(event: EventOf<"tool.done">): string {
  const head = `tool ${event.toolName} (background) → ${event.outputId}`;
  const took = formatDuration(event.durationMs);
  if (event.status === "ready") return `${head} ${formatBytes(event.bytes ?? 0)} ready · ${took}`;
  // An aborted job's error already starts with "aborted: ".
  const error = (event.error ?? "error").replace(/^aborted: /, "");
  return `${head} ${event.status} after ${took}: ${clipText(error, 300)}`;
}

/** How an extraction ended: "full-chunked: found · 3 verified quotes (1 dropped) · 4.20 s", … */
export function extractionOutcome(event: EventOf<"extraction.end">): string {
  const took = formatDuration(event.durationMs);
  if (event.fallbackFrom !== undefined) {
    return `${event.fallbackFrom} FELL BACK to ${event.strategy} after ${took}: ${clipText(event.reason ?? "it could not run", 300)}`;
  }
  const dropped = event.unverified > 0 ? ` (${event.unverified} dropped)` : "";
  const result =
    event.strategy === "truncate"
      ? "head and tail"
      : event.found
        ? `found · ${plural(event.snippets, "verified quote")}${dropped}`
        : "nothing relevant";
  return `${event.strategy}: ${result} · ${event.cached ? "cached" : took}`;
}

/** "compacted turns 1-37 into summary 2: 28.1k → 13.9k tokens · 412 calls indexed · 3.10 s", or the fallback. */
export function compactionLine(event: EventOf<"compaction">): string {
  const tokens = `${formatCompact(event.tokensBefore)} → ${formatCompact(event.tokensAfter)} tokens`;
  if (event.status === "failed")
    return `compaction FAILED (${event.code ?? "error"}: ${clipText(event.error ?? "", 200)}); fell back to handle form for ${plural(event.shortened ?? 0, "result")}: ${tokens}`;
  const turns =
    event.fromTurn === event.throughTurn
      ? `turn ${event.throughTurn}`
      : `turns ${event.fromTurn}-${event.throughTurn}`;
  return `compacted ${turns} into summary ${event.summary ?? "?"}${event.model ? ` by ${event.model}` : ""}: ${tokens} · ${plural(event.coveredCalls ?? 0, "call")} indexed · ${formatDuration(event.durationMs)}`;
}

/**
 * How often a policy's sessions repeated a call word for word, and what those sessions sent:
 * a repeated read of a stored output returns what it returned before, so its copies are
 * tokens spent on nothing new (docs/agent-runtime.md, `unchangedReads`).
 */
import type { LiveEpisode } from "./episode.js";

export interface RepeatFigures {
  readonly sessions: number;
  /** Sessions holding at least one call made before in the same session, arguments and all. */
  readonly withRepeat: number;
  /** Calls that repeated an earlier call of their session, over all sessions. */
  readonly repeatedCalls: number;
  /** Median input tokens of a session with a repeat, and of one without. */
  readonly medianTokensWithRepeat: number | null;
  readonly medianTokensWithout: number | null;
}

/** The calls of a session that repeat an earlier one of it (the report excluded). */
export function repeatedCalls(episode: Pick<LiveEpisode, "transcript">): number {
  const seen = new Set<string>();
  let repeats = 0;
  for (const { did } of episode.transcript) {
    if (did.startsWith("agent__final_report(")) continue;
    if (seen.has(did)) repeats++;
    seen.add(did);
  }
  return repeats;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The repeat figures of `episodes`.
 *
 * @example
 * repeatsOf(pool.episodes); // { sessions: 584, withRepeat: 285, repeatedCalls: 789, … }
 */
export function repeatsOf(episodes: readonly LiveEpisode[]): RepeatFigures {
  const counts = episodes.map((e) => ({ repeats: repeatedCalls(e), tokens: e.inputTokens }));
  const withRepeat = counts.filter((c) => c.repeats > 0);
  return {
    sessions: episodes.length,
    withRepeat: withRepeat.length,
    repeatedCalls: counts.reduce((sum, c) => sum + c.repeats, 0),
    medianTokensWithRepeat: median(withRepeat.map((c) => c.tokens)),
    medianTokensWithout: median(counts.filter((c) => c.repeats === 0).map((c) => c.tokens)),
  };
}

/** The figures as one sentence of the pool's report. */
export function repeatsSentence(figures: RepeatFigures): string {
  const tokens = (n: number | null) =>
    n === null ? "none" : Math.round(n).toLocaleString("en-US");
  return `Repeated calls: ${figures.withRepeat} of ${figures.sessions} sessions made a call they had made before, arguments and all (${figures.repeatedCalls} such call${figures.repeatedCalls === 1 ? "" : "s"}); median input tokens a session ${tokens(figures.medianTokensWithRepeat)} with a repeat, ${tokens(figures.medianTokensWithout)} without.`;
}

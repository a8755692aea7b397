/**
 * The live benchmark's figures per policy: recall with its Wilson 95% interval, invented values,
 * reads before answering, median tokens per right answer and seconds per task; and the same
 * split by shape and by question kind.
 */
import type { LiveEpisode } from "./episode.js";

export interface PolicyFigures {
  readonly episodes: number;
  readonly right: number;
  readonly recall: number;
  readonly recallLow: number;
  readonly recallHigh: number;
  readonly inventedRate: number;
  /** Of the episodes that ended in a report, those that read beyond the first result first. */
  readonly retrievalBeforeAnswerRate: number | null;
  /** Median over right answers of the session's input tokens (every request counted whole). */
  readonly medianTokensPerRightAnswer: number | null;
  readonly medianSecondsPerTask: number | null;
}

/**
 * The Wilson score interval of `right` successes in `n` trials at 95% (z = 1.96).
 *
 * @example
 * wilson(24, 30); // { low: 0.627, high: 0.905 } (rounded)
 */
export function wilson(right: number, n: number, z = 1.96): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = right / n;
  const z2 = z * z;
  const center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The figures of one set of episodes (one policy, or one policy on one shape). */
export function figuresOf(episodes: readonly LiveEpisode[]): PolicyFigures {
  const right = episodes.filter((e) => e.correct);
  const { low, high } = wilson(right.length, episodes.length);
  const reported = episodes.filter((e) => e.report !== null);
  const tokens = median(right.map((e) => e.inputTokens));
  const seconds = median(episodes.map((e) => e.seconds));
  return {
    episodes: episodes.length,
    right: right.length,
    recall: round(episodes.length === 0 ? 0 : right.length / episodes.length),
    recallLow: round(low),
    recallHigh: round(high),
    inventedRate: round(
      episodes.length === 0 ? 0 : episodes.filter((e) => e.invented).length / episodes.length,
    ),
    retrievalBeforeAnswerRate:
      reported.length === 0
        ? null
        : round(reported.filter((e) => e.readBeforeAnswer).length / reported.length),
    medianTokensPerRightAnswer: tokens === null ? null : Math.round(tokens),
    medianSecondsPerTask: seconds === null ? null : Math.round(seconds),
  };
}

/** Episodes grouped by a key, keys in first-seen order. */
export function groupBy<K extends string>(
  episodes: readonly LiveEpisode[],
  key: (e: LiveEpisode) => K,
): Map<K, LiveEpisode[]> {
  const groups = new Map<K, LiveEpisode[]>();
  for (const e of episodes) {
    const k = key(e);
    const list = groups.get(k);
    if (list) list.push(e);
    else groups.set(k, [e]);
  }
  return groups;
}

/** Figures per policy. */
export function policyFigures(episodes: readonly LiveEpisode[]): Record<string, PolicyFigures> {
  return Object.fromEntries(
    [...groupBy(episodes, (e) => e.policy)].map(([p, list]) => [p, figuresOf(list)]),
  );
}

/** Aggregates over episodes: recall, medians, and the headline figures with their targets. */
import { type Episode, POLICIES, type PolicyName, TRUNCATION_POLICIES } from "./episode.js";

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function recall(episodes: readonly Episode[]): number {
  return episodes.length === 0
    ? Number.NaN
    : episodes.filter((e) => e.correct).length / episodes.length;
}

export function byPolicy(episodes: readonly Episode[], policy: PolicyName): Episode[] {
  return episodes.filter((e) => e.policy === policy);
}

/** The headline figures (the `--json` line) and whether the targets are met. */
export interface Summary {
  readonly episodes: number;
  readonly tasks: number;
  readonly spillwayRecall: number;
  readonly spillwayExtractRecall: number;
  readonly bestTruncationRecall: number;
  readonly bestTruncationPolicy: PolicyName;
  readonly spillwayMedianTokensPerAnswer: number;
  readonly pagingMedianTokensPerAnswer: number;
  /** At the largest size run: medians and spillway's share of the output's tokens. */
  readonly largestSize: string;
  readonly spillwayMedianTokensAtLargest: number;
  readonly pagingMedianTokensAtLargest: number;
  readonly spillwayMedianShareOfOutputAtLargest: number;
  readonly spillwayLossless: boolean;
  readonly recallByPolicy: Record<PolicyName, number>;
  readonly targets: {
    readonly spillwayRecallIs100: boolean;
    readonly tokensAtLargestAtMost1PctOfOutput: boolean;
    readonly tokensAtLargestAtMostTenthOfPaging: boolean;
  };
}

export function summarize(episodes: readonly Episode[], sizes: readonly string[]): Summary {
  const recallByPolicy = Object.fromEntries(
    POLICIES.map((p) => [p, recall(byPolicy(episodes, p))]),
  ) as Record<PolicyName, number>;
  const truncation = TRUNCATION_POLICIES.map((p) => ({ p, r: recallByPolicy[p] })).filter(
    (x) => !Number.isNaN(x.r),
  );
  const best = truncation.reduce(
    (a, b) => (b.r > a.r ? b : a),
    truncation[0] ?? { p: "codex-head-tail" as PolicyName, r: Number.NaN },
  );
  const spillway = byPolicy(episodes, "spillway");
  const paging = byPolicy(episodes, "paging-4000");
  const largestSize = sizes.at(-1) ?? "";
  const atLargest = (list: Episode[]) => list.filter((e) => e.size === largestSize);
  const spillwayLargest = atLargest(spillway);
  const spillwayTokensLargest = median(spillwayLargest.map((e) => e.tokensExposed));
  const pagingTokensLargest = median(atLargest(paging).map((e) => e.tokensExposed));
  const share = median(spillwayLargest.map((e) => e.tokensExposed / Math.max(1, e.outputTokens)));
  const spillwayRecall = recallByPolicy.spillway;
  return {
    episodes: episodes.length,
    tasks: new Set(episodes.map((e) => e.taskId)).size,
    spillwayRecall,
    spillwayExtractRecall: recallByPolicy["spillway-extract"],
    bestTruncationRecall: best.r,
    bestTruncationPolicy: best.p,
    spillwayMedianTokensPerAnswer: median(spillway.map((e) => e.tokensExposed)),
    pagingMedianTokensPerAnswer: median(paging.map((e) => e.tokensExposed)),
    largestSize,
    spillwayMedianTokensAtLargest: spillwayTokensLargest,
    pagingMedianTokensAtLargest: pagingTokensLargest,
    spillwayMedianShareOfOutputAtLargest: share,
    spillwayLossless: episodes
      .filter((e) => e.policy === "spillway" || e.policy === "spillway-extract")
      .every((e) => e.lossless === true),
    recallByPolicy,
    targets: {
      spillwayRecallIs100: spillwayRecall === 1,
      tokensAtLargestAtMost1PctOfOutput: share <= 0.01,
      tokensAtLargestAtMostTenthOfPaging: spillwayTokensLargest <= pagingTokensLargest / 10,
    },
  };
}

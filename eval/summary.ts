/** Aggregates over episodes: recall, medians, and the headline figures with their targets. */
import { type Episode, POLICIES, type PolicyName, TRUNCATION_POLICIES } from "./episode.js";
import { SIZES } from "./workload.js";

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

/** Total tokens exposed over every task ÷ the tasks answered right: the cost of one right answer. */
export function tokensPerCorrectAnswer(episodes: readonly Episode[]): number {
  const correct = episodes.filter((e) => e.correct).length;
  return correct === 0
    ? Number.NaN
    : episodes.reduce((sum, e) => sum + e.tokensExposed, 0) / correct;
}

export function byPolicy(episodes: readonly Episode[], policy: PolicyName): Episode[] {
  return episodes.filter((e) => e.policy === policy);
}

/**
 * The headline figures (the `--json` line) and whether the targets are met. "Per answer"
 * medians are per task: every task ends in an answer, right or wrong, and its tokens are what
 * the model was shown until then. The cost of a right answer (all tokens ÷ right answers) and
 * the paired median (tasks both spillway and paging answered right) are given beside them.
 */
export interface Summary {
  readonly episodes: number;
  readonly tasks: number;
  readonly spillwayRecall: number;
  readonly spillwayExtractRecall: number;
  readonly bestTruncationRecall: number;
  readonly bestTruncationPolicy: PolicyName;
  readonly spillwayMedianTokensPerAnswer: number;
  readonly pagingMedianTokensPerAnswer: number;
  /** The largest output size in this run (by bytes); the figures below are at that size. */
  readonly largestSize: string;
  readonly spillwayMedianTokensAtLargest: number;
  readonly pagingMedianTokensAtLargest: number;
  readonly spillwayMedianShareOfOutputAtLargest: number;
  readonly spillwayTokensPerCorrectAnswerAtLargest: number;
  readonly pagingTokensPerCorrectAnswerAtLargest: number;
  /** Tasks at the largest size both answered right, and each one's median tokens on them. */
  readonly pairedAtLargest: {
    readonly tasks: number;
    readonly spillwayMedian: number;
    readonly pagingMedian: number;
  };
  /** The extraction model's tokens per task for spillway extract (median), a cost beside context. */
  readonly extractMedianExtractionTokens: number;
  /** Every spillway copy byte-identical after the run; null when no spillway policy ran. */
  readonly spillwayLossless: boolean | null;
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
  const bySize = SIZES.map((s) => s.label as string);
  const largestSize = [...sizes].sort((a, b) => bySize.indexOf(a) - bySize.indexOf(b)).at(-1) ?? "";
  const atLargest = (list: Episode[]) => list.filter((e) => e.size === largestSize);
  const spillwayLargest = atLargest(spillway);
  const pagingLargest = atLargest(paging);
  const spillwayTokensLargest = median(spillwayLargest.map((e) => e.tokensExposed));
  const pagingTokensLargest = median(pagingLargest.map((e) => e.tokensExposed));
  const share = median(spillwayLargest.map((e) => e.tokensExposed / Math.max(1, e.outputTokens)));
  const pagingRight = new Set(pagingLargest.filter((e) => e.correct).map((e) => e.taskId));
  const paired = spillwayLargest.filter((e) => e.correct && pagingRight.has(e.taskId));
  const pairedIds = new Set(paired.map((e) => e.taskId));
  const spillwayRecall = recallByPolicy.spillway;
  const stored = episodes.filter((e) => e.policy === "spillway" || e.policy === "spillway-extract");
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
    spillwayTokensPerCorrectAnswerAtLargest: tokensPerCorrectAnswer(spillwayLargest),
    pagingTokensPerCorrectAnswerAtLargest: tokensPerCorrectAnswer(pagingLargest),
    pairedAtLargest: {
      tasks: paired.length,
      spillwayMedian: median(paired.map((e) => e.tokensExposed)),
      pagingMedian: median(
        pagingLargest.filter((e) => pairedIds.has(e.taskId)).map((e) => e.tokensExposed),
      ),
    },
    extractMedianExtractionTokens: median(
      byPolicy(episodes, "spillway-extract").map((e) => e.extractionTokens ?? 0),
    ),
    spillwayLossless: stored.length === 0 ? null : stored.every((e) => e.lossless === true),
    recallByPolicy,
    targets: {
      spillwayRecallIs100: spillwayRecall === 1,
      tokensAtLargestAtMost1PctOfOutput: share <= 0.01,
      tokensAtLargestAtMostTenthOfPaging: spillwayTokensLargest <= pagingTokensLargest / 10,
    },
  };
}

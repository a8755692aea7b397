/** Aggregates over episodes: per-policy figures, the paired comparison with paging, the targets. */
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

/** All tokens sent over every task ÷ the tasks answered right: the cost of one right answer. */
export function tokensPerCorrectAnswer(episodes: readonly Episode[]): number {
  const correct = episodes.filter((e) => e.correct).length;
  return correct === 0 ? Number.NaN : episodes.reduce((sum, e) => sum + e.tokensSent, 0) / correct;
}

export function byPolicy(episodes: readonly Episode[], policy: PolicyName): Episode[] {
  return episodes.filter((e) => e.policy === policy);
}

/** Policies that offer no way to read more than they show. */
const NO_RETRIEVAL: readonly PolicyName[] = ["raw", ...TRUNCATION_POLICIES];

/** One policy's figures: the `--json` line holds one of these per policy. */
export interface PolicyFigures {
  /** Who played the agent: a real model's ref, or "scripted" (the blind stand-ins). */
  readonly model: string;
  readonly tasks: number;
  readonly recall: number;
  /**
   * Tasks where a retrieval call (a read, grep, page, command or extraction) came before the
   * final report; null for policies that offer none.
   */
  readonly retrievalBeforeAnswerRate: number | null;
  /** Tasks whose report states a code-like value no tool result showed. */
  readonly inventedRate: number;
  /** Median tokens sent (every request, whole) over the tasks answered right; null: none right. */
  readonly medianTokensPerRightAnswer: number | null;
  /** All tokens sent ÷ right answers. */
  readonly tokensPerRightAnswer: number | null;
  readonly medianTokensPerTask: number;
  readonly medianRequests: number;
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * The figures of one policy's episodes.
 *
 * @example
 * figuresOf(byPolicy(episodes, "spillway"), "spillway", "scripted").recall; // 0.97
 */
export function figuresOf(
  list: readonly Episode[],
  policy: PolicyName,
  model: string,
): PolicyFigures {
  const right = list.filter((e) => e.correct);
  return {
    model,
    tasks: list.length,
    recall: recall(list),
    retrievalBeforeAnswerRate: NO_RETRIEVAL.includes(policy)
      ? null
      : list.filter((e) => e.retrieved).length / Math.max(1, list.length),
    inventedRate: list.filter((e) => e.invented).length / Math.max(1, list.length),
    medianTokensPerRightAnswer: finite(median(right.map((e) => e.tokensSent))),
    tokensPerRightAnswer: finite(tokensPerCorrectAnswer(list)),
    medianTokensPerTask: median(list.map((e) => e.tokensSent)),
    medianRequests: median(list.map((e) => e.requests)),
  };
}

/** spillway against paging on the same tasks: those both answered right. */
export interface Paired {
  readonly tasks: number;
  readonly spillwayMedian: number;
  readonly pagingMedian: number;
  /** Median over those tasks of paging's tokens ÷ spillway's. */
  readonly medianRatio: number;
}

export function pairedWithPaging(episodes: readonly Episode[]): Paired {
  const paging = new Map(
    byPolicy(episodes, "paging-4000")
      .filter((e) => e.correct)
      .map((e) => [e.taskId, e]),
  );
  const pairs = byPolicy(episodes, "spillway").flatMap((s) => {
    const p = s.correct ? paging.get(s.taskId) : undefined;
    return p ? [{ s: s.tokensSent, p: p.tokensSent }] : [];
  });
  return {
    tasks: pairs.length,
    spillwayMedian: median(pairs.map((x) => x.s)),
    pagingMedian: median(pairs.map((x) => x.p)),
    medianRatio: median(pairs.map((x) => x.p / Math.max(1, x.s))),
  };
}

/** The headline figures (the `--json` line) and whether the targets are met. */
export interface Summary {
  readonly model: string;
  readonly episodes: number;
  readonly tasks: number;
  readonly policies: Partial<Record<PolicyName, PolicyFigures>>;
  readonly spillwayRecall: number;
  readonly spillwayExtractRecall: number;
  /** The best policy other than spillway's two, by recall. */
  readonly bestPeer: { readonly policy: PolicyName | null; readonly recall: number };
  readonly bestTruncationRecall: number;
  readonly bestTruncationPolicy: PolicyName;
  /** The largest output size in this run (by bytes); the figures below are at that size. */
  readonly largestSize: string;
  readonly spillwayMedianTokensAtLargest: number;
  readonly spillwayMedianShareOfOutputAtLargest: number;
  readonly pagingMedianTokensAtLargest: number;
  /** spillway and paging on the same tasks (both right), over all sizes and at the largest. */
  readonly paired: Paired;
  readonly pairedAtLargest: Paired;
  /** The extraction model's tokens per task for spillway extract (median), a cost beside context. */
  readonly extractMedianExtractionTokens: number;
  /** Every spillway copy byte-identical after the run; null when no spillway policy ran. */
  readonly spillwayLossless: boolean | null;
  readonly targets: {
    readonly spillwayRecallIs100: boolean;
    readonly tokensAtLargestAtMost1PctOfOutput: boolean;
    readonly pairedAtLargestAtMostTenthOfPaging: boolean;
  };
}

export function summarize(
  episodes: readonly Episode[],
  sizes: readonly string[],
  model: string,
): Summary {
  const present = POLICIES.filter((p) => episodes.some((e) => e.policy === p));
  const policies = Object.fromEntries(
    present.map((p) => [p, figuresOf(byPolicy(episodes, p), p, model)]),
  ) as Partial<Record<PolicyName, PolicyFigures>>;
  const recallOf = (p: PolicyName) => policies[p]?.recall ?? Number.NaN;
  const truncation = TRUNCATION_POLICIES.filter((p) => policies[p]);
  const best = truncation.reduce<PolicyName>(
    (a, b) => (recallOf(b) > recallOf(a) ? b : a),
    truncation[0] ?? "codex-head-tail",
  );
  const peers = present.filter((p) => !p.startsWith("spillway"));
  const bestPeer = peers.reduce<PolicyName | null>(
    (a, b) => (a === null || recallOf(b) > recallOf(a) ? b : a),
    null,
  );
  const bySize = SIZES.map((s) => s.label as string);
  const largestSize = [...sizes].sort((a, b) => bySize.indexOf(a) - bySize.indexOf(b)).at(-1) ?? "";
  const atLargest = (list: Episode[]) => list.filter((e) => e.size === largestSize);
  const spillwayLargest = atLargest(byPolicy(episodes, "spillway"));
  const spillwayTokensLargest = median(spillwayLargest.map((e) => e.tokensSent));
  const share = median(spillwayLargest.map((e) => e.tokensSent / Math.max(1, e.outputTokens)));
  const largestOnly = episodes.filter((e) => e.size === largestSize);
  const pairedAtLargest = pairedWithPaging(largestOnly);
  const stored = episodes.filter((e) => e.policy.startsWith("spillway"));
  return {
    model,
    episodes: episodes.length,
    tasks: new Set(episodes.map((e) => e.taskId)).size,
    policies,
    spillwayRecall: recallOf("spillway"),
    spillwayExtractRecall: recallOf("spillway-extract"),
    bestPeer: { policy: bestPeer, recall: bestPeer ? recallOf(bestPeer) : Number.NaN },
    bestTruncationRecall: recallOf(best),
    bestTruncationPolicy: best,
    largestSize,
    spillwayMedianTokensAtLargest: spillwayTokensLargest,
    spillwayMedianShareOfOutputAtLargest: share,
    pagingMedianTokensAtLargest: median(
      atLargest(byPolicy(episodes, "paging-4000")).map((e) => e.tokensSent),
    ),
    paired: pairedWithPaging(episodes),
    pairedAtLargest,
    extractMedianExtractionTokens: median(
      byPolicy(episodes, "spillway-extract").map((e) => e.extractionTokens ?? 0),
    ),
    spillwayLossless: stored.length === 0 ? null : stored.every((e) => e.lossless === true),
    targets: {
      spillwayRecallIs100: recallOf("spillway") === 1,
      tokensAtLargestAtMost1PctOfOutput: share <= 0.01,
      pairedAtLargestAtMostTenthOfPaging:
        pairedAtLargest.tasks > 0 &&
        pairedAtLargest.spillwayMedian <= pairedAtLargest.pagingMedian / 10,
    },
  };
}

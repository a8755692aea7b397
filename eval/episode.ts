/** One task played by one policy, and the constants every policy shares. */
import type { Kind, Position, SizeLabel, Task } from "./workload.js";

export const POLICIES = [
  "raw",
  "codex-head-tail",
  "openhands-head",
  "seed-50-50",
  "claude-mcp-25k",
  "spill-to-file",
  "paging-4000",
  "spillway",
  "spillway-extract",
] as const;
export type PolicyName = (typeof POLICIES)[number];

/** The policies that cut the output and offer no way back to the rest. */
export const TRUNCATION_POLICIES: readonly PolicyName[] = [
  "codex-head-tail",
  "openhands-head",
  "seed-50-50",
  "claude-mcp-25k",
];

/** The model the evaluation plays: a 128K-token context window, 4,096 tokens kept for replies. */
export const CONTEXT_WINDOW = 128_000;
export const MAX_OUTPUT_TOKENS = 4_096;
/** System prompt, task and per-turn notice: what a request holds besides tool results. */
export const PROMPT_OVERHEAD_TOKENS = 1_000;
/** Tool-result tokens one conversation can hold before its requests stop fitting. */
export const TOOL_RESULT_BUDGET = CONTEXT_WINDOW - MAX_OUTPUT_TOKENS - PROMPT_OVERHEAD_TOKENS;

export interface Episode {
  readonly policy: PolicyName;
  readonly taskId: string;
  readonly kind: Kind;
  readonly size: SizeLabel;
  readonly position: Position;
  /** The answer is exactly the expected string. */
  readonly correct: boolean;
  readonly answer: string | null;
  /**
   * Exact o200k_base tokens of every tool result the model was shown until it answered or gave
   * up (per task, right or wrong). A raw request too big for the window counts the whole output:
   * it was sent, and refused.
   */
  readonly tokensExposed: number;
  /** Exact o200k_base tokens of the whole output. */
  readonly outputTokens: number;
  /** Calls after the output arrived (reads, greps, pages, extractions). */
  readonly toolCalls: number;
  /**
   * Harness time: storing, spilling or cutting the output, and serving the reads. Model time
   * (the extraction model's included) and the evaluation's own token counting are left out.
   */
  readonly wallMs: number;
  /**
   * spillway extract: tokens the extraction model read and wrote for this task (map, reduce and
   * the read-grep agent). Not the agent's context, but a cost; the others: absent.
   */
  readonly extractionTokens?: number;
  /** Fraction of the output's characters ever shown to the model. */
  readonly visibleFraction: number | null;
  /** spillway: the store's copy is byte-identical to the output (SHA-256); others: null. */
  readonly lossless: boolean | null;
  /** Why the policy could not answer (context overflow, an error instead of the output, …). */
  readonly failure: string | null;
  /** Notes on how the answer was reached (e.g. "extraction declined; grep instead"). */
  readonly note?: string;
}

/** What a policy did on a task, before scoring: every Episode field the task does not give. */
export type Played = Omit<
  Episode,
  "policy" | "taskId" | "kind" | "size" | "position" | "correct" | "answer" | "failure"
> & {
  readonly answer: string | null | undefined;
  /** Why it could not answer, should the answer be wrong. */
  readonly failure: string | null;
};

/**
 * Scores a played task: right only when the answer is exactly the expected string; a failure
 * reason is kept only for a wrong answer ("the answer was never visible" when none was given).
 */
export function scoredEpisode(policy: PolicyName, task: Task, played: Played): Episode {
  const answer = played.answer ?? null;
  const correct = answer === task.expected;
  return {
    ...played,
    policy,
    taskId: task.id,
    kind: task.kind,
    size: task.size,
    position: task.position,
    correct,
    answer,
    failure: correct ? null : (played.failure ?? "the answer was never visible"),
  };
}

/** Character ranges shown to the model, merged, as a fraction of `total`. */
export function coveredFraction(
  ranges: readonly (readonly [number, number])[],
  total: number,
): number {
  if (total === 0) return 1;
  const sorted = ranges
    .map(([a, b]) => [Math.max(0, a), Math.min(total, b)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let end = 0;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    covered += b - Math.max(a, end);
    end = b;
  }
  return covered / total;
}

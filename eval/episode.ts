/** One task played by one policy, and the constants every policy shares. */
import { scoreReport } from "./score.js";
import type { Kind, Position, SizeLabel, Task } from "./workload.js";

export const POLICIES = [
  "raw",
  "codex-head-tail",
  "openhands-head",
  "seed-50-50",
  "claude-mcp-25k",
  "spill-to-file",
  "spill-to-file-shell",
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
/** Tokens one request can hold (everything sent) before it stops fitting the window. */
export const REQUEST_TOKEN_LIMIT = CONTEXT_WINDOW - MAX_OUTPUT_TOKENS;

export interface Episode {
  readonly policy: PolicyName;
  readonly taskId: string;
  readonly kind: Kind;
  readonly size: SizeLabel;
  readonly position: Position;
  /** The final report names the expected value, and no other answer-shaped value. */
  readonly correct: boolean;
  /** The answer-shaped value the report names, if any. */
  readonly answer: string | null;
  /** The run's final report, as it ended (null: it ended without one). */
  readonly report: string | null;
  /** The report states a code-like value no tool result showed. */
  readonly invented: boolean;
  /** A retrieval call (read, grep, page, command, extraction) came before the report. */
  readonly retrieved: boolean;
  /**
   * Every token of every model request of the task (tool definitions, instructions, the prompt,
   * each call and result, spillway's per-turn notice), exact o200k_base; a request refused for
   * not fitting the window counts too (it was sent).
   */
  readonly tokensSent: number;
  /** Model requests of the task (the agent's; extraction calls are counted beside). */
  readonly requests: number;
  /** Exact o200k_base tokens of the tool results the model was shown (part of tokensSent). */
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

/** What a policy did on a task, before scoring: every Episode field the task and scorer do not give. */
export type Played = Omit<
  Episode,
  "policy" | "taskId" | "kind" | "size" | "position" | "correct" | "answer" | "invented" | "failure"
> & {
  /** Why it could not answer, should the report be wrong. */
  readonly failure: string | null;
  /** Every tool result the model was shown (for invented values). */
  readonly shown: string;
};

/**
 * Scores a played task from its report alone (eval/score.ts): right only when the report names
 * the expected value and no other; a failure reason is kept only for a wrong one.
 */
export function scoredEpisode(policy: PolicyName, task: Task, played: Played): Episode {
  const { shown, ...rest } = played;
  // The question was shown too: a value it names is not invented.
  const scored = scoreReport(task, played.report, `${task.question}\n${shown}`);
  return {
    ...rest,
    policy,
    taskId: task.id,
    kind: task.kind,
    size: task.size,
    position: task.position,
    correct: scored.correct,
    answer: scored.answer,
    invented: scored.invented,
    failure: scored.correct
      ? null
      : (played.failure ?? (played.report ? "the report does not name it" : "no report")),
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

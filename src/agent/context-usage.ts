/**
 * Context use against the window and the thresholds (the context indicator): the types and
 * arithmetic, free of any session (events, accounting and status data use them).
 */

/**
 * The context window's limits in tokens (the context indicator's: warn, compact, hard). The
 * thresholds are fractions of the window the input may use: the context window less the
 * tokens reserved for the model's reply (`maxOutputTokens`).
 */
export interface ContextLimits {
  readonly contextWindow: number;
  readonly reservedOutputTokens: number;
  /** contextWindow - reservedOutputTokens: what the projection may fill. */
  readonly inputWindow: number;
  /** The thresholds as fractions of `inputWindow`, as configured. */
  readonly fractions: { readonly warn: number; readonly compact: number; readonly hard: number };
  /** The thresholds in tokens. */
  readonly warn: number;
  readonly compact: number;
  readonly hard: number;
  /** What a compaction aims the projection at: half the input window. */
  readonly target: number;
  readonly compactionEnabled: boolean;
}

/** Where the projection stands against the thresholds. */
export type ContextLevel = "ok" | "warn" | "compact" | "hard";

/** The level of a projection of `tokens`. */
export function levelOf(tokens: number, limits: ContextLimits): ContextLevel {
  if (tokens >= limits.hard) return "hard";
  if (tokens >= limits.compact) return "compact";
  if (tokens >= limits.warn) return "warn";
  return "ok";
}

/**
 * The status data of a session's context (the inspector's context-window indicator): what the
 * last projection sent, against the window and the thresholds.
 */
export interface ContextUsage {
  readonly turn: number;
  /** Tokens of the projection sent (system, summary, recent messages, notice). */
  readonly tokens: number;
  readonly contextWindow: number;
  readonly reservedOutputTokens: number;
  readonly inputWindow: number;
  /** tokens / inputWindow. */
  readonly used: number;
  readonly level: ContextLevel;
  readonly thresholds: {
    readonly warn: number;
    readonly compact: number;
    readonly hard: number;
  };
  readonly thresholdTokens: {
    readonly warn: number;
    readonly compact: number;
    readonly hard: number;
  };
  readonly compactionEnabled: boolean;
  /** Tokens of the summary in the projection (0 before the first compaction). */
  readonly summaryTokens: number;
  /** History messages sent whole after the summary (the pinned task included). */
  readonly recentMessages: number;
  /** Results shown in handle form to fit (sticky: once shortened, they stay so). */
  readonly shortenedResults: number;
  /** Milliseconds spent building the projection, not counting a compaction's model call. */
  readonly projectionMs: number;
}

/** The usage figures of a projection against `limits`. */
export function contextUsage(
  limits: ContextLimits,
  figures: Pick<
    ContextUsage,
    "turn" | "tokens" | "summaryTokens" | "recentMessages" | "shortenedResults" | "projectionMs"
  >,
): ContextUsage {
  return {
    ...figures,
    contextWindow: limits.contextWindow,
    reservedOutputTokens: limits.reservedOutputTokens,
    inputWindow: limits.inputWindow,
    used: figures.tokens / limits.inputWindow,
    level: levelOf(figures.tokens, limits),
    thresholds: { ...limits.fractions },
    thresholdTokens: { warn: limits.warn, compact: limits.compact, hard: limits.hard },
    compactionEnabled: limits.compactionEnabled,
  };
}

/**
 * The context-window status of a session (the context indicator): how full the model's window
 * was at a turn, against the warn / compact / hard-limit thresholds. The thresholds come from
 * the status data a session reports (compaction settings, when a session has them) and
 * default to 75% / 90% / 95%.
 */
import { z } from "zod";

export interface ContextThresholds {
  /** Fraction of the window at which the session warns. */
  readonly warn: number;
  /** Fraction at which compaction runs. */
  readonly compact: number;
  /** Fraction the session never goes past (the hard limit). */
  readonly hard: number;
}

/** Warn, compact and hard-limit shares of the window, for sessions that report none. */
export const DEFAULT_THRESHOLDS: ContextThresholds = { warn: 0.75, compact: 0.9, hard: 0.95 };

const fraction = z.number().gt(0).max(1);
const thresholdsSchema = z
  .object({ warn: fraction, compact: fraction, hard: fraction })
  .refine((t) => t.warn <= t.compact && t.compact <= t.hard, "warn ≤ compact ≤ hard");

/** Thresholds a session reported, when valid; the defaults otherwise. */
export function thresholdsFrom(value: unknown): ContextThresholds {
  const parsed = thresholdsSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_THRESHOLDS;
}

/**
 * The thresholds a session's settings report: `compaction: { warn, compact, hard }` (or under
 * `compaction.thresholds`), fractions of the window; the defaults when absent or invalid.
 *
 * @example
 * sessionThresholds({ compaction: { warn: 0.7, compact: 0.85, hard: 0.95 } }).warn; // 0.7
 */
export function sessionThresholds(settings: unknown): ContextThresholds {
  const compaction = (settings as { compaction?: unknown } | null)?.compaction;
  const nested = (compaction as { thresholds?: unknown } | null | undefined)?.thresholds;
  return thresholdsFrom(nested ?? compaction);
}

const percent = (f: number) => `${Math.round(f * 1000) / 10}%`;

/**
 * The thresholds in words, never shorthand.
 *
 * @example
 * thresholdLabel(DEFAULT_THRESHOLDS); // "warns at 75%, compacts at 90%, hard limit 95%"
 */
export function thresholdLabel(t: ContextThresholds): string {
  return `warns at ${percent(t.warn)}, compacts at ${percent(t.compact)}, hard limit ${percent(t.hard)}`;
}

export type ContextLevel = "ok" | "warn" | "compact" | "hard";

export interface ContextStatus {
  readonly turn: number;
  readonly model: string;
  /** Tokens in the window after the turn: the call's input plus its reply. */
  readonly usedTokens: number;
  readonly windowTokens: number;
  /** usedTokens / windowTokens. */
  readonly fraction: number;
  readonly thresholds: ContextThresholds;
  readonly level: ContextLevel;
  readonly label: string;
  /** Where the numbers come from (`model.call`: the provider's reported usage). */
  readonly source: string;
}

/** The status after one model call. */
export function contextStatus(input: {
  readonly turn: number;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly windowTokens: number;
  readonly thresholds?: ContextThresholds;
  readonly source?: string;
}): ContextStatus {
  const thresholds = input.thresholds ?? DEFAULT_THRESHOLDS;
  const usedTokens = input.inputTokens + input.outputTokens;
  const fraction = input.windowTokens > 0 ? usedTokens / input.windowTokens : 0;
  const level: ContextLevel =
    fraction >= thresholds.hard
      ? "hard"
      : fraction >= thresholds.compact
        ? "compact"
        : fraction >= thresholds.warn
          ? "warn"
          : "ok";
  return {
    turn: input.turn,
    model: input.model,
    usedTokens,
    windowTokens: input.windowTokens,
    fraction,
    thresholds,
    level,
    label: thresholdLabel(thresholds),
    source: input.source ?? "model.call",
  };
}

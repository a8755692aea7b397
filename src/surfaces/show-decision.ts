import type { ShownAs } from "../store/history.js";
import type { OutputRecord } from "../store/output-store.js";
import { asyncReadyText } from "./async-texts.js";

/**
 * How a stored output is shown to the model when it arrives (D0-11, D0-19, D3-13, D3-17): the whole output inline when it is under the byte cap and
 * fits the remaining context budget, else the surface's placeholder (a handle message, or a
 * continuation-surface marker). Shared by every loop that projects tool results: spillway's own
 * runtime and the adapters for other loops.
 */

/** The settings the decision reads. */
export interface ShowPolicy {
  /** False: legacy truncation (`toolOutput.enabled: false`), the model sees at most the byte cap. */
  readonly enabled: boolean;
  readonly toolResponseMaxBytes: number;
  /** How the surface shows an output too large to show whole. */
  readonly shownAs: "handle" | "continuation";
  /** For continuation surfaces: an output of at most this many characters is shown whole. */
  readonly continuationChars: number;
  /**
   * The async size trigger (async tools on): an output over this many tokens is announced as
   * ready instead of shown, even when it would fit. Absent when async tools are off.
   */
  readonly readyOverTokens?: number;
}

/** What the decision needs to know about the context right now. */
export interface ShowBudget {
  /** Tokens still free for tool results before the next model call. */
  readonly remainingTokens: number;
  readonly countTokens: (text: string) => Promise<number>;
  /** The surface's placeholder text for this output (only asked for when it is needed). */
  readonly placeholder: () => Promise<string>;
  /**
   * The text an output over `readyOverTokens` is announced with, when the caller shows something
   * other than the compatibility ready text (spillway's runtime shows the handle message by
   * default).
   */
  readonly ready?: () => Promise<string>;
}

/** What was decided, for the caller to apply to its own state. */
export interface ShowDecision {
  readonly shown: ShownAs;
  /** Tokens the context budget is charged for: what the model is shown, not what is stored. */
  readonly tokens: number;
  /** The output is shown by handle or announced ready: the surface's tools are needed. */
  readonly retrievable: boolean;
  /** Even the placeholder does not fit the remaining budget: the next turn must be the last. */
  readonly exhausted: boolean;
}

/**
 * Decides, once, how a stored output is shown.
 *
 * @example
 * const decision = await decideShown(record, {
 *   enabled: true, toolResponseMaxBytes: 12_288, shownAs: "handle", continuationChars: 4000,
 * }, {
 *   remainingTokens: 90_000,
 *   countTokens: (text) => countTokens(text),
 *   placeholder: () => defaultHandleMessage(record, store, { sessionId }, 5),
 * });
 * decision.shown; // "inline" for a small output, "handle" for a 30 MB log
 */
export async function decideShown(
  record: Pick<
    OutputRecord,
    "id" | "toolName" | "kind" | "byteSize" | "charCount" | "tokenEstimate"
  >,
  policy: ShowPolicy,
  budget: ShowBudget,
): Promise<ShowDecision> {
  const byteSize = record.byteSize ?? 0;
  const tokens = record.tokenEstimate ?? 0;
  if (!policy.enabled) {
    // Legacy: the model sees at most the byte cap; the store still keeps the whole output.
    return {
      shown: byteSize <= policy.toolResponseMaxBytes ? "inline" : "truncated",
      tokens: Math.min(tokens, Math.ceil(policy.toolResponseMaxBytes / 3)),
      retrievable: false,
      exhausted: false,
    };
  }
  // The async size trigger: an output over the token threshold is announced as ready with its
  // size (D3-13) instead of shown (D3-17: the tool won the race, then its size
  // decides), even when it would fit inline.
  if (policy.readyOverTokens !== undefined && tokens > policy.readyOverTokens) {
    const ready = budget.ready
      ? await budget.ready()
      : asyncReadyText(record.id, record.toolName, tokens);
    return {
      shown: "ready",
      tokens: await budget.countTokens(ready),
      retrievable: true,
      exhausted: false,
    };
  }
  const underCap =
    policy.shownAs === "continuation"
      ? (record.charCount ?? 0) <= policy.continuationChars
      : byteSize <= policy.toolResponseMaxBytes;
  if (record.kind !== "binary" && underCap && tokens <= budget.remainingTokens) {
    return { shown: "inline", tokens, retrievable: false, exhausted: false };
  }
  // Oversized (byte cap exceeded OR projected tokens would overflow, D0-11): the budget
  // is charged for the placeholder only.
  const placeholderTokens = await budget.countTokens(await budget.placeholder());
  return {
    shown: policy.shownAs,
    tokens: placeholderTokens,
    retrievable: true,
    exhausted: placeholderTokens > budget.remainingTokens,
  };
}

/**
 * The characters a retrieval answer may take: what the remaining context budget allows (about
 * three characters a token, at least 256 tokens' worth), at most four times the byte cap, and
 * never under 1,000.
 *
 * @example
 * answerBudgetChars(90_000, 12_288); // 49152
 */
export function answerBudgetChars(remainingTokens: number, toolResponseMaxBytes: number): number {
  const tokens = Math.max(256, remainingTokens);
  return Math.max(1000, Math.min(toolResponseMaxBytes * 4, tokens * 3));
}

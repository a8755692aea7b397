import type { ContextLimits } from "./context-usage.js";
import {
  compactionSettingsOf,
  contextWindowOf,
  maxOutputTokensOf,
  type SessionSettings,
  tokenizerMarginOf,
} from "./session-context.js";

/** The fraction of the input window a compaction leaves the projection at (recent turns kept). */
export const COMPACTION_TARGET = 0.5;

/**
 * The limits of a session's context window. The input window is in the tokens we count, so it
 * is the model's window less the reply, divided by the tokenizer margin of the session's
 * provider family (`tokenizerMarginOf`): a model whose tokenizer splits text finer than ours
 * must still fit.
 *
 * @example
 * contextLimitsOf(settings); // { inputWindow: 12288, warn: 9216, compact: 11059, hard: 11673, … }
 */
export function contextLimitsOf(settings: SessionSettings): ContextLimits {
  const compaction = compactionSettingsOf(settings);
  const contextWindow = contextWindowOf(settings);
  const reservedOutputTokens = Math.min(maxOutputTokensOf(settings), contextWindow - 1);
  const inputWindow = Math.floor(
    (contextWindow - reservedOutputTokens) / tokenizerMarginOf(settings),
  );
  const at = (fraction: number) => Math.floor(inputWindow * fraction);
  return {
    contextWindow,
    reservedOutputTokens,
    inputWindow,
    fractions: { warn: compaction.warn, compact: compaction.compact, hard: compaction.hard },
    warn: at(compaction.warn),
    compact: at(compaction.compact),
    hard: at(compaction.hard),
    target: Math.min(at(COMPACTION_TARGET), at(compaction.warn)),
    compactionEnabled: compaction.enabled,
  };
}

/**
 * Which messages a compaction summarizes: the oldest whole turns, never a call without its
 * result. A cut is valid only where every call opened before it has its result before it and
 * the next message is not a tool result; the most recent turn is always kept.
 */

/** What span selection needs to know of one projected message. */
export interface SpanEntry {
  readonly role: "user" | "assistant" | "tool";
  readonly tokens: number;
  /** Its tokens in what the summarizer reads (large results in handle form); default `tokens`. */
  readonly readTokens?: number;
  /** An assistant message's tool calls. */
  readonly callIds?: readonly string[];
  /** A tool message: the call it answers. */
  readonly resultOf?: string;
}

/** A place the history may be cut: before entry `index`. */
export interface SpanCut {
  readonly index: number;
  readonly tokens: number;
  readonly readTokens: number;
}

export interface SpanChoice {
  /** How many leading entries to summarize (0: none can be). */
  readonly count: number;
  /** Their tokens, and their tokens as the summarizer reads them. */
  readonly tokens: number;
  readonly readTokens: number;
}

/**
 * The valid cuts of `entries`: indexes `i` where entries `[0, i)` form whole turns (every call
 * answered inside, the next entry not a tool result), up to the start of the last turn.
 *
 * @example
 * validCuts([{ role: "assistant", tokens: 5, callIds: ["a"] }, { role: "tool", tokens: 9, resultOf: "a" },
 *   { role: "assistant", tokens: 3 }]); // [{ index: 2, tokens: 14, readTokens: 14 }]
 */
export function validCuts(entries: readonly SpanEntry[]): SpanCut[] {
  let lastTurnStart = -1;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]!.role !== "tool") {
      lastTurnStart = i;
      break;
    }
  }
  const cuts: SpanCut[] = [];
  const open = new Set<string>();
  let tokens = 0;
  let readTokens = 0;
  for (let i = 0; i < lastTurnStart; i++) {
    const entry = entries[i]!;
    for (const id of entry.callIds ?? []) open.add(id);
    if (entry.resultOf !== undefined) open.delete(entry.resultOf);
    tokens += entry.tokens;
    readTokens += entry.readTokens ?? entry.tokens;
    const next = entries[i + 1]!;
    if (open.size === 0 && next.role !== "tool") cuts.push({ index: i + 1, tokens, readTokens });
  }
  return cuts;
}

/**
 * The span to summarize: the shortest run of oldest whole turns that removes at least
 * `removeAtLeast` tokens, or, when that run would exceed `maxTokens` of what the summarizer
 * reads, the longest one within it. `count` 0 when no whole turn fits.
 *
 * @example
 * chooseSpan(entries, { removeAtLeast: 4000, maxTokens: 20000 }); // { count: 12, tokens: 4310, readTokens: 4310 }
 */
export function chooseSpan(
  entries: readonly SpanEntry[],
  limits: { readonly removeAtLeast: number; readonly maxTokens: number },
): SpanChoice {
  let best: SpanChoice = { count: 0, tokens: 0, readTokens: 0 };
  for (const cut of validCuts(entries)) {
    if (cut.readTokens > limits.maxTokens) break;
    best = { count: cut.index, tokens: cut.tokens, readTokens: cut.readTokens };
    if (cut.tokens >= limits.removeAtLeast) break;
  }
  return best;
}

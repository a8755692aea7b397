/**
 * Context management the peers share: clearing old tool results (Claude Code's microcompact,
 * the API's context editing) and a compaction that rebuilds the history from the user's messages
 * and a summary (Codex; seed-framework hosts compact continuation results the same way).
 */
import type { ModelMessage, ToolModelMessage } from "ai";
import type { WindowState } from "../peer-loop.js";

/**
 * The history with every tool result's content but the `keep` latest replaced by `placeholder`.
 *
 * @example
 * clearOldResults(messages, 3, "[Old tool result content cleared]");
 */
export function clearOldResults(
  messages: readonly ModelMessage[],
  keep: number,
  placeholder: string,
): ModelMessage[] {
  const total = messages.reduce(
    (sum, m) =>
      sum + (m.role === "tool" ? m.content.filter((p) => p.type === "tool-result").length : 0),
    0,
  );
  let seen = 0;
  return messages.map((message) => {
    if (message.role !== "tool") return message;
    const content = message.content.map((part) => {
      if (part.type !== "tool-result") return part;
      seen++;
      return seen <= total - keep
        ? { ...part, output: { type: "text" as const, value: placeholder } }
        : part;
    });
    return { ...message, content } as ToolModelMessage;
  });
}

export interface Compaction {
  /** The instruction the summary is written to. */
  readonly instruction: string;
  /** What the summary is introduced with in the new history. */
  readonly prefix: string;
  /** Tokens of the user's own messages kept, newest first. */
  readonly userMessageTokens: number;
}

/** Codex's local compaction prompt (codex-rs/core/templates/compact/prompt.md). */
export const CODEX_COMPACTION: Compaction = {
  instruction:
    "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary so another LLM can continue the single active task. " +
    "Include the exact values found so far. Use this format:\n- Active task:\n- Progress so far:\n- Next steps (active task only):\n- Key context / constraints / preferences (still relevant only):",
  prefix:
    "You are resuming an in-progress task after context compaction. Another language model produced a handoff summary. Treat the summary as authoritative. Here is the summary:",
  userMessageTokens: 20_000,
};

/**
 * Compacts the history: the user's own messages (newest first, within the token allowance) and
 * one message with the summary; tool calls and results are dropped. A summary request that does
 * not fit drops the oldest messages after the first and is tried again.
 */
export async function compactHistory(
  messages: readonly ModelMessage[],
  state: WindowState,
  compaction: Compaction,
): Promise<ModelMessage[]> {
  let history = [...messages];
  const fixed = state.tokens - state.count(messages);
  while (history.length > 1 && fixed + state.count(history) > 0.8 * state.window)
    history = [history[0]!, ...history.slice(2)];
  const summary = await state.summarize(history, compaction.instruction);
  const users: ModelMessage[] = [];
  let budget = compaction.userMessageTokens;
  for (const message of [...messages].reverse()) {
    if (message.role !== "user") continue;
    const tokens = state.count([message]);
    if (tokens > budget) break;
    budget -= tokens;
    users.unshift(message);
  }
  return [...users, { role: "user", content: `${compaction.prefix}\n${summary}` }];
}

/**
 * Codex CLI, as it handles a large tool result and a full window (sources in
 * docs/evaluation.md, "The peers"): a model it does not know gets a byte budget of 10,000 for a
 * tool's output, 12,000 where the output is kept in the history (its 20% allowance); over it,
 * the output keeps its head and its tail, with `…N chars truncated…` in the middle. Codex has no
 * tool to read what was cut: the model can only call the tool again. At 90% of the configured
 * window (`model_context_window`, which a user of a small local model sets), the history is
 * compacted: the user's messages and a handoff summary.
 */
import type { PeerHarness } from "../peer-loop.js";
import { CODEX_COMPACTION, compactHistory } from "./context.js";

const HISTORY_BUDGET_BYTES = 12_000;
const AUTO_COMPACT_FRACTION = 0.9;

/** Codex's middle cut to a byte budget, on character boundaries. */
export function codexCut(text: string, budget = HISTORY_BUDGET_BYTES): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= budget) return text;
  const half = Math.floor(budget / 2);
  const head = bytes
    .subarray(0, half)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  const tail = bytes
    .subarray(bytes.length - half)
    .toString("utf8")
    .replace(/^\uFFFD/, "");
  const removed = text.length - head.length - tail.length;
  return `${head}…${removed} chars truncated…${tail}`;
}

/**
 * Codex's harness.
 *
 * @example
 * const harness = codex();
 */
export function codex(): PeerHarness {
  return {
    name: "codex",
    tools: [],
    view: async (text) => codexCut(text),
    run: async (name) => `Error: unsupported call: ${name}`,
    async manage(messages, state) {
      if (state.tokens < AUTO_COMPACT_FRACTION * state.window) return messages;
      return compactHistory(messages, state, CODEX_COMPACTION);
    },
  };
}

/**
 * The summarizer's prompt and the summary message's text. The summarizer reads the previous
 * summary (when there is one) and the turns to compact, rendered as a transcript of what the
 * agent was shown; it writes one summary that replaces both.
 */

/** The first words of the summarizer's system prompt (a scripted stand-in may look for them). */
export const SUMMARIZER_PREAMBLE = "You compact the earlier part of an AI agent's working session";

/** The summary message's first words in the projection. */
export const SUMMARY_PREFIX = "[spillway] Summary of earlier work";

/** The summarizer's system prompt for a summary of at most `maxTokens` tokens. */
export function summarizerSystem(maxTokens: number): string {
  const words = Math.max(50, Math.floor(maxTokens * 0.6));
  return [
    `${SUMMARIZER_PREAMBLE}, so the agent can carry on without those turns in its context.`,
    "You get the previous summary (if any) and the turns that came after it. Write ONE new summary that replaces both.",
    "Keep:",
    "- the task and every instruction the user gave;",
    "- what was done and found, with exact values (numbers, names, paths, quoted lines with their line numbers);",
    "- decisions and their reasons, what failed, and what remains to do;",
    "- every output id (out_…) that holds something the agent may need again, with what it holds.",
    `Write plain text, at most ${words} words. Never invent anything. Do not call tools.`,
  ].join("\n");
}

/** One message of the transcript the summarizer reads. */
export interface TranscriptEntry {
  readonly turn: number;
  readonly role: "user" | "assistant" | "tool";
  /** User or assistant text. */
  readonly text?: string;
  /** An assistant's tool calls. */
  readonly calls?: readonly { toolCallId: string; toolName: string; argsText: string }[];
  /** A tool result as the agent was shown it. */
  readonly result?: { toolCallId: string; toolName: string; text: string };
}

/** The summarizer's user message: the previous summary, then the turns to compact. */
export function summarizerInput(
  previous: string | null,
  entries: readonly TranscriptEntry[],
): string {
  const lines: string[] = [];
  lines.push("PREVIOUS SUMMARY:", previous ?? "(none: these are the first turns of the session)");
  lines.push("", "TURNS TO SUMMARIZE:");
  for (const entry of entries) {
    if (entry.role === "user") lines.push(`[turn ${entry.turn}] user:`, entry.text ?? "");
    else if (entry.role === "assistant") {
      if (entry.text) lines.push(`[turn ${entry.turn}] assistant:`, entry.text);
      for (const call of entry.calls ?? [])
        lines.push(
          `[turn ${entry.turn}] assistant calls ${call.toolName} (call id ${call.toolCallId}) with ${call.argsText}`,
        );
    } else if (entry.result) {
      lines.push(
        `[turn ${entry.turn}] result of ${entry.result.toolName} (call id ${entry.result.toolCallId}):`,
        entry.result.text,
      );
    }
  }
  lines.push("", "Write the new summary now.");
  return lines.join("\n");
}

/** The summary message as the projection sends it: header, the summary, the call index. */
export function summaryText(options: {
  readonly fromTurn: number;
  readonly throughTurn: number;
  readonly fromSeq: number;
  readonly throughSeq: number;
  readonly compaction: number;
  readonly summary: string;
  readonly index: string;
}): string {
  const turns =
    options.fromTurn === options.throughTurn
      ? `turn ${options.throughTurn}`
      : `turns ${options.fromTurn}-${options.throughTurn}`;
  return [
    `${SUMMARY_PREFIX} (${turns}; compaction ${options.compaction} of this session). ` +
      `History messages ${options.fromSeq}-${options.throughSeq} were compacted to fit the context window; ` +
      "they are stored whole in the session's history, and this summary stands in for them here.",
    "",
    options.summary.trim(),
    "",
    options.index,
  ].join("\n");
}

import { SUMMARIZER_PREAMBLE, SUMMARY_PREFIX } from "../../src/agent/compaction-prompt.js";
import {
  type ChatRequest,
  lastMessage,
  type ScriptedReply,
  textOf,
} from "../../src/testing/index.js";

/**
 * Pieces of blind scripted policies for compaction tests: everything they know comes from the
 * request they were sent (its turn number, the summary message, tool results).
 */

/**
 * The turn this request is for: the number the notice at its end names ("This is turn N of
 * M."), or, since a notice is sent only when needed, one more than the turns the request
 * shows: the last turn its summary covers ("turns 1-19"), then one per assistant message after
 * it (these policies call one tool a turn).
 */
export function turnOf(request: ChatRequest): number {
  const match = /This is turn (\d+) of/.exec(textOf(lastMessage(request)));
  if (match) return Number(match[1]);
  const summary = summaryMessage(request);
  const covered = summary ? Number(/\(turns? (?:\d+-)?(\d+);/.exec(summary)?.[1] ?? 0) : 0;
  const start = summary ? request.messages.findIndex((m) => textOf(m) === summary) : 0;
  const since = request.messages.slice(start).filter((m) => m.role === "assistant").length;
  return covered + since + 1;
}

/** True when the request is a compaction summarizer's (its system prompt says so). */
export function isSummarizerRequest(request: ChatRequest): boolean {
  const first = request.messages[0];
  return first !== undefined && textOf(first).startsWith(SUMMARIZER_PREAMBLE);
}

/** The summary message the projection sent, if any. */
export function summaryMessage(request: ChatRequest): string | undefined {
  for (const message of request.messages) {
    if (message.role !== "user") continue;
    const text = textOf(message);
    if (text.startsWith(SUMMARY_PREFIX)) return text;
  }
  return undefined;
}

/** The turn numbers a summarizer request asks to summarize. */
export function summarizedTurns(request: ChatRequest): number[] {
  const input = textOf(lastMessage(request));
  const body = input.slice(input.indexOf("TURNS TO SUMMARIZE:"));
  return [...body.matchAll(/^\[turn (\d+)\]/gm)].map((m) => Number(m[1]));
}

/**
 * A scripted stand-in for a summarizer model: it keeps the previous summary's lines and adds
 * one line for the turns it was sent (their range and the tools called). It never copies
 * handles: what keeps them is spillway's machine-built index, which the test checks.
 */
export function scriptedSummary(request: ChatRequest): ScriptedReply {
  const input = textOf(lastMessage(request));
  const previous = /PREVIOUS SUMMARY:\n([\s\S]*?)\n\nTURNS TO SUMMARIZE:/.exec(input)?.[1] ?? "";
  const kept = previous.startsWith("(none") ? [] : previous.split("\n");
  const turns = summarizedTurns(request);
  const tools = new Set([...input.matchAll(/assistant calls (\S+) \(call id/g)].map((m) => m[1]));
  const line = `Turns ${Math.min(...turns)}-${Math.max(...turns)}: called ${[...tools].sort().join(", ") || "no tools"} (scripted summary).`;
  return { text: [...kept, line].join("\n") };
}

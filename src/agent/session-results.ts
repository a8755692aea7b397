/**
 * Every tool result of a session in call order, a batch's inner results in its place: what the
 * report guards and the final turn's quote both look through.
 */
import type { ToolResultRef } from "../store/history.js";
import type { SessionContext } from "./session-context.js";

/** One tool result and the tool that gave it. */
export interface SessionResult {
  readonly toolName: string;
  readonly ref: ToolResultRef;
}

function flatten(toolName: string, ref: ToolResultRef, into: SessionResult[]): void {
  if (ref.kind !== "batch") {
    into.push({ toolName, ref });
    return;
  }
  for (const item of ref.items) flatten(item.toolName, item.ref, into);
}

/**
 * The session's tool results from its canonical history, batches flattened.
 *
 * @example
 * for (const { toolName, ref } of await sessionResults(context)) …
 */
export async function sessionResults(context: SessionContext): Promise<SessionResult[]> {
  const results: SessionResult[] = [];
  for (const message of await context.history.messages(context.sessionId)) {
    if (message.role !== "tool") continue;
    for (const part of message.parts)
      if (part.type === "tool-result") flatten(part.toolName, part.result, results);
  }
  return results;
}

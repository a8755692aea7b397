/**
 * Tokens of one model request as it is sent: the tool definitions (their JSON), every message
 * (system instructions, the prompt, each assistant call with its arguments, each tool result,
 * spillway's per-turn notice), plus a few tokens of framing per message. The same count for
 * spillway's requests (as the scripted model server received them) and the peers' (as the
 * in-process driver builds them), so the comparison counts everything, not just tool results.
 */
import { type ChatRequest, textOf } from "../src/testing/index.js";

/** Framing tokens per message (role and separators), as chat formats add them. */
export const TOKENS_PER_MESSAGE = 4;

/** A counter that remembers the texts it has counted (requests repeat their history). */
export function memoCounter(
  count: (text: string) => number,
  known: ReadonlyMap<string, number> = new Map(),
): (text: string) => number {
  const memo = new Map(known);
  return (text) => {
    if (text.length < 64) return count(text);
    let tokens = memo.get(text);
    if (tokens === undefined) {
      tokens = count(text);
      memo.set(text, tokens);
    }
    return tokens;
  };
}

/**
 * Every token of a request: tool definitions, messages and their tool calls.
 *
 * @example
 * requestTokens(server.requests[0]!, (t) => tokenizer.count(t)); // e.g. 1,284
 */
export function requestTokens(request: ChatRequest, count: (text: string) => number): number {
  let total = request.tools && request.tools.length > 0 ? count(JSON.stringify(request.tools)) : 0;
  for (const message of request.messages) {
    total += TOKENS_PER_MESSAGE + count(textOf(message));
    if (message.role === "assistant")
      for (const c of message.tool_calls ?? [])
        total += count(c.function.name) + count(c.function.arguments);
  }
  return total;
}

/**
 * The Chat Completions response bodies of the scripted model: a whole completion (JSON) or a
 * stream of chunks (server-sent events), with honest token usage.
 */
import { countTokens, estimateTokens } from "../core/tokens.js";
import type { ChatRequest } from "./chat-types.js";
import { textOf } from "./policy-helpers.js";
import type { ResolvedReply } from "./scripted-reply.js";

/** Every response says it comes from a scripted model, not a real one. */
export const SCRIPTED_FINGERPRINT = "spillway-scripted";

/** Token usage in the OpenAI wire shape. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * Counts usage with the o200k_base tokenizer (prompts over 64K characters are estimated from
 * samples, as stored outputs are). Prompt tokens cover the concatenated message
 * contents (one "\n" between messages) plus the names and arguments of earlier tool calls;
 * tool declarations, roles and message framing are not counted. Completion tokens cover the
 * reply text and the tool call names and arguments.
 *
 * @example
 * const usage = await countUsage(request, resolveReply(finalText("hi"), 0));
 */
export async function countUsage(request: ChatRequest, reply: ResolvedReply): Promise<ChatUsage> {
  const prompt: string[] = [];
  for (const message of request.messages) {
    prompt.push(textOf(message));
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) {
        prompt.push(call.function.name, call.function.arguments);
      }
    }
  }
  const completion = [reply.text ?? ""];
  for (const call of reply.toolCalls) completion.push(call.name, call.arguments);
  // Prompts can be chunks of 100K+ characters: estimated the way the store estimates outputs
  // (exact up to 64K characters, sampled above), so counting never delays the reply much.
  const promptTokens = (await estimateTokens(prompt.join("\n"))).tokens;
  const completionTokens = await countTokens(completion.join("\n"));
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

interface ResponseIdentity {
  id: string;
  model: string;
  created: number;
}

/**
 * A non-streaming `chat.completion` body.
 *
 * @example
 * res.end(JSON.stringify(completionBody({ id, model, created }, reply, usage)));
 */
export function completionBody(
  identity: ResponseIdentity,
  reply: ResolvedReply,
  usage: ChatUsage,
): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: reply.text ?? (reply.toolCalls.length > 0 ? null : ""),
  };
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    ...identity,
    object: "chat.completion",
    system_fingerprint: SCRIPTED_FINGERPRINT,
    choices: [{ index: 0, message, finish_reason: reply.finishReason, logprobs: null }],
    usage,
  };
}

/**
 * Splits a string into about `parts` pieces without cutting a surrogate pair.
 *
 * @example
 * splitText("abcdef", 3); // ["ab", "cd", "ef"]
 */
export function splitText(text: string, parts: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end += 1;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * The `chat.completion.chunk` bodies of a streamed reply, in order: the role, the text in
 * several deltas, each tool call (id, type and name first, then argument fragments), the
 * finish reason, and the usage chunk when `includeUsage`. The caller frames each as
 * `data: …` and ends with `data: [DONE]`.
 *
 * @example
 * for (const chunk of streamChunks(identity, reply, usage, true)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
 */
export function streamChunks(
  identity: ResponseIdentity,
  reply: ResolvedReply,
  usage: ChatUsage,
  includeUsage: boolean,
): Record<string, unknown>[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    ...identity,
    object: "chat.completion.chunk",
    system_fingerprint: SCRIPTED_FINGERPRINT,
    choices,
    ...extra,
  });
  const delta = (value: Record<string, unknown>) =>
    chunk([{ index: 0, delta: value, finish_reason: null, logprobs: null }]);

  const chunks = [delta({ role: "assistant", content: "" })];
  for (const piece of splitText(reply.text ?? "", 3)) chunks.push(delta({ content: piece }));
  reply.toolCalls.forEach((call, index) => {
    chunks.push(
      delta({
        tool_calls: [
          { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of splitText(call.arguments, 3)) {
      chunks.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk([{ index: 0, delta: {}, finish_reason: reply.finishReason, logprobs: null }]));
  if (includeUsage) chunks.push(chunk([], { usage }));
  return chunks;
}

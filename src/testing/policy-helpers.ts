/**
 * Helpers for writing scripted model policies: read what the client sent (the last message,
 * the tool results, the declared tools, the output handles in a text) and build replies.
 */
import type { ChatContent, ChatMessage, ChatRequest } from "./chat-types.js";
import type { ScriptedReply, ScriptedToolCall } from "./scripted-reply.js";

/**
 * The text of a message: its string content, or the `text` of its text parts joined; "" for
 * null content (an assistant turn that only calls tools).
 *
 * @example
 * textOf({ role: "user", content: [{ type: "text", text: "hi" }] }); // "hi"
 */
export function textOf(message: ChatMessage | { content?: ChatContent }): string {
  const content = message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string") text += part.text;
  }
  return text;
}

/**
 * The last message of a request (the server rejects requests without messages).
 *
 * @example
 * const respond: Responder = (request) =>
 *   lastMessage(request).role === "tool" ? finalText("done") : toolCall("fs__read", { path: "a" });
 */
export function lastMessage(request: ChatRequest): ChatMessage {
  const message = request.messages[request.messages.length - 1];
  if (message === undefined) throw new Error("The chat request has no messages.");
  return message;
}

/** A tool result found in a request. */
export interface ToolResultMessage {
  /** The `tool_call_id` the result answers. */
  toolCallId: string;
  /** The name of the tool that call named, found in an earlier assistant message (if any). */
  toolName: string | undefined;
  /** The result's content as text (see {@link textOf}). */
  text: string;
}

/**
 * Every tool message of a request, oldest first, with the tool name resolved from the
 * assistant message that made the call.
 *
 * @example
 * const results = toolMessages(request);
 * const last = results.at(-1); // { toolCallId: "call_0_0", toolName: "generate_output", text: "…" }
 */
export function toolMessages(request: ChatRequest): ToolResultMessage[] {
  const names = new Map<string, string>();
  const results: ToolResultMessage[] = [];
  for (const message of request.messages) {
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
    } else if (message.role === "tool") {
      results.push({
        toolCallId: message.tool_call_id,
        toolName: names.get(message.tool_call_id),
        text: textOf(message),
      });
    }
  }
  return results;
}

const OUTPUT_ID_PATTERN = /out_[0-9a-z]{26}/g;

/**
 * The output ids (handles) in a text, each once, in order of first appearance.
 *
 * @example
 * findOutputIds(toolMessages(request).at(-1)?.text ?? ""); // ["out_5k2v9w…"]
 */
export function findOutputIds(text: string): string[] {
  return [...new Set(text.match(OUTPUT_ID_PATTERN) ?? [])];
}

/**
 * The names of the tools a request declares, in order.
 *
 * @example
 * if (!toolNames(request).includes("get_tool_output")) return finalText("no surface tool");
 */
export function toolNames(request: ChatRequest): string[] {
  return (request.tools ?? []).map((tool) => tool.function.name);
}

/**
 * A reply that calls one tool. An object `args` is sent JSON-stringified; a string is sent
 * verbatim (so a test can send malformed JSON on purpose).
 *
 * @example
 * startScriptedModelServer({ scenario: [toolCall("echo", { text: "hi" }), finalText("done")] });
 */
export function toolCall(
  name: string,
  args: string | Record<string, unknown>,
  id?: string,
): ScriptedReply {
  const call: ScriptedToolCall = { name, arguments: args, ...(id !== undefined ? { id } : {}) };
  return { toolCalls: [call] };
}

/**
 * A reply that answers with text and no tool call (the model's final answer).
 *
 * @example
 * startScriptedModelServer({ scenario: [finalText("The answer is 42.")] });
 */
export function finalText(text: string): ScriptedReply {
  return { text };
}

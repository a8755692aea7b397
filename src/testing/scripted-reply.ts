/**
 * What a scripted model answers: the reply types a scenario or a policy returns.
 */
import type { ChatRequest } from "./chat-types.js";

/** One tool call of a scripted reply. */
export interface ScriptedToolCall {
  /** The call id; default `call_<callIndex>_<position>`. */
  id?: string;
  name: string;
  /** An object is sent JSON-stringified; a string is sent verbatim (malformed JSON allowed). */
  arguments: string | Record<string, unknown>;
}

/** One answer of the scripted model to one Chat Completions request. */
export interface ScriptedReply {
  /** The assistant text (may come with tool calls). */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Wait this long before answering (abandoned when the client disconnects). */
  delayMs?: number;
  /**
   * Answer with this HTTP status and an OpenAI-style error body instead of a completion.
   * `retryAfterMs` adds a `retry-after-ms` header, which the AI SDK's retries honour (its
   * default backoff starts at 2 s).
   */
  error?: { status: number; message: string; retryAfterMs?: number };
  /** Default "tool_calls" when the reply has tool calls, else "stop". */
  finishReason?: string;
}

/** What a {@link Responder} knows about the request besides its body. */
export interface ResponderContext {
  /** 0-based index of this request among all chat requests the server received. */
  callIndex: number;
  /** Aborted when the client disconnects or the server closes. */
  signal: AbortSignal;
}

/**
 * A deterministic policy: reads the request (e.g. the last tool result) and decides the reply.
 *
 * @example
 * const respond: Responder = (request, { callIndex }) =>
 *   callIndex === 0 ? toolCall("echo", { text: "hi" }) : finalText(textOf(lastMessage(request)));
 */
export type Responder = (
  request: ChatRequest,
  context: ResponderContext,
) => ScriptedReply | Promise<ScriptedReply>;

/** A scripted reply with ids, arguments and finish reason resolved: what goes on the wire. */
export interface ResolvedReply {
  text: string | undefined;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string;
}

/**
 * Resolves ids, stringifies object arguments and picks the finish reason.
 *
 * @example
 * resolveReply({ toolCalls: [{ name: "echo", arguments: { text: "hi" } }] }, 0);
 * // { text: undefined, toolCalls: [{ id: "call_0_0", name: "echo", arguments: '{"text":"hi"}' }], finishReason: "tool_calls" }
 */
export function resolveReply(reply: ScriptedReply, callIndex: number): ResolvedReply {
  const toolCalls = (reply.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_${callIndex}_${position}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
  return {
    text: reply.text,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
  };
}

/**
 * The OpenAI Chat Completions request shapes the scripted model server accepts, as TypeScript
 * types and as the zod schema that validates every HTTP request body.
 *
 * The schemas are loose (unknown fields pass through) because providers add their own fields
 * (`reasoning_content`, `stream_options`, `user`, …); only what the server reads is checked.
 */
import { z } from "zod";

/** One part of an array-valued message content (`{ type: "text", text }`, `image_url`, …). */
export interface ChatContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

/** A message content: a string, an array of parts, or null (assistant turns with tool calls). */
export type ChatContent = string | ChatContentPart[] | null;

/** A tool call the model made, as it appears in an assistant message. */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  [key: string]: unknown;
}

export interface ChatSystemMessage {
  role: "system" | "developer";
  content: ChatContent;
  [key: string]: unknown;
}

export interface ChatUserMessage {
  role: "user";
  content: ChatContent;
  [key: string]: unknown;
}

export interface ChatAssistantMessage {
  role: "assistant";
  content?: ChatContent;
  tool_calls?: ChatToolCall[];
  [key: string]: unknown;
}

/** A tool result sent back to the model, answering the call with id `tool_call_id`. */
export interface ChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: ChatContent;
  [key: string]: unknown;
}

/** One message of a Chat Completions request. */
export type ChatMessage =
  | ChatSystemMessage
  | ChatUserMessage
  | ChatAssistantMessage
  | ChatToolMessage;

/** A tool declared in the request (`tools: [{ type: "function", function: { name, … } }]`). */
export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: unknown; [key: string]: unknown };
  [key: string]: unknown;
}

/** A Chat Completions request body as the server received it (after validation). */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  stream?: boolean;
  [key: string]: unknown;
}

const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const contentSchema = z.union([z.string(), z.array(contentPartSchema), z.null()]);

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal("function"),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const messageSchema = z.discriminatedUnion("role", [
  z.looseObject({ role: z.enum(["system", "developer"]), content: contentSchema }),
  z.looseObject({ role: z.literal("user"), content: contentSchema }),
  z.looseObject({
    role: z.literal("assistant"),
    content: contentSchema.optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.looseObject({ role: z.literal("tool"), tool_call_id: z.string(), content: contentSchema }),
]);

const toolSchema = z.looseObject({
  type: z.literal("function"),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.unknown().optional(),
  }),
});

/** Validates a Chat Completions request body. */
export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  tools: z.array(toolSchema).optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});

/**
 * Parses an untrusted request body: the request, or a message naming what is wrong.
 *
 * @example
 * const parsed = parseChatRequest(JSON.parse(body));
 * if (!parsed.ok) respond400(parsed.message);
 */
export function parseChatRequest(
  body: unknown,
): { ok: true; request: ChatRequest; includeUsage: boolean } | { ok: false; message: string } {
  const result = chatRequestSchema.safeParse(body);
  if (!result.success) {
    return {
      ok: false,
      message: `Invalid Chat Completions request body:\n${z.prettifyError(result.error)}`,
    };
  }
  return {
    ok: true,
    request: result.data as ChatRequest,
    includeUsage: result.data.stream_options?.include_usage === true,
  };
}

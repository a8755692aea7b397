/**
 * The client's own model as the extraction model: each extraction call (a map call per chunk,
 * then the reduce call) becomes one MCP `sampling/createMessage` request to the client.
 */
import type { ModelMessage } from "ai";
import { SpillwayError } from "../core/errors.js";
import { countTokens, type TokenizerName } from "../core/tokens.js";
import type { ModelReply, ModelRequest } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import type { GatewaySampling } from "./gateway-settings.js";

/** The ref extraction events and accounting name the client's model by. */
export const SAMPLING_MODEL_REF = "mcp-sampling/client";

/** What a `sampling/createMessage` request carries (MCP 2025-06-18 and later). */
export interface SamplingRequest {
  readonly messages: { role: "user" | "assistant"; content: { type: "text"; text: string } }[];
  readonly systemPrompt: string;
  readonly maxTokens: number;
  readonly includeContext: "none";
  readonly temperature: number;
}

/** The part of a sampling result extraction reads. */
export interface SamplingReply {
  readonly model?: string | undefined;
  readonly stopReason?: string | undefined;
  readonly content: unknown;
}

/** Sends one sampling request to the client (through the request being answered, if any). */
export type SendSampling = (
  request: SamplingRequest,
  signal?: AbortSignal,
) => Promise<SamplingReply>;

/**
 * The extraction target that stands for the client's model. Its context window is the
 * configured assumption (the client does not say which model it will use); it is only ever
 * called through {@link samplingCallModel}, never through an AI SDK provider.
 */
export function samplingTarget(sampling: GatewaySampling, tokenizer: TokenizerName): ModelTarget {
  return {
    ref: SAMPLING_MODEL_REF,
    provider: "openai-compatible",
    name: "mcp-sampling",
    model: "client",
    contextWindow: sampling.contextWindow,
    maxOutputTokens: sampling.maxTokens,
    tokenizer,
  };
}

function textOf(content: ModelMessage["content"]): string {
  if (typeof content === "string") return content;
  return content
    .map((part) => ("text" in part && typeof part.text === "string" ? part.text : ""))
    .join("");
}

/** The text of a sampling result's content (a block, or a list of blocks). */
function replyText(content: unknown): string | undefined {
  const blocks = Array.isArray(content) ? content : [content];
  const texts = blocks.flatMap((block) =>
    typeof block === "object" &&
    block !== null &&
    (block as { type?: unknown }).type === "text" &&
    typeof (block as { text?: unknown }).text === "string"
      ? [(block as { text: string }).text]
      : [],
  );
  return texts.length > 0 ? texts.join("") : undefined;
}

/**
 * A `callModel` for the extraction engine that asks the client's model through sampling. The
 * client reports no token counts, so usage is estimated with `tokenizer` and said to be.
 *
 * @example
 * const callModel = samplingCallModel((request, signal) => server.createMessage(request, { signal }), settings.sampling, "o200k_base");
 */
export function samplingCallModel(
  send: SendSampling,
  sampling: GatewaySampling,
  tokenizer: TokenizerName,
): (targets: readonly ModelTarget[], request: ModelRequest) => Promise<ModelReply> {
  return async (targets, request) => {
    const target = targets[0] ?? samplingTarget(sampling, tokenizer);
    const started = performance.now();
    const messages = request.messages.flatMap((message) =>
      message.role === "user" || message.role === "assistant"
        ? [
            {
              role: message.role,
              content: { type: "text" as const, text: textOf(message.content) },
            },
          ]
        : [],
    );
    let reply: SamplingReply;
    try {
      reply = await send(
        {
          messages,
          systemPrompt: request.system,
          maxTokens: request.maxOutputTokens ?? sampling.maxTokens,
          includeContext: "none",
          temperature: 0,
        },
        request.signal,
      );
    } catch (error) {
      throw new SpillwayError(
        "MODEL_CALL_FAILED",
        `The client's model did not answer the sampling request: ${(error as Error).message ?? String(error)}`,
        { model: SAMPLING_MODEL_REF },
        { fault: "tool", cause: error },
      );
    }
    const text = replyText(reply.content);
    if (text === undefined) {
      throw new SpillwayError(
        "MODEL_CALL_FAILED",
        "The client's model answered the sampling request without text content.",
        { model: SAMPLING_MODEL_REF },
        { fault: "tool" },
      );
    }
    const prompt = `${request.system}\n${messages.map((m) => m.content.text).join("\n")}`;
    const latencyMs = performance.now() - started;
    return {
      target: { ...target, ...(reply.model ? { model: reply.model } : {}) },
      text,
      toolCalls: [],
      usage: {
        inputTokens: await countTokens(prompt, tokenizer),
        outputTokens: await countTokens(text, tokenizer),
      },
      finishReason: reply.stopReason ?? "unknown",
      latencyMs,
      attempts: [{ ref: target.ref, latencyMs }],
    };
  };
}

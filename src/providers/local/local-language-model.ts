/**
 * `local/<name-or-path>`: an AI SDK `LanguageModelV3` over a GGUF model run in-process by
 * node-llama-cpp. Tools are offered through the model's own chat template (node-llama-cpp's
 * chat wrappers); once the model starts a call, a grammar constrains the arguments to the
 * tool's schema. Usage is counted in real tokens; the prefix shared with the previous call
 * of a sequence is reused (reported as cached input).
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
  SharedV3Warning,
} from "@ai-sdk/provider";
import type { ChatModelFunctions, LlamaChatResponse } from "node-llama-cpp";
import { SpillwayError } from "../../core/errors.js";
import { type ForcedCall, forcedCall, prefillReply } from "./forced-call.js";
import { type LocalRuntime, type LocalRuntimeOptions, localRuntime } from "./local-runtime.js";
import { resolveModelFile } from "./model-files.js";
import { promptToHistory } from "./prompt-to-history.js";
import { malformedToolCall, mayBeToolCallText, recoverToolCalls } from "./recover-tool-calls.js";
import { replyCallIds, replyContent, type ToolCallSource } from "./reply-calls.js";
import { toGbnfSchema, toolsTakingNoArguments } from "./tool-schema.js";

/** Options of a local model. */
export interface LocalModelOptions extends Partial<LocalRuntimeOptions> {
  /** Store home whose `models/` is searched for a name (else `$SPILLWAY_HOME`). */
  readonly home?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Turn a reply that is only a JSON tool call written as text into that call (default true). */
  readonly recoverTextToolCalls?: boolean;
  /** Injectable for tests. */
  readonly runtime?: (path: string, options: LocalRuntimeOptions) => Promise<LocalRuntime>;
}

const callSources = { native: 0, recovered: 0, forced: 0, none: 0 };

/**
 * How the replies of local models in this process carried their tool calls so far: `native`
 * (the chat template's call syntax, arguments under the grammar), `recovered` (a JSON call
 * written as text), `forced` (a required call the provider started, see forced-call.ts),
 * `none` (no call). For measuring tool-call reliability.
 *
 * @example
 * localToolCallSources(); // { native: 3, recovered: 9, forced: 1, none: 4 }
 */
export function localToolCallSources(): {
  native: number;
  recovered: number;
  forced: number;
  none: number;
} {
  return { ...callSources };
}

/** The default context size of a local model: memory stays modest, prompts stay fast. */
export const DEFAULT_LOCAL_CONTEXT = 16_384;

interface Generation {
  readonly content: LanguageModelV3Content[];
  readonly finishReason: LanguageModelV3FinishReason;
  readonly usage: LanguageModelV3Usage;
  readonly warnings: SharedV3Warning[];
  /**
   * How each call was read: the grammar (`native`), a JSON object written as text
   * (`recovered`), or a required call the provider started (`forced`).
   */
  readonly toolCallSource: ToolCallSource;
}

/** The least room a reply is given before a call is refused: a tool call or a short report. */
export const MIN_REPLY_TOKENS = 256;

/**
 * The reply's token limit in what the context leaves after the prompt: the one asked for when
 * it fits, else the room left (all of it when none is asked for), down to `MIN_REPLY_TOKENS`, or
 * the limit asked for when that is smaller (`null` below that). The runtime
 * budgets prompts in its own tokenizer's counts with a margin for the model's (SW-21); text the
 * model's tokenizer splits finer than the margin allows (long digit runs) must cost the reply's
 * spare room, not the call. A reply cut short ends with finish reason `length`.
 *
 * @example
 * replyBudget(7602, 1024, 8192) // 590
 * replyBudget(8000, 1024, 8192) // null
 */
export function replyBudget(
  promptTokens: number,
  maxOutputTokens: number | undefined,
  contextSize: number,
): number | null {
  const room = contextSize - promptTokens;
  if (room < Math.min(MIN_REPLY_TOKENS, maxOutputTokens ?? MIN_REPLY_TOKENS)) return null;
  return Math.min(maxOutputTokens ?? room, room);
}

/**
 * The AI SDK finish reason of a local reply.
 *
 * @example
 * replyFinish("maxTokens", true).unified // "length": a call in a cut reply may be cut too
 */
export function replyFinish(
  stopReason: LlamaChatResponse["metadata"]["stopReason"],
  hasCalls: boolean,
): LanguageModelV3FinishReason {
  // A reply cut at the token limit says so even when it holds a call: that call may be cut too.
  if (stopReason === "maxTokens") return { unified: "length", raw: stopReason };
  if (hasCalls) return { unified: "tool-calls", raw: stopReason };
  switch (stopReason) {
    case "abort":
      return { unified: "other", raw: stopReason };
    default:
      return { unified: "stop", raw: stopReason };
  }
}

/**
 * A `LanguageModelV3` over a local GGUF file. The model file is found and loaded on the
 * first call (once per process), so creating one is cheap and never fails.
 *
 * @example
 * import { generateText } from "ai";
 * const model = new LocalLanguageModel("qwen2.5-coder-1.5b-instruct-q4_k_m", { contextSize: 8192 });
 * const { text } = await generateText({ model, prompt: "Say hi." });
 */
export class LocalLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = "v3" as const;
  readonly provider = "local";
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private readonly options: LocalModelOptions;

  constructor(nameOrPath: string, options: LocalModelOptions = {}) {
    this.modelId = nameOrPath;
    this.options = options;
  }

  /** Resolves the file and loads the model (once per process); the loaded runtime. */
  async load(): Promise<LocalRuntime> {
    const path = resolveModelFile(this.modelId, {
      ...(this.options.home ? { home: this.options.home } : {}),
      ...(this.options.env ? { env: this.options.env } : {}),
    });
    return (this.options.runtime ?? localRuntime)(path, {
      contextSize: this.options.contextSize ?? DEFAULT_LOCAL_CONTEXT,
      ...(this.options.sequences ? { sequences: this.options.sequences } : {}),
      ...(this.options.threads ? { threads: this.options.threads } : {}),
    });
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const generation = await this.generate(options, undefined);
    return {
      content: generation.content,
      finishReason: generation.finishReason,
      usage: generation.usage,
      warnings: generation.warnings,
      providerMetadata: { local: { toolCallSource: generation.toolCallSource } },
      response: { modelId: this.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const model = this;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      async start(controller) {
        const textId = "text-0";
        let started = false;
        let held = "";
        let holding = true;
        const emitText = (delta: string) => {
          if (delta === "") return;
          if (!started) {
            controller.enqueue({ type: "text-start", id: textId });
            started = true;
          }
          controller.enqueue({ type: "text-delta", id: textId, delta });
        };
        controller.enqueue({ type: "stream-start", warnings: [] });
        try {
          const generation = await model.generate(options, (chunk) => {
            // Text that may turn out to be a tool call written as JSON is held back.
            if (holding) {
              held += chunk;
              if (mayBeToolCallText(held)) return;
              holding = false;
              emitText(held);
              held = "";
              return;
            }
            emitText(chunk);
          });
          for (const part of generation.content) {
            if (part.type === "text" && holding) emitText(part.text);
            else if (part.type === "tool-call") {
              controller.enqueue({
                type: "tool-input-start",
                id: part.toolCallId,
                toolName: part.toolName,
              });
              controller.enqueue({
                type: "tool-input-delta",
                id: part.toolCallId,
                delta: part.input,
              });
              controller.enqueue({ type: "tool-input-end", id: part.toolCallId });
              controller.enqueue(part);
            }
          }
          if (started) controller.enqueue({ type: "text-end", id: textId });
          controller.enqueue({
            type: "response-metadata",
            modelId: model.modelId,
            timestamp: new Date(),
          });
          controller.enqueue({
            type: "finish",
            finishReason: generation.finishReason,
            usage: generation.usage,
            providerMetadata: { local: { toolCallSource: generation.toolCallSource } },
          });
          controller.close();
        } catch (error) {
          controller.enqueue({ type: "error", error });
          controller.close();
        }
      },
    });
    return { stream };
  }

  private aborted(cause: unknown): SpillwayError {
    return new SpillwayError(
      "ABORTED",
      `The call to local/${this.modelId} was aborted.`,
      { model: `local/${this.modelId}` },
      cause === undefined ? {} : { cause },
    );
  }

  private async generate(
    options: LanguageModelV3CallOptions,
    onText: ((chunk: string) => void) | undefined,
  ): Promise<Generation> {
    const warnings: SharedV3Warning[] = [];
    for (const setting of [
      "topK",
      "presencePenalty",
      "frequencyPenalty",
      "stopSequences",
    ] as const) {
      if (options[setting] !== undefined) warnings.push({ type: "unsupported", feature: setting });
    }
    if (options.responseFormat?.type === "json")
      warnings.push({ type: "unsupported", feature: "responseFormat" });
    const toolChoice = options.toolChoice?.type ?? "auto";
    const functions: Record<
      string,
      { description?: string; params?: ReturnType<typeof toGbnfSchema> }
    > = {};
    if (toolChoice !== "none") {
      for (const tool of options.tools ?? []) {
        if (tool.type !== "function") {
          warnings.push({ type: "unsupported", feature: `provider tool ${tool.name}` });
          continue;
        }
        functions[tool.name] = {
          ...(tool.description ? { description: tool.description } : {}),
          params: toGbnfSchema(tool.inputSchema),
        };
      }
    }
    const hasFunctions = Object.keys(functions).length > 0;
    const chatFunctions = hasFunctions ? (functions as ChatModelFunctions) : undefined;
    const history = promptToHistory(options.prompt);
    const runtime = await this.load();
    // A required call is started for the model (node-llama-cpp cannot require one).
    // Every tool stays in the prompt (the chat template renders them into the system prompt, so
    // the prefix cached from the previous turn holds); a named tool choice starts that call.
    const named = options.toolChoice?.type === "tool" ? options.toolChoice.toolName : undefined;
    const forcedTools = Object.entries(functions)
      .filter(([name]) => named === undefined || name === named)
      .map(([name, fn]) => ({ name, params: fn.params }));
    const forced: ForcedCall | undefined =
      hasFunctions && forcedTools.length > 0 && (toolChoice === "required" || toolChoice === "tool")
        ? forcedCall(runtime.chatWrapper.settings.functions.call, forcedTools)
        : undefined;
    if (forced) prefillReply(history, forced.prefill);
    const promptTokens = runtime.promptTokens(history, chatFunctions);
    const maxTokens = replyBudget(
      promptTokens.length,
      options.maxOutputTokens,
      runtime.contextSize,
    );
    if (maxTokens === null) {
      throw new SpillwayError(
        "MODEL_CALL_FAILED",
        `The prompt is ${promptTokens.length} tokens, which leaves less than ${MIN_REPLY_TOKENS} for the reply in the local model's context of ${runtime.contextSize} tokens (${runtime.path}). Raise contextWindow for local/${this.modelId} (up to its training context, ${runtime.trainContextSize}) or lower maxOutputTokens.`,
        { file: runtime.path, promptTokens: promptTokens.length, contextSize: runtime.contextSize },
      );
    }
    const slot = await runtime.acquire(promptTokens, options.abortSignal);
    const known = new Set(Object.keys(functions));
    const recover = hasFunctions && this.options.recoverTextToolCalls !== false;
    // A call written as text is complete once its JSON closes: stop there instead of letting
    // a small model repeat it until maxTokens.
    const stopper = new AbortController();
    const signal = options.abortSignal
      ? AbortSignal.any([options.abortSignal, stopper.signal])
      : stopper.signal;
    let written = "";
    const onTextChunk = (chunk: string) => {
      onText?.(chunk);
      if ((!recover && !forced) || stopper.signal.aborted) return;
      written += chunk;
      // A whole call has been written (readable, or one to answer with an error): stop there.
      if (
        forced
          ? forced.settle(written)
          : recoverToolCalls(written, known) || malformedToolCall(written, known)
      )
        stopper.abort();
    };
    let response: LlamaChatResponse<ChatModelFunctions>;
    let meter: { usedInputTokens: number; usedOutputTokens: number };
    try {
      const before = slot.sequence.tokenMeter.getState();
      response = (await slot.chat.generateResponse(history, {
        ...(chatFunctions ? { functions: chatFunctions, maxParallelFunctionCalls: 4 } : {}),
        maxTokens,
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.topP !== undefined ? { topP: options.topP } : {}),
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        signal,
        stopOnAbortSignal: true,
        onTextChunk,
      })) as LlamaChatResponse<ChatModelFunctions>;
      meter = slot.sequence.tokenMeter.diff(before);
    } catch (error) {
      if (options.abortSignal?.aborted) throw this.aborted(error);
      throw error;
    } finally {
      runtime.release(slot);
    }
    if (options.abortSignal?.aborted) throw this.aborted(undefined);
    const { content, source } = replyContent(
      { text: response.response, nativeCalls: response.functionCalls ?? [] },
      {
        known,
        recover,
        takeNoArguments: toolsTakingNoArguments(functions),
        callId: replyCallIds(promptTokens),
        ...(forced ? { forced } : {}),
      },
    );
    if (hasFunctions) callSources[source]++;
    const outputTokens = meter.usedOutputTokens;
    const inputTotal = Math.max(promptTokens.length, meter.usedInputTokens);
    const evaluated = Math.min(meter.usedInputTokens, inputTotal);
    return {
      content,
      finishReason: replyFinish(response.metadata.stopReason, source !== "none"),
      usage: {
        inputTokens: {
          total: inputTotal,
          noCache: evaluated,
          cacheRead: inputTotal - evaluated,
          cacheWrite: undefined,
        },
        outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
        raw: {
          promptTokens: promptTokens.length,
          evaluatedTokens: meter.usedInputTokens,
          generatedTokens: outputTokens,
        },
      },
      warnings,
      toolCallSource: source,
    };
  }
}

import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import {
  APICallError,
  generateText,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  streamText,
  type ToolSet,
  tool,
  wrapLanguageModel,
} from "ai";
import { isPlainObject } from "../core/check-arguments.js";
import { isSpillwayError, SpillwayError } from "../core/errors.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import { languageModelFor, type ModelTarget } from "./models.js";
import { parseToolArguments } from "./tool-arguments.js";

/** A tool call as the model made it, with its arguments exactly as sent. */
export interface ModelToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments' JSON text, verbatim (possibly invalid). */
  readonly argsText: string;
  /** Parsed arguments, when `argsText` is valid JSON. */
  readonly args: unknown;
  /** Set when the call cannot run: not valid JSON, or not a tool the model was given. */
  readonly invalid?: {
    readonly code: "INVALID_TOOL_ARGUMENTS" | "UNKNOWN_TOOL";
    readonly message: string;
  };
}

export interface ModelRequest {
  readonly system: string;
  readonly messages: ModelMessage[];
  readonly tools: readonly ToolDefinition[];
  /**
   * `required`: the reply must call one of `tools`; `{ tool }`: it must call that one (the
   * session's last turn asks for its report, with the earlier turns' tools still listed so the
   * prompt's prefix holds). Default `auto`: the model may answer in text.
   */
  readonly toolChoice?: "auto" | "required" | { readonly tool: string };
  /**
   * The reply's length limit. Default: the serving model's `maxOutputTokens`, the tokens the
   * projection reserved for the reply (a small model that loops inside a string would
   * otherwise write until its context is full).
   */
  readonly maxOutputTokens?: number;
  readonly stream?: boolean;
  readonly signal?: AbortSignal;
}

export interface ModelAttempt {
  readonly ref: string;
  readonly error?: string;
  readonly latencyMs: number;
}

export interface ModelReply {
  /** The model that answered. */
  readonly target: ModelTarget;
  readonly text: string;
  readonly toolCalls: ModelToolCall[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  readonly finishReason: string;
  readonly latencyMs: number;
  /** Every attempt made, failed ones first (retries and fallbacks). */
  readonly attempts: ModelAttempt[];
}

export interface RetryPolicy {
  /** Attempts per model before moving to the next one of the list. */
  readonly attempts: number;
  /** First backoff; doubles each retry (plus up to 25% jitter). */
  readonly backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, backoffMs: 500 };

export interface CallModelOptions {
  readonly retry?: RetryPolicy;
  readonly env?: NodeJS.ProcessEnv;
  /** Injectable for tests; defaults to {@link createLanguageModel}. */
  readonly createModel?: (target: ModelTarget) => LanguageModel;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly onAttemptFailed?: (attempt: ModelAttempt & { willRetry: boolean }) => void;
}

/** Records each tool call's raw JSON text as the provider returned it, before any parsing. */
function capturingRawToolInput(
  model: LanguageModel,
  raw: Map<string, string>,
  toolChoice: ModelRequest["toolChoice"],
): LanguageModel {
  return wrapLanguageModel({
    model: model as LanguageModelV3,
    middleware: {
      specificationVersion: "v3",
      // A required tool call goes to the provider here, not through generateText: the AI SDK
      // would turn a text reply into a ToolChoiceViolationError, and a provider that ignores
      // tool_choice (an Ollama server) would then fail the call. The text reaches the loop,
      // whose turn policy decides what it means.
      ...(toolChoice !== undefined && toolChoice !== "auto"
        ? {
            transformParams: async ({ params }) =>
              params.tools?.length
                ? {
                    ...params,
                    toolChoice:
                      toolChoice === "required"
                        ? { type: "required" as const }
                        : { type: "tool" as const, toolName: toolChoice.tool },
                  }
                : params,
          }
        : {}),
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        for (const part of result.content) {
          if (part.type === "tool-call") raw.set(part.toolCallId, part.input);
        }
        return result;
      },
      wrapStream: async ({ doStream }) => {
        const { stream, ...rest } = await doStream();
        const capture = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            if (part.type === "tool-call") raw.set(part.toolCallId, part.input);
            controller.enqueue(part);
          },
        });
        return { stream: stream.pipeThrough(capture), ...rest };
      },
    },
  });
}

function toolSet(tools: readonly ToolDefinition[]): ToolSet {
  const set: ToolSet = {};
  for (const definition of tools) {
    // No execute: spillway runs every tool itself, through one interception point.
    set[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
    });
  }
  return set;
}

/**
 * The tools a request sends to `target`. An Ollama server ignores `tool_choice`: a call that
 * must go to one tool sends only that tool there (the prompt's prefix changes for that turn).
 */
function toolsSentTo(target: ModelTarget, request: ModelRequest): readonly ToolDefinition[] {
  const choice = request.toolChoice;
  if (target.provider !== "ollama" || typeof choice !== "object") return request.tools;
  return request.tools.filter((t) => t.name === choice.tool);
}

/** Calls one model once. */
async function callOnce(
  model: LanguageModel,
  request: ModelRequest,
  target: ModelTarget,
): Promise<Omit<ModelReply, "target" | "attempts" | "latencyMs">> {
  const raw = new Map<string, string>();
  const wrapped = capturingRawToolInput(model, raw, request.toolChoice);
  const known = new Set(request.tools.map((t) => t.name));
  const tools = toolsSentTo(target, request);
  const settings = {
    model: wrapped,
    system: request.system,
    messages: request.messages,
    ...(tools.length > 0 ? { tools: toolSet(tools) } : {}),
    maxRetries: 0,
    maxOutputTokens: request.maxOutputTokens ?? target.maxOutputTokens,
    ...(request.signal ? { abortSignal: request.signal } : {}),
  };
  let text: string;
  let calls: { toolCallId: string; toolName: string; input: unknown }[];
  let usage: { inputTokens?: number | undefined; outputTokens?: number | undefined };
  let finishReason: string;
  if (request.stream) {
    let streamError: unknown;
    const result = streamText({
      ...settings,
      onError: ({ error }) => {
        streamError ??= error;
      },
    });
    try {
      text = await result.text;
      calls = await result.toolCalls;
      usage = await result.usage;
      finishReason = await result.finishReason;
    } catch (error) {
      throw streamError ?? error;
    }
    if (streamError) throw streamError;
  } else {
    const result = await generateText(settings);
    text = result.text;
    calls = result.toolCalls;
    usage = result.usage;
    finishReason = result.finishReason;
  }
  const toolCalls = calls.map((call, index): ModelToolCall => {
    const written = raw.get(call.toolCallId) ?? JSON.stringify(call.input ?? {});
    const parsed = parseToolArguments(written);
    // Keyword arguments read as keys are kept as the JSON that was read: the history then shows
    // the model its call as a call is written.
    const argsText = parsed.ok && parsed.repaired !== undefined ? parsed.repaired : written;
    const made = { toolCallId: call.toolCallId, toolName: call.toolName, argsText };
    if (!known.has(call.toolName))
      return {
        ...made,
        args: parsed.ok ? parsed.value : undefined,
        invalid: {
          code: "UNKNOWN_TOOL",
          message: `There is no tool named "${call.toolName}". Available tools: ${[...known].join(", ") || "none"}.`,
        },
      };
    if (!parsed.ok)
      return refused(
        made,
        // Only a reply's last call can be the one its length limit cut.
        finishReason === "length" && index === calls.length - 1
          ? cutCallMessage(call.toolName)
          : `The arguments of ${call.toolName} are not valid JSON (${parsed.reason}). Send one JSON object matching the tool's schema.`,
      );
    if (!isPlainObject(parsed.value))
      return refused(
        made,
        `The arguments of ${call.toolName} must be one JSON object matching the tool's schema, not ${jsonKindOf(parsed.value)}.`,
      );
    return { ...made, args: parsed.value };
  });
  return {
    text,
    toolCalls,
    usage: { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 },
    finishReason,
  };
}

/** A call that cannot run for its arguments, answered with `message`. */
function refused(
  made: Pick<ModelToolCall, "toolCallId" | "toolName" | "argsText">,
  message: string,
): ModelToolCall {
  return { ...made, args: undefined, invalid: { code: "INVALID_TOOL_ARGUMENTS", message } };
}

/** The kind of a JSON value, for an error ("a string", "an array", "null"); core's describeValue quotes the value itself instead. */
function jsonKindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * A call whose arguments the reply's length limit cut off (the local provider's limit can be the
 * context's room, below `maxOutputTokens`): it did not run, and the same call again would be cut
 * again, so the message asks for a shorter one.
 */
function cutCallMessage(toolName: string): string {
  return `Your call to ${toolName} was cut off at the reply's length limit before its arguments were complete, so it did not run. Make the call again with shorter arguments.`;
}

function isRetryable(error: unknown): boolean {
  if (APICallError.isInstance(error)) return error.isRetryable;
  if (isSpillwayError(error)) return false;
  // Network failures (connection refused, reset) surface as plain errors: worth a retry.
  return true;
}

function describe(error: unknown): string {
  if (APICallError.isInstance(error)) {
    return `${error.statusCode ?? "no status"}: ${error.message}`.slice(0, 500);
  }
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new SpillwayError("ABORTED", "Aborted while waiting to retry the model.", {}));
      },
      { once: true },
    );
  });

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * Calls the first model of `targets` that answers: each is tried up to `retry.attempts`
 * times with exponential backoff on retryable errors (rate limits, 5xx, network), then the
 * next model of the list. The reply says which model served it and every failed attempt.
 * All failing is MODEL_UNAVAILABLE listing each model's last error.
 *
 * @example
 * const reply = await callModel([primary, fallback], { system, messages, tools });
 * console.log(reply.target.ref, reply.toolCalls.map((c) => c.toolName));
 */
export async function callModel(
  targets: readonly ModelTarget[],
  request: ModelRequest,
  options: CallModelOptions = {},
): Promise<ModelReply> {
  const retry = options.retry ?? DEFAULT_RETRY;
  const sleep = options.sleep ?? defaultSleep;
  const attempts: ModelAttempt[] = [];
  for (const target of targets) {
    let model: LanguageModel;
    try {
      model = (options.createModel ?? ((t) => languageModelFor(t, options.env)))(target);
    } catch (error) {
      attempts.push({ ref: target.ref, error: describe(error), latencyMs: 0 });
      options.onAttemptFailed?.({
        ref: target.ref,
        error: describe(error),
        latencyMs: 0,
        willRetry: false,
      });
      continue;
    }
    for (let attempt = 1; attempt <= retry.attempts; attempt++) {
      const started = performance.now();
      try {
        const reply = await callOnce(model, request, target);
        return { ...reply, target, attempts, latencyMs: performance.now() - started };
      } catch (error) {
        if (aborted(request.signal)) {
          throw new SpillwayError(
            "ABORTED",
            `The call to ${target.ref} was aborted.`,
            { model: target.ref },
            { cause: error },
          );
        }
        const willRetry = attempt < retry.attempts && isRetryable(error);
        const failed = {
          ref: target.ref,
          error: describe(error),
          latencyMs: performance.now() - started,
        };
        attempts.push(failed);
        options.onAttemptFailed?.({ ...failed, willRetry });
        if (!willRetry) break;
        const backoff = retry.backoffMs * 2 ** (attempt - 1);
        await sleep(backoff + Math.random() * backoff * 0.25, request.signal);
      }
    }
  }
  const summary = attempts.map((a) => `${a.ref}: ${a.error}`).join("; ");
  throw new SpillwayError(
    "MODEL_UNAVAILABLE",
    `No model answered (${summary || "no models configured"}). Check the model names, that the server is running, ` +
      "and the API key variables; set the model with --model, the agent's models: list, or SPILLWAY_MODEL.",
    { attempts },
    { fault: "user" },
  );
}

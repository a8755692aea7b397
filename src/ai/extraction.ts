import { generateText, jsonSchema, type LanguageModel, stepCountIs, type ToolSet, tool } from "ai";
import { randomId } from "../core/ids.js";
import { ExtractionEngine } from "../extraction/engine.js";
import type { ReadGrepAgentRequest, ReadGrepAgentResult } from "../extraction/read-grep.js";
import { DEFAULT_EXTRACTION } from "../extraction/settings.js";
import { callModel } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import type { OutputStore } from "../store/output-store.js";
import type { ExtractionCache } from "../store/sqlite-extraction-cache.js";
import { FINAL_REPORT, FINAL_REPORT_DEFINITION } from "../surfaces/final-report-tool.js";
import { createReadGrepSurface } from "../surfaces/read-grep-surface.js";
import { answerBudgetChars } from "../surfaces/show-decision.js";
import type { SpillwayExtractionOptions } from "./options.js";

/** Tokens and calls spent by extraction (map-reduce calls and read-grep agent steps). */
export interface ExtractionUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** The name a model goes by in results and the cache key. */
function modelRef(model: LanguageModel): string {
  if (typeof model === "string") return model;
  return `${model.provider}/${model.modelId}`;
}

/**
 * The read-grep extraction agent (D0-8) run by the AI SDK's own loop: only Read
 * and Grep over the one output, and agent__final_report to answer.
 */
function readGrepRunner(
  model: LanguageModel,
  outputs: OutputStore,
  sessionId: string,
  maxChars: number,
  usage: ExtractionUsage,
) {
  return async (request: ReadGrepAgentRequest): Promise<ReadGrepAgentResult> => {
    const surface = createReadGrepSurface(request.handle, { sessionId });
    const callsPerStep = new WeakMap<object, number>();
    const tools: ToolSet = {};
    for (const definition of surface.tools()) {
      tools[definition.name] = tool({
        description: definition.description,
        inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
        execute: async (input: unknown, { messages, abortSignal, toolCallId }) => {
          const made = (callsPerStep.get(messages) ?? 0) + 1;
          callsPerStep.set(messages, made);
          if (made > request.maxToolCallsPerTurn)
            return `Error: at most ${request.maxToolCallsPerTurn} tool calls per turn; this one was not run.`;
          const answer = await surface.execute(definition.name, input, {
            outputs,
            scope: { sessionId },
            maxChars,
            tokenizer: "o200k_base",
            outputOfToolCall: async () => undefined,
            toolCallId,
            ...(abortSignal ? { signal: abortSignal } : {}),
          });
          return answer.text;
        },
      });
    }
    // No execute: calling it ends the loop, and its input is the report.
    tools[FINAL_REPORT] = tool({
      description: FINAL_REPORT_DEFINITION.description,
      inputSchema: jsonSchema<{ report: string }>(
        FINAL_REPORT_DEFINITION.inputSchema as Parameters<typeof jsonSchema>[0],
      ),
    });
    const sessionIdOfRun = randomId("ses");
    const result = await generateText({
      model,
      system: request.systemPrompt,
      prompt: request.task,
      tools,
      stopWhen: stepCountIs(request.maxTurns),
      maxRetries: 1,
      ...(request.signal ? { abortSignal: request.signal } : {}),
    });
    usage.calls += result.steps.length;
    usage.inputTokens += result.totalUsage.inputTokens ?? 0;
    usage.outputTokens += result.totalUsage.outputTokens ?? 0;
    const call = result.toolCalls.find((c) => c.toolName === FINAL_REPORT);
    const input = call?.input as { report?: unknown } | undefined;
    const report = typeof input?.report === "string" ? input.report : result.text;
    const done = report.trim() !== "";
    return {
      sessionId: sessionIdOfRun,
      status: done ? "completed" : "max_turns",
      report: done ? report : null,
      error: done ? null : `no final report after ${result.steps.length} steps`,
    };
  };
}

/**
 * The extraction engine of an adapter session over any AI SDK language model: map-reduce with
 * verified quotes, the read-grep agent, the cache (when the store has one), and the truncate
 * fallback that says so.
 *
 * @example
 * const engine = aiSdkExtractor({ model: openai("gpt-4.1-mini") }, store, "chat-42", cache, usage);
 */
export function aiSdkExtractor(
  options: SpillwayExtractionOptions,
  outputs: OutputStore,
  sessionId: string,
  cache: ExtractionCache | undefined,
  usage: ExtractionUsage,
): ExtractionEngine {
  const contextWindow = options.contextWindow ?? 32_768;
  const maxOutputTokens = options.maxOutputTokens ?? 4_096;
  const target: ModelTarget = {
    ref: modelRef(options.model),
    // Not used to build the model: the app's own model object is called as is.
    provider: "openai-compatible",
    model: typeof options.model === "string" ? options.model : options.model.modelId,
    contextWindow,
    maxOutputTokens,
    tokenizer: "o200k_base",
  };
  const answerChars = answerBudgetChars(Math.floor((contextWindow - maxOutputTokens) / 2), 12_288);
  return new ExtractionEngine({
    outputs,
    scope: { sessionId },
    settings: {
      ...DEFAULT_EXTRACTION,
      ...(options.maxChunks ? { maxChunks: options.maxChunks } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      models: [target],
    },
    servingTargets: () => [target],
    callModel: (targets, request) =>
      callModel(targets, request, {
        createModel: () => options.model,
        // The extraction call itself retries (`extraction.retries`, default 2).
        retry: { attempts: 1, backoffMs: 0 },
      }),
    ...(cache ? { cache } : {}),
    readGrep: readGrepRunner(options.model, outputs, sessionId, answerChars, usage),
    onModelCall: (reply) => {
      usage.calls++;
      usage.inputTokens += reply.usage.inputTokens;
      usage.outputTokens += reply.usage.outputTokens;
    },
    emit: () => {
      // Progress events have no listener in the adapter; results carry their provenance.
    },
  });
}

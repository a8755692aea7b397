/**
 * The peers' loop with a real model: the AI SDK's generateText with the policy's tools really
 * offered (data__fetch showing the policy's view, and its own tools: Read/Grep, Bash over the
 * spilled file, get_continuation), until the model calls agent__final_report, answers in plain
 * text, or runs out of turns. The same tools the scripted eval's in-process loop uses
 * (eval/drive.ts), so a real model and a blind script play the same policy.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  generateText,
  hasToolCall,
  jsonSchema,
  type LanguageModel,
  stepCountIs,
  tool,
  wrapLanguageModel,
} from "ai";
import type { ToolSpec } from "./agents/conversation.js";
import { FETCH_TOOL, FINAL_REPORT_SPEC, PEER_SYSTEM_PROMPT, type PolicyEnv } from "./drive.js";

export interface LiveLoopResult {
  readonly report: string | null;
  readonly failure: string | null;
  /** Model calls (steps). */
  readonly requests: number;
  /** Input tokens over every call, as the model counted them. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Tool results the model was shown, in order. */
  readonly shown: readonly string[];
  /** Tool names the model called, in order (the final report excluded). */
  readonly calls: readonly string[];
  /** A call of one of the policy's own tools came before the report. */
  readonly retrieved: boolean;
}

export interface LiveLoopOptions {
  readonly prompt: string;
  readonly maxTurns?: number;
  readonly maxOutputTokens?: number;
  readonly abortSignal?: AbortSignal;
  /**
   * Every call asks for a tool call, as spillway's runtime does with the same model
   * (`textReplies: none`, the default for local models), so both play under the same rule.
   */
  readonly requireToolCalls?: boolean;
  /** Called after each model call (progress). */
  readonly onStep?: (step: { inputTokens: number; outputTokens: number; calls: string[] }) => void;
}

/** What the peers' last step is told (spillway's notice says the same in its last turn). */
export const LAST_STEP_NOTE = `This is your final turn: call ${FINAL_REPORT_SPEC.name} now with your complete answer.`;

const schemaOf = (spec: ToolSpec) =>
  jsonSchema(
    (spec.parameters ?? { type: "object", properties: {} }) as Parameters<typeof jsonSchema>[0],
  );

/**
 * Plays one task with `model` against a policy's tools.
 *
 * @example
 * const result = await liveLoop(model, await peerEnv("paging-4000", prepared, dir), { prompt });
 */
export async function liveLoop(
  model: LanguageModel,
  env: PolicyEnv,
  options: LiveLoopOptions,
): Promise<LiveLoopResult> {
  const shown: string[] = [];
  const calls: string[] = [];
  let report: string | null = null;
  const own = new Set(env.tools.map((t) => t.name));
  const record = (name: string, text: string) => {
    calls.push(name);
    shown.push(text);
    return text;
  };
  const tools = Object.fromEntries([
    [
      FETCH_TOOL.name,
      tool({
        description: FETCH_TOOL.description ?? "",
        inputSchema: schemaOf(FETCH_TOOL),
        execute: async (_args, { toolCallId }) =>
          record(FETCH_TOOL.name, await env.fetch(toolCallId)),
      }),
    ],
    ...env.tools.map((spec) => [
      spec.name,
      tool({
        description: spec.description ?? "",
        inputSchema: schemaOf(spec),
        execute: async (args: unknown) =>
          record(
            spec.name,
            await env.run(
              spec.name,
              typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {},
            ),
          ),
      }),
    ]),
    [
      FINAL_REPORT_SPEC.name,
      tool({
        description: FINAL_REPORT_SPEC.description ?? "",
        inputSchema: schemaOf(FINAL_REPORT_SPEC),
        execute: async (args: unknown) => {
          const text = (args as { report?: unknown } | null)?.report;
          report = typeof text === "string" && text.trim() !== "" ? text : report;
          return "Report delivered.";
        },
      }),
    ],
  ]);
  let failure: string | null = null;
  const maxTurns = options.maxTurns ?? 12;
  let lastStep = false;
  // A required call goes to the provider through the model, not generateText's toolChoice, which
  // would turn a text reply into an error (spillway's model caller does the same).
  const requiring = wrapLanguageModel({
    model: model as LanguageModelV3,
    middleware: {
      specificationVersion: "v3",
      transformParams: async ({ params }) =>
        lastStep && params.tools?.length
          ? {
              ...params,
              toolChoice: { type: "tool" as const, toolName: FINAL_REPORT_SPEC.name },
            }
          : options.requireToolCalls && params.tools?.length
            ? { ...params, toolChoice: { type: "required" as const } }
            : params,
    },
  });
  // Counted step by step, so a call that fails midway (a full context) keeps what came before.
  const usage = { requests: 0, input: 0, output: 0 };
  try {
    const result = await generateText({
      model: requiring,
      system: PEER_SYSTEM_PROMPT,
      prompt: options.prompt,
      tools,
      stopWhen: [hasToolCall(FINAL_REPORT_SPEC.name), stepCountIs(maxTurns)],
      // The last step as spillway's runtime plays it: told so, with the same tools listed (the
      // prompt's prefix holds) and the report required by name (a competent harness does not let
      // the last turn go by unused).
      prepareStep: ({ stepNumber, messages }) => {
        lastStep = stepNumber === maxTurns - 1;
        return lastStep
          ? { messages: [...messages, { role: "user" as const, content: LAST_STEP_NOTE }] }
          : undefined;
      },
      maxOutputTokens: options.maxOutputTokens ?? 1024,
      maxRetries: 0,
      onStepFinish: (step) => {
        usage.requests++;
        usage.input += step.usage.inputTokens ?? 0;
        usage.output += step.usage.outputTokens ?? 0;
        options.onStep?.({
          inputTokens: step.usage.inputTokens ?? 0,
          outputTokens: step.usage.outputTokens ?? 0,
          calls: step.toolCalls.map((c) => c.toolName),
        });
      },
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    });
    // A model that answers in plain text has answered (as spillway's loop takes it).
    if (report === null && result.text.trim() !== "") report = result.text.trim();
    if (report === null) failure = "the model ended without a report";
  } catch (error) {
    failure = `the model call failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return {
    report,
    failure,
    requests: usage.requests,
    inputTokens: usage.input,
    outputTokens: usage.output,
    shown,
    calls,
    retrieved: report !== null && calls.some((c) => own.has(c)),
  };
}

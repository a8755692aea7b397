/**
 * The peers' agent loop with a real model: the same plain agent (its instructions, the file
 * server's tool with every argument visible, the final-report tool) under a peer's handling of
 * large results (`view`), its own tools over what it set aside (Read, Grep, Bash,
 * get_continuation), and its own context management when the window fills (`manage`: clearing
 * old results, compaction). One model call a turn, the history ours to shape, so each peer keeps
 * the window as its product does; a request that still does not fit ends the session.
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  generateText,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  tool,
  wrapLanguageModel,
} from "ai";
import { clipForTranscript, type LiveTurn, type PlayedSession } from "./episode.js";
import { FILE_TOOL_NAME, type FileServer } from "./file-server.js";

/** A tool of a peer's own, as the model sees it. */
export interface PeerTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/** The context a peer's `manage` works with. */
export interface WindowState {
  /** The request's estimated tokens (instructions and tool definitions included). */
  readonly tokens: number;
  /**
   * The tokens a request may hold: the model's window less the reply's allowance, the window a
   * user of a local server configures in the product (its replies share the server's context).
   */
  readonly window: number;
  /** Tokens of a list of messages, estimated. */
  count(messages: readonly ModelMessage[]): number;
  /** One model call without tools, for a summary (a compaction). */
  summarize(messages: readonly ModelMessage[], instruction: string): Promise<string>;
}

/** How a peer product handles large results and a full window. */
export interface PeerHarness {
  readonly name: string;
  /** The peer's own tools over what it set aside (may be none). */
  readonly tools: readonly PeerTool[];
  /** What the model is shown of the file tool's result. */
  view(text: string, toolCallId: string): Promise<string>;
  /** Runs one of `tools`. */
  run(name: string, args: Record<string, unknown>, toolCallId: string): Promise<string>;
  /** The history to send next, kept within the window as the product does. */
  manage(messages: ModelMessage[], state: WindowState): Promise<ModelMessage[]>;
  /** Tools whose calls do not count as turns (continuations). */
  readonly uncounted?: ReadonlySet<string>;
}

export const FINAL_REPORT = "agent__final_report";

/** What the peers' last turn is told (spillway's notice says the same in its last turn). */
export const LAST_TURN_NOTE = `This is your final turn: call ${FINAL_REPORT} now with your complete answer.`;

const FINAL_REPORT_DESCRIPTION =
  "Deliver your final report: your complete answer to the task. This ends your work.";

export interface PeerLoopOptions {
  readonly system: string;
  readonly prompt: string;
  readonly maxTurns: number;
  readonly window: number;
  readonly maxOutputTokens: number;
  /** Every call asks for a tool call, as spillway's runtime does with local models. */
  readonly requireToolCalls: boolean;
  /** Tokens of a text, estimated (the harness's tokenizer). */
  readonly countText: (text: string) => number;
  /** Characters of a result kept in the transcript. */
  readonly transcriptChars?: number;
  readonly onTurn?: (turn: { inputTokens: number; outputTokens: number; did: string }) => void;
}

const clip = clipForTranscript;

function messageText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => {
      if (part.type === "text") return part.text;
      if (part.type === "tool-call") return `${part.toolName}(${JSON.stringify(part.input)})`;
      if (part.type === "tool-result") {
        const output = part.output;
        return output.type === "text" || output.type === "error-text"
          ? output.value
          : JSON.stringify(output.type === "json" ? output.value : output);
      }
      return "";
    })
    .join("\n");
}

/**
 * Plays one task under a peer harness.
 *
 * @example
 * const played = await peerLoop(model, claudeCode(spillDir), fileServer, options);
 */
export async function peerLoop(
  model: LanguageModel,
  harness: PeerHarness,
  files: FileServer,
  options: PeerLoopOptions,
): Promise<PlayedSession> {
  const transcriptChars = options.transcriptChars ?? 1_200;
  const shown: string[] = [];
  const transcript: LiveTurn[] = [];
  const pending: string[] = [];
  let report: string | null = null;
  let readBeforeAnswer = false;
  let fileReads = 0;
  const showing = (text: string) => {
    shown.push(text);
    pending.push(clip(text, transcriptChars));
    return text;
  };
  const own = harness.tools.map((spec) => [
    spec.name,
    tool({
      description: spec.description,
      inputSchema: jsonSchema(spec.parameters as Parameters<typeof jsonSchema>[0]),
      execute: async (args: unknown, { toolCallId }) => {
        readBeforeAnswer = true;
        const input = typeof args === "object" && args !== null ? args : {};
        return showing(await harness.run(spec.name, input as Record<string, unknown>, toolCallId));
      },
    }),
  ]);
  const tools = Object.fromEntries([
    [
      FILE_TOOL_NAME,
      tool({
        description: files.description,
        inputSchema: jsonSchema(files.inputSchema as Parameters<typeof jsonSchema>[0]),
        execute: async (args: unknown, { toolCallId }) => {
          if (++fileReads > 1) readBeforeAnswer = true;
          const input = typeof args === "object" && args !== null ? args : {};
          return showing(
            await harness.view(await files.call(input as Record<string, unknown>), toolCallId),
          );
        },
      }),
    ],
    ...own,
    [
      FINAL_REPORT,
      tool({
        description: FINAL_REPORT_DESCRIPTION,
        inputSchema: jsonSchema({
          type: "object",
          additionalProperties: false,
          required: ["report"],
          properties: { report: { type: "string", description: "The complete final answer." } },
        }),
        execute: async (args: unknown) => {
          const text = (args as { report?: unknown } | null)?.report;
          if (typeof text === "string" && text.trim() !== "") report = text;
          return "Report delivered.";
        },
      }),
    ],
  ]);
  let last = false;
  // A required call goes to the provider through the model, not generateText's toolChoice, which
  // would turn a text reply into an error.
  const requiring = wrapLanguageModel({
    model: model as LanguageModelV3,
    middleware: {
      specificationVersion: "v3",
      transformParams: async ({ params }) =>
        last && params.tools?.length
          ? { ...params, toolChoice: { type: "tool" as const, toolName: FINAL_REPORT } }
          : options.requireToolCalls && params.tools?.length
            ? { ...params, toolChoice: { type: "required" as const } }
            : params,
    },
  });
  const count = (messages: readonly ModelMessage[]) =>
    messages.reduce((sum, m) => sum + 6 + options.countText(messageText(m)), 0);
  let messages: ModelMessage[] = [{ role: "user", content: options.prompt }];
  // Tokens of the instructions and tool definitions: the first request less its one message.
  let fixed = 0;
  const usage = { requests: 0, input: 0, output: 0 };
  let failure: string | null = null;
  const summarize = async (history: readonly ModelMessage[], instruction: string) => {
    const result = await generateText({
      model,
      system: options.system,
      messages: [...history, { role: "user", content: instruction }],
      maxOutputTokens: options.maxOutputTokens,
      maxRetries: 0,
    });
    usage.requests++;
    usage.input += result.usage.inputTokens ?? 0;
    usage.output += result.usage.outputTokens ?? 0;
    return result.text;
  };
  let turn = 0;
  try {
    // Uncounted calls (continuations) still end somewhere: at most three requests a turn.
    while (turn < options.maxTurns && usage.requests < options.maxTurns * 3 && report === null) {
      const tokens = fixed + count(messages);
      messages = await harness.manage(messages, {
        tokens,
        window: options.window - options.maxOutputTokens,
        count,
        summarize,
      });
      last = turn === options.maxTurns - 1;
      const sent = last
        ? [...messages, { role: "user" as const, content: LAST_TURN_NOTE }]
        : messages;
      const result = await generateText({
        model: requiring,
        system: options.system,
        messages: sent,
        tools,
        maxOutputTokens: options.maxOutputTokens,
        maxRetries: 0,
      });
      usage.requests++;
      const input = result.usage.inputTokens ?? 0;
      usage.input += input;
      usage.output += result.usage.outputTokens ?? 0;
      if (usage.requests === 1) fixed = Math.max(0, input - count(sent));
      const calls = result.toolCalls.map((c) => `${c.toolName}(${JSON.stringify(c.input)})`);
      const did = calls.length > 0 ? calls.join("; ") : `text: ${clip(result.text, 300)}`;
      transcript.push({ did, shown: pending.splice(0).join("\n---\n") });
      options.onTurn?.({ inputTokens: input, outputTokens: result.usage.outputTokens ?? 0, did });
      messages = [...messages, ...result.response.messages];
      // A plain-text answer is an answer (as spillway's loop takes it).
      if (result.toolCalls.length === 0) {
        if (result.text.trim() !== "") report = result.text.trim();
        break;
      }
      const counted = result.toolCalls.some((c) => !harness.uncounted?.has(c.toolName));
      if (counted) turn++;
    }
    if (report === null && failure === null) failure = "the session ended without a report";
  } catch (error) {
    failure = `the model call failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return {
    report,
    failure,
    readBeforeAnswer: report !== null && readBeforeAnswer,
    requests: usage.requests,
    inputTokens: usage.input,
    outputTokens: usage.output,
    shown: shown.join("\n"),
    ...(shown.length > 0 ? { firstResult: shown[0]! } : {}),
    transcript,
  };
}

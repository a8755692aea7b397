/**
 * The in-process loop for the peer policies: a blind agent, the policy's tools, and the
 * requests a chat loop would send, counted whole. Each turn builds the Chat Completions
 * request (system, prompt, every call and result so far, the tool definitions), counts it,
 * refuses it when it does not fit the context window (as a provider does), and hands the
 * agent only that request's view. The peers' tools are the same objects the live loop offers
 * a real model (eval/live/peer-loop.ts plays the live benchmark's peers).
 */
import type { ChatMessage, ChatRequest } from "../src/testing/index.js";
import {
  type BlindAgent,
  conversationOf,
  FINAL_REPORT_TOOL,
  type ToolSpec,
} from "./agents/conversation.js";
import { requestTokens } from "./request-tokens.js";

/** The data tool every policy offers: it returns the policy's view of the output. */
export const FETCH_TOOL: ToolSpec = {
  name: "data__fetch",
  description: "Returns a stored API response, log or document by its id.",
  parameters: {
    type: "object",
    properties: { output: { type: "string" } },
    required: ["output"],
    additionalProperties: false,
  },
};

/** The final-report tool, as spillway's runtime declares it. */
export const FINAL_REPORT_SPEC: ToolSpec = {
  name: FINAL_REPORT_TOOL,
  description: "Deliver your final report: your complete answer to the task. This ends your work.",
  parameters: {
    type: "object",
    additionalProperties: false,
    required: ["report"],
    properties: {
      report: { type: "string", description: "The complete final answer, in Markdown." },
    },
  },
};

/** The system prompt the peers' loop sends (the eval agent's own, and how to finish). */
export const PEER_SYSTEM_PROMPT =
  "You answer the question from the output of the data tool. Quote values exactly.\n\n" +
  "When your task is done, call agent__final_report with your complete answer.";

/** A policy's tools over one output: what fetch shows, and the policy's own tools. */
export interface PolicyEnv {
  /** Tools besides data__fetch and the final report (Read/Grep, Bash, get_continuation). */
  readonly tools: readonly ToolSpec[];
  /** data__fetch's answer: the policy's view of the output. */
  fetch(callId: string): Promise<string>;
  /** One of `tools`; an unknown tool or bad arguments answer with an error text. */
  run(tool: string, args: Record<string, unknown>): Promise<string>;
}

export interface DriveResult {
  /** The final report, or null when the session ended without one. */
  readonly report: string | null;
  readonly failure: string | null;
  readonly requests: number;
  /** Every token of every request sent, the refused one included. */
  readonly tokensSent: number;
  /** Tokens of the tool results shown (the figure before requests were counted whole). */
  readonly toolResultTokens: number;
  /** Calls after the fetch (reads, greps, pages, commands). */
  readonly toolCalls: number;
  /** Every tool result the agent was shown. */
  readonly shown: readonly string[];
  /** A call of one of the policy's own tools (a read, a page, a command) came before the report. */
  readonly retrieved: boolean;
  /** Time in the policy's tools (fetch, reads), token counting excluded. */
  readonly toolMs: number;
}

export interface DriveOptions {
  readonly prompt: string;
  readonly count: (text: string) => number;
  /** Request tokens above which a request is refused (context window minus reply budget). */
  readonly contextLimit: number;
  readonly maxTurns?: number;
  readonly system?: string;
}

const asChatTool = (t: ToolSpec) => ({
  type: "function" as const,
  function: {
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    parameters: t.parameters,
  },
});

/**
 * Plays one task: the agent against the policy's tools until it reports, the window is full,
 * or the turns run out.
 *
 * @example
 * const result = await drive(viewAgent, env, { prompt, count, contextLimit: 122_904 });
 */
export async function drive(
  agent: BlindAgent,
  env: PolicyEnv,
  options: DriveOptions,
): Promise<DriveResult> {
  const tools = [FETCH_TOOL, ...env.tools, FINAL_REPORT_SPEC].map(asChatTool);
  const messages: ChatMessage[] = [
    { role: "system", content: options.system ?? PEER_SYSTEM_PROMPT },
    { role: "user", content: options.prompt },
  ];
  const shown: string[] = [];
  let tokensSent = 0;
  let toolResultTokens = 0;
  let requests = 0;
  let toolMs = 0;
  let retrieved = false;
  const own = new Set(env.tools.map((t) => t.name));
  const result = (report: string | null, failure: string | null): DriveResult => ({
    report,
    failure,
    requests,
    tokensSent,
    toolResultTokens,
    toolCalls: Math.max(0, shown.length - 1),
    shown,
    retrieved: retrieved && report !== null,
    toolMs,
  });
  for (let turn = 0; turn < (options.maxTurns ?? 40); turn++) {
    const request: ChatRequest = { model: "scripted", messages: [...messages], tools };
    const tokens = requestTokens(request, options.count);
    requests++;
    tokensSent += tokens;
    if (tokens > options.contextLimit)
      return result(
        null,
        `context overflow: a request of ${tokens.toLocaleString("en-US")} tokens does not fit the window`,
      );
    const action = agent(conversationOf(request));
    if (action.type === "report") return result(action.text, null);
    const id = `call_${turn + 1}`;
    if (own.has(action.tool)) retrieved = true;
    const started = performance.now();
    const text =
      action.tool === FETCH_TOOL.name
        ? await env.fetch(id)
        : await env.run(action.tool, action.args);
    toolMs += performance.now() - started;
    shown.push(text);
    toolResultTokens += options.count(text);
    messages.push(
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id,
            type: "function",
            function: { name: action.tool, arguments: JSON.stringify(action.args) },
          },
        ],
      },
      { role: "tool", tool_call_id: id, content: text },
    );
  }
  return result(null, "the turn limit was reached");
}

/**
 * What a scripted agent is shown, and nothing more: the system prompt, the user's prompt, the
 * tools it is offered (name, description, JSON Schema), and its own calls with the results the
 * policy under test gave back (the System Notice too, where the runtime sends one). Agents are
 * functions of this; the same agent runs in process (eval/drive.ts) and behind the scripted
 * model server (as a Responder, for spillway's runtime and the live harness's tests).
 */
import {
  type ChatRequest,
  type Responder,
  type ScriptedReply,
  textOf,
  toolCall,
} from "../../src/testing/index.js";

export interface ToolSpec {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: unknown;
}

export interface Step {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly result: string;
}

export interface Conversation {
  readonly system: string;
  readonly prompt: string;
  readonly tools: readonly ToolSpec[];
  readonly steps: readonly Step[];
  /** The last user message after the prompt (spillway's per-turn System Notice), if any. */
  readonly notice?: string;
}

export type Action =
  | { readonly type: "call"; readonly tool: string; readonly args: Record<string, unknown> }
  | { readonly type: "report"; readonly text: string };

/** A blind agent: its next action from what it was shown. */
export type BlindAgent = (conversation: Conversation) => Action;

/** The tool every harness offers for the final answer (spillway's own name for it). */
export const FINAL_REPORT_TOOL = "agent__final_report";

export const call = (tool: string, args: Record<string, unknown>): Action => ({
  type: "call",
  tool,
  args,
});
export const report = (text: string): Action => ({ type: "report", text });

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The conversation a Chat Completions request shows: calls paired with their results in order.
 *
 * @example
 * const conversation = conversationOf(request);
 * conversation.steps.at(-1)?.result; // the last tool result the model was sent
 */
export function conversationOf(request: ChatRequest): Conversation {
  const system = request.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map(textOf)
    .join("\n");
  const users = request.messages.filter((m) => m.role === "user");
  const calls = new Map<string, { tool: string; args: Record<string, unknown> }>();
  const steps: Step[] = [];
  for (const message of request.messages) {
    if (message.role === "assistant")
      for (const c of message.tool_calls ?? [])
        calls.set(c.id, { tool: c.function.name, args: parseArgs(c.function.arguments) });
    if (message.role === "tool") {
      const made = calls.get(message.tool_call_id);
      steps.push({ tool: made?.tool ?? "", args: made?.args ?? {}, result: textOf(message) });
    }
  }
  const last = request.messages.at(-1);
  return {
    system,
    prompt: users[0] ? textOf(users[0]) : "",
    tools: (request.tools ?? []).map((t) => ({
      name: t.function.name,
      ...(t.function.description !== undefined ? { description: t.function.description } : {}),
      parameters: t.function.parameters,
    })),
    steps,
    ...(last?.role === "user" && users.length > 1 ? { notice: textOf(last) } : {}),
  };
}

/** A scripted reply for an action: a tool call, or the final report through its tool. */
export function replyOf(action: Action): ScriptedReply {
  return action.type === "call"
    ? toolCall(action.tool, action.args)
    : toolCall(FINAL_REPORT_TOOL, { report: action.text });
}

/**
 * A blind agent behind the scripted model server.
 *
 * @example
 * startScriptedModelServer({ respond: responderOf(spillwayAgent) });
 */
export function responderOf(agent: BlindAgent): Responder {
  return (request) => replyOf(agent(conversationOf(request)));
}

/** The output the prompt asks to fetch: `Call <tool> with <arg>="<value>"`. */
export function fetchOf(prompt: string): Action | undefined {
  const m = /Call (\w+) with (\w+)="([^"]+)"/.exec(prompt);
  return m ? call(m[1]!, { [m[2]!]: m[3]! }) : undefined;
}

/** The question in a prompt: the prompt without its fetch instruction (its words, nothing else). */
export function questionOf(prompt: string): string {
  return prompt.replace(/Call \w+ with \w+="[^"]+"\.?\s*/, "").trim();
}

import type { ModelMessage } from "ai";
import { countTokens } from "../core/tokens.js";
import type { HistoryMessage, ToolResultRef } from "../store/history.js";
import { asyncOutputsOf } from "./async-status.js";
import { renderNotice, type TurnPlan } from "./notice.js";
import { renderResult, shortenedResult } from "./render-result.js";
import {
  contextWindowOf,
  requestBudgetOf,
  type SessionContext,
  tokenizerMarginOf,
  tokenizerOf,
} from "./session-context.js";

/**
 * The projection (seed 004): the model's input, built at send time from the canonical history.
 * The only place that may shorten anything; what it shortens names the handle. Call/result
 * pairing is kept whole: a result is shortened, never dropped.
 */

export interface Projection {
  readonly system: string;
  readonly messages: ModelMessage[];
  /** Counted tokens of everything sent: tool definitions, system, messages, notice. */
  readonly tokens: number;
  /** Results shortened to fit the context window this time. */
  readonly shortened: number;
}

/** spillway's standing instructions, after the agent's own system prompt. */
function operatingInstructions(context: SessionContext): string {
  const lines = [
    "When your task is done, call agent__final_report with your complete answer.",
    "Tool results are stored whole. A result too large to show is replaced by a message naming its id;",
    "its content is not in your context until you read it, so never state facts about it that you did not read.",
  ];
  if (context.settings.toolOutput.enabled) {
    const tools = context.surface
      .tools()
      .map((t) => t.name)
      .join(", ");
    lines.push(`Read stored outputs with ${tools}.`);
  }
  return lines.join("\n");
}

function parsedInput(argsText: string): unknown {
  try {
    const value = JSON.parse(argsText) as unknown;
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    // Invalid JSON arguments: the tool result explains the error; the call shows no input.
    return {};
  }
}

interface RenderedResult {
  readonly message: ModelMessage;
  readonly ref: ToolResultRef;
  readonly toolCallId: string;
  readonly toolName: string;
  text: string;
  tokens: number;
}

async function tokens(context: SessionContext, text: string): Promise<number> {
  return countTokens(text, tokenizerOf(context.settings));
}

/** Tokens a chat format adds around each message (role, separators). */
const FRAMING_TOKENS_PER_MESSAGE = 4;

/** Tokens of the tool definitions a request carries (counted once per tool list). */
async function toolDefinitionTokens(context: SessionContext, plan: TurnPlan): Promise<number> {
  const key = `tools:${plan.tools.map((t) => t.name).join(",")}`;
  const known = context.state.rendered.get(key);
  if (known !== undefined) return Number(known);
  const counted = await tokens(
    context,
    JSON.stringify(
      plan.tools.map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.inputSchema,
      })),
    ),
  );
  context.state.rendered.set(key, String(counted));
  return counted;
}

export async function buildProjection(
  context: SessionContext,
  history: readonly HistoryMessage[],
  plan: TurnPlan,
): Promise<Projection> {
  const system = `${context.systemPrompt.trim()}\n\n${operatingInstructions(context)}`;
  const messages: ModelMessage[] = [];
  const results: RenderedResult[] = [];
  // Everything the request carries counts: the tool definitions first (SW-21).
  let total = (await toolDefinitionTokens(context, plan)) + (await tokens(context, system));
  for (const message of history) {
    if (message.role === "user") {
      const text = message.parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
      messages.push({ role: "user", content: text });
      total += await tokens(context, text);
    } else if (message.role === "assistant") {
      const content: Exclude<ModelMessage, { role: "system" | "user" | "tool" }>["content"] = [];
      for (const part of message.parts) {
        if (part.type === "text" && part.text) content.push({ type: "text", text: part.text });
        if (part.type === "tool-call") {
          content.push({
            type: "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: parsedInput(part.argsText),
          });
          total += await tokens(context, part.toolName + part.argsText);
        }
        if (part.type === "text") total += await tokens(context, part.text);
      }
      messages.push({ role: "assistant", content });
    } else {
      for (const part of message.parts) {
        if (part.type !== "tool-result") continue;
        const text = await renderResult(context, part.result);
        const rendered: RenderedResult = {
          message: { role: "tool", content: [] },
          ref: part.result,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          text,
          tokens: await tokens(context, text),
        };
        total += rendered.tokens;
        results.push(rendered);
        messages.push(rendered.message);
      }
    }
  }
  // The system message, every message, and the notice each carry a chat format's framing.
  total += FRAMING_TOKENS_PER_MESSAGE * (messages.length + 2);
  const asyncOutputs = await asyncOutputsOf(context, history);
  const notice = renderNotice(context, plan, 0, asyncOutputs);
  const noticeTokens = await tokens(context, notice);
  // The window in our counted tokens, less the reply and a margin for the model's own tokenizer.
  const limit = requestBudgetOf(context.settings) - noticeTokens;
  let shortened = 0;
  // Over the window: oldest first, replace whole results by their handle form.
  for (const result of results) {
    if (total <= limit) break;
    const shorter = await shortenedResult(context, result.ref);
    if (shorter === undefined) continue;
    const shorterTokens = await tokens(context, shorter);
    if (shorterTokens >= result.tokens) continue;
    total += shorterTokens - result.tokens;
    result.text = shorter;
    result.tokens = shorterTokens;
    shortened++;
  }
  for (const result of results) {
    (result.message as { content: unknown }).content = [
      {
        type: "tool-result",
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        output: { type: "text", value: result.text },
      },
    ];
  }
  const percent = Math.min(
    100,
    Math.round(
      (((total + noticeTokens) * tokenizerMarginOf(context.settings)) /
        contextWindowOf(context.settings)) *
        100,
    ),
  );
  messages.push({ role: "user", content: renderNotice(context, plan, percent, asyncOutputs) });
  return { system, messages, tokens: total + noticeTokens, shortened };
}

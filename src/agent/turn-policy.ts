import type { ToolDefinition } from "../core/tool-definition.js";
import type { ModelReply } from "../providers/model-caller.js";
import { FINAL_REPORT } from "./internal-tools.js";
import { ownTexts, type TurnPlan } from "./notice.js";
import type { SessionContext } from "./session-context.js";
import { WAIT_FOR_TOOL_OUTPUT } from "./wait-tool.js";

/**
 * Loop policy: which tools the next model call gets, when the last turn comes, what a reply
 * means, and which turns count. The session loop calls these; it holds no policy itself.
 */

/** Uncounted turns (get_continuation reads, D2-5) are bounded too, so a loop always ends. */
export function uncountedTurnLimit(maxTurns: number): number {
  return maxTurns * 5 + 10;
}

/** Some output is shown by handle and can be read: the surface's tools are listed. */
function canRetrieveNow(context: SessionContext): boolean {
  return context.settings.toolOutput.enabled && context.state.hasStoredOutputs;
}

/**
 * The tools a turn lists. Retrieval tools are listed while some output is shown by handle
 * (D0-14, D0-15); a surface may be listed from the first turn (SW-20: the default surface is,
 * so the tool list, and with it a provider's prompt cache, holds from turn to turn);
 * wait_for_tool_output once a tool has gone on in the background. The final turn lists the same
 * (and, where it allows only the report, only agent__final_report may be called).
 */
function listedTools(context: SessionContext): ToolDefinition[] {
  const { settings } = context;
  const listed =
    canRetrieveNow(context) ||
    (context.surface.alwaysListed === true &&
      settings.surfaceFromFirstTurn !== false &&
      settings.toolOutput.enabled);
  const tools: ToolDefinition[] = [];
  for (const handler of context.tools.values()) {
    if (handler.kind === "surface" && !listed) continue;
    // Waiting is listed once a tool has gone on in the background: before, it can only wait
    // for nothing, and its definition costs every request (the list grows once a session).
    if (handler.definition.name === WAIT_FOR_TOOL_OUTPUT && context.background.jobs().length === 0)
      continue;
    tools.push(handler.definition);
  }
  return tools;
}

/**
 * Whether the final turn allows only the report. After a stop, with the context full, or after
 * a call stopped for returning the same result again (repeat-stop.ts), reading on cannot help;
 * sessions that keep the original designs' texts keep their rule too (D0-14). Otherwise the last
 * turn is an ordinary one: requiring the report there changed no answer beyond chance in a paired
 * real-model ablation (SW-20 in docs/architecture.md).
 */
function reportOnly(context: SessionContext): boolean {
  const { state } = context;
  return state.stopRequested || state.budgetExhausted || state.repeatStopped || !ownTexts(context);
}

/** Plans the next turn. */
export function planTurn(context: SessionContext): TurnPlan {
  const { state, settings } = context;
  const turn = state.turn + 1;
  // The turn given after a report sent back in the final turn is final too, whatever made the
  // turn before it final.
  const final =
    state.extraFinalTurn ||
    turn >= settings.maxTurns ||
    state.budgetExhausted ||
    state.stopRequested ||
    state.repeatStopped ||
    state.modelCalls >= uncountedTurnLimit(settings.maxTurns);
  if (final && reportOnly(context))
    return {
      turn,
      maxTurns: settings.maxTurns,
      final: true,
      tools: [context.tools.get(FINAL_REPORT)!.definition],
      offered: listedTools(context),
      requiredTool: FINAL_REPORT,
      canRetrieve: false,
      requireToolCall: true,
    };
  // Any other last turn is an ordinary one. Before it, the note after an empty or a text reply
  // asks for a tool call, so the call requires one: a model that answers the note with more
  // text would end the session with that text as its report (a last turn's text is its report
  // anyway, `decideReply`). textReplies: none requires a call in every turn, so no plan written
  // as text (with an answer it has not read) can stand as the report.
  const requireToolCall =
    settings.textReplies === "none" || (!final && (state.lastReplyEmpty || state.lastReplyText));
  return {
    turn,
    maxTurns: settings.maxTurns,
    final,
    tools: listedTools(context),
    canRetrieve: canRetrieveNow(context),
    requireToolCall,
  };
}

/** Why a session whose final turn went by without a report failed. */
export function finalTurnError(context: SessionContext, plan: TurnPlan): string {
  if (context.state.budgetExhausted && plan.turn < plan.maxTurns)
    return "The context stayed over its hard limit with every older result in handle form, and the agent did not deliver a final report in the turn that followed.";
  return `The agent used its ${plan.maxTurns} turns without delivering a final report.`;
}

export type ReplyDecision =
  | { readonly kind: "run-tools" }
  | { readonly kind: "final"; readonly report: string }
  | { readonly kind: "empty" }
  | { readonly kind: "confirm" };

/**
 * What a reply means: tools to run, a final answer given as text, text to be confirmed as the
 * answer first (`textReplies: "confirm"`, before the final turn, not twice in a row), or
 * nothing at all.
 */
export function decideReply(
  reply: ModelReply,
  context?: Pick<SessionContext, "settings" | "state">,
  plan?: Pick<TurnPlan, "final">,
): ReplyDecision {
  if (reply.toolCalls.length > 0) return { kind: "run-tools" };
  const text = reply.text.trim();
  if (text === "") return { kind: "empty" };
  const confirm =
    (context?.settings.textReplies === "confirm" || context?.settings.textReplies === "none") &&
    !context.state.lastReplyText &&
    !plan?.final;
  // Otherwise a model that answers in plain text instead of calling agent__final_report has answered.
  return confirm ? { kind: "confirm" } : { kind: "final", report: text };
}

/** Whether a turn counts toward maxTurns: not when every call was an uncounted tool. */
export function turnCounts(context: SessionContext, reply: ModelReply): boolean {
  const uncounted = context.surface.uncountedTools;
  return (
    reply.toolCalls.length === 0 || !reply.toolCalls.every((call) => uncounted.has(call.toolName))
  );
}

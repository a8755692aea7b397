import { guided } from "../config/guidance.js";
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
 * Whether the final turn allows only the report. After a stop, or with the context full,
 * reading on cannot help; sessions that keep the original designs' texts keep their rule too
 * (D0-14). Otherwise the last turn is an ordinary one: requiring the report there changed no
 * answer beyond chance in a paired real-model ablation (SW-20 in docs/architecture.md).
 */
function reportOnly(context: SessionContext): boolean {
  return context.state.stopRequested || context.state.budgetExhausted || !ownTexts(context);
}

/**
 * The tools of the turn after a report was sent back, when that turn must read: every listed
 * tool but the report (and, with no output stored yet, none of the surface's, which read only
 * stored outputs). A note asking for a read is not enough: a small model offered the report tool
 * again mostly sends the same report (SW-46 in docs/architecture.md). Undefined when no read is
 * due: the switch is off, no report was sent back in the turn before, the turn is final (the
 * report must stay possible), or no tool but the report is listed.
 */
function readingTools(context: SessionContext, final: boolean): ToolDefinition[] | undefined {
  const { state } = context;
  if (final || !guided(context.settings, "readAfterSendBack")) return undefined;
  if (state.sentBackTurn === undefined || state.sentBackTurn !== state.turn) return undefined;
  const tools = listedTools(context).filter(
    (tool) =>
      tool.name !== FINAL_REPORT &&
      (canRetrieveNow(context) || context.tools.get(tool.name)?.kind !== "surface"),
  );
  return tools.length > 0 ? tools : undefined;
}

/**
 * The one tool a read after a send-back goes to, when there is one: the surface's, when it has
 * one tool and some output is stored (what the note asks to read); with none stored, the agent's
 * own tool when it has one. The call is then started for the model with that tool, so a model
 * that would name the report tool anyway (a local model's call is only prefilled, not
 * constrained) still reads.
 */
function soleReader(context: SessionContext, reads: readonly ToolDefinition[]): string | undefined {
  const kindOf = (tool: ToolDefinition) => context.tools.get(tool.name)?.kind;
  const candidates = canRetrieveNow(context)
    ? reads.filter((tool) => kindOf(tool) === "surface")
    : reads.filter((tool) => kindOf(tool) !== "surface" && kindOf(tool) !== "internal");
  return candidates.length === 1 ? candidates[0]!.name : undefined;
}

/**
 * The report the guards sent back, once the turn after it has read: not shown to the model any
 * more, so that its next report comes from what it read, not from a copy of the answer it gave
 * before (a small model repeats its own earlier reply). The canonical history keeps it.
 */
export function retiredReports(context: SessionContext, plan: TurnPlan): ReadonlySet<string> {
  const { state } = context;
  const read =
    guided(context.settings, "readAfterSendBack") &&
    state.sentBackTurn !== undefined &&
    state.sentBackCallId !== undefined &&
    plan.turn >= state.sentBackTurn + 2;
  return read ? new Set([state.sentBackCallId!]) : new Set();
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
  // as text (with an answer it has not read) can stand as the report. The turn after a report
  // was sent back requires a read (readingTools).
  const reads = readingTools(context, final);
  const reader = reads ? soleReader(context, reads) : undefined;
  const requireToolCall =
    reads !== undefined ||
    settings.textReplies === "none" ||
    (!final && (state.lastReplyEmpty || state.lastReplyText));
  return {
    turn,
    maxTurns: settings.maxTurns,
    final,
    tools: reads ?? listedTools(context),
    ...(reader ? { requiredTool: reader } : {}),
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

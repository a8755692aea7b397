import { guided } from "../config/guidance.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import type { AsyncOutputStatus } from "../surfaces/async-texts.js";
import { renderSystemNotice } from "../surfaces/system-notice.js";
import { FINAL_REPORT } from "./internal-tools.js";
import { compatibilityTexts, type SessionContext } from "./session-context.js";

/** What the next model call may do: decided by the turn policy, shown by the notice. */
export interface TurnPlan {
  /** The turn number as counted toward maxTurns. */
  readonly turn: number;
  readonly maxTurns: number;
  /** The last turn: a session that has not reported by its end fails without a report. */
  readonly final: boolean;
  /** The tools the model may call this turn (a call to any other is refused). */
  readonly tools: readonly ToolDefinition[];
  /**
   * The tools the request lists, when more than `tools`: a final turn that allows only the report
   * lists the tools of the turns before it (the prompt's prefix, and with it a provider's prompt
   * cache, holds; a local model's chat template renders tools into the system prompt) and
   * requires `requiredTool`.
   */
  readonly offered?: readonly ToolDefinition[];
  /**
   * The one tool the reply must call: agent__final_report, in a final turn after a stop, with the
   * context full, or in a session that keeps the compatibility texts.
   */
  readonly requiredTool?: string;
  /** Some output is shown by handle: the notice offers to read it. */
  readonly canRetrieve: boolean;
  /**
   * The reply must be a tool call (`toolChoice: "required"`): with `textReplies: none`, with
   * `requiredTool`, and after an empty reply or a text reply to be confirmed.
   */
  readonly requireToolCall: boolean;
}

/**
 * The session's per-turn System Notice (an XML-tagged block after the last message), rendered by
 * the surfaces layer from the turn plan. Ephemeral: part of the projection, never of the canonical
 * history.
 *
 * Sessions with the compatibility texts (`asyncReadyMessage: ready-menu`, or the `tool_output` and
 * `get_continuation` surfaces) get the compatibility notice every turn: turn i of N, context window
 * % used, the Async Tool Status, the options (or, after an empty or text reply, `replyNote` saying
 * what to do instead). spillway's own notice carries only what a session cannot do without (SW-26
 * in docs/architecture.md): the Async Tool Status with the options it opens, and in the final turn
 * that the report is due (and, when it is, that no other tool may be called).
 */
export function renderNotice(
  context: SessionContext,
  plan: TurnPlan,
  contextPercent: number,
  asyncOutputs: readonly AsyncOutputStatus[] = [],
  notes: readonly string[] = [],
  replyNote?: string,
): string {
  const common = {
    asyncOutputs,
    now: context.clock(),
    final: plan.final,
    reportOnly: plan.requiredTool !== undefined,
    canRetrieve: plan.canRetrieve,
    retrieveTools: context.surface.tools().map((t) => t.name),
    finalTool: FINAL_REPORT,
  };
  if (ownTexts(context)) return renderSystemNotice({ ...common, guided: true });
  return renderSystemNotice({
    ...common,
    // An extra final turn (a report sent back in the last one) counts itself in the cap.
    turn: { number: plan.turn, max: Math.max(plan.maxTurns, plan.turn) },
    contextPercent,
    notes: replyNote ? [...notes, replyNote] : notes,
  });
}

/**
 * spillway's own texts and turn rules, not the original designs' word for word: the default
 * surface, without the compatibility texts.
 */
export function ownTexts(context: SessionContext): boolean {
  return context.surface.name === "get_tool_output" && !compatibilityTexts(context.settings);
}

/**
 * Whether this turn's System Notice is sent (SW-26 in docs/architecture.md). spillway's own
 * notice goes only with the final turn and with tools running in the background or their
 * outputs ready (an output announced as ready for its size came back with its call, its handle
 * message already shown). Turn counts, context shares and notes on the last reply changed no
 * answer beyond chance in a paired real-model ablation, and are text a model may copy into its
 * report. Sessions with the compatibility texts send it every turn, as those texts do.
 */
export function noticeNeeded(
  context: SessionContext,
  plan: TurnPlan,
  backgroundOutputs: boolean,
): boolean {
  if (!guided(context.settings, "notice")) return false;
  if (!ownTexts(context)) return true;
  return plan.final || backgroundOutputs;
}

import { guided } from "../config/guidance.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import type { AsyncOutputStatus } from "../surfaces/async-texts.js";
import { renderSystemNotice } from "../surfaces/system-notice.js";
import { FINAL_REPORT } from "./internal-tools.js";
import { DEFAULT_COMPACTION, type SessionContext, seedTexts } from "./session-context.js";

/** What the next model call may do: decided by the turn policy, shown by the notice. */
export interface TurnPlan {
  /** The turn number as counted toward maxTurns. */
  readonly turn: number;
  readonly maxTurns: number;
  /** Only the final report is allowed. */
  readonly final: boolean;
  /** The tools the model may call this turn (a call to any other is refused). */
  readonly tools: readonly ToolDefinition[];
  /**
   * The tools the request lists, when more than `tools`: the final turn lists the tools of the
   * turns before it (the prompt's prefix, and with it a provider's prompt cache, holds; a local
   * model's chat template renders tools into the system prompt) and requires `requiredTool`.
   */
  readonly offered?: readonly ToolDefinition[];
  /** The one tool the reply must call (the final turn's agent__final_report). */
  readonly requiredTool?: string;
  /** Some output is shown by handle: the notice offers to read it. */
  readonly canRetrieve: boolean;
  /**
   * The reply must be a tool call (`toolChoice: "required"`): in the final turn (the report),
   * and after an empty reply or a text reply asked to be confirmed, whose note asks for one.
   */
  readonly requireToolCall: boolean;
}

/**
 * The session's per-turn System Notice (seed 003's XML-NEXT), rendered by the surfaces layer
 * from the turn plan: turn i of N, context window % used, the Async Tool Status and the
 * options the model has now (or, after an empty or text reply, `replyNote` saying what to do
 * instead). Ephemeral: part of the projection, never of the canonical history.
 */
export function renderNotice(
  context: SessionContext,
  plan: TurnPlan,
  contextPercent: number,
  asyncOutputs: readonly AsyncOutputStatus[] = [],
  notes: readonly string[] = [],
  replyNote?: string,
): string {
  // Seed-exact sessions (seed 003's texts, or the seed 000/002 surfaces) keep seed 003's menu.
  const guided = context.surface.name === "get_tool_output" && !seedTexts(context.settings);
  return renderSystemNotice({
    // An extra final turn (a report sent back in the last one) counts itself in the cap.
    turn: { number: plan.turn, max: Math.max(plan.maxTurns, plan.turn) },
    contextPercent,
    asyncOutputs,
    now: context.clock(),
    final: plan.final,
    canRetrieve: plan.canRetrieve,
    retrieveTools: context.surface.tools().map((t) => t.name),
    finalTool: FINAL_REPORT,
    notes: replyNote ? [...notes, replyNote] : notes,
    guided,
    // A note on the last reply says what to do now; a menu beside it is one more text to copy.
    optionsInNotes: guided && replyNote !== undefined,
    ...(context.state.taskText ? { task: context.state.taskText } : {}),
  });
}

/** Turns left (this one included) from which the notice counts them down. */
const LAST_TURNS = 2;

/**
 * Whether this turn's System Notice is sent (SW-26 in docs/architecture.md): only when it carries
 * something the model needs: background tools running or ready (an output announced as ready
 * for its size came back with its call, its handle message already shown), the context past its warn
 * level, a note (a compaction, a reply that was empty or text), or the last turns. A notice
 * that says only "turn 2 of 8, 9% full" is one more text to copy into a report. Sessions that
 * speak the seed-exact texts send it every turn, as those texts do.
 */
export function noticeNeeded(
  context: SessionContext,
  plan: TurnPlan,
  contextPercent: number,
  backgroundOutputs: boolean,
  notes: readonly string[],
): boolean {
  if (!guided(context.settings, "notice")) return false;
  if (seedTexts(context.settings) || context.surface.name !== "get_tool_output") return true;
  const warnPercent = (context.settings.compaction?.warn ?? DEFAULT_COMPACTION.warn) * 100;
  return (
    plan.final ||
    plan.maxTurns - plan.turn < LAST_TURNS ||
    backgroundOutputs ||
    notes.length > 0 ||
    contextPercent >= warnPercent
  );
}

import type { ModelMessage } from "ai";
import { guided } from "../config/guidance.js";
import { asyncOutputsOf } from "./async-status.js";
import { compactIfDue } from "./compaction-step.js";
import { contextLimitsOf } from "./context-limits.js";
import { type ContextUsage, contextUsage } from "./context-usage.js";
import { asProjection } from "./invariants.js";
import { noticeNeeded, renderNotice, type TurnPlan } from "./notice.js";
import { operatingInstructions } from "./operating-instructions.js";
import {
  answerOrphans,
  countSessionTokens,
  historyTokens,
  MESSAGE_OVERHEAD,
  type ProjectionTail,
  shortenTail,
  syncTail,
  tailMessages,
  toolTokens,
} from "./projection-tail.js";
import type { SessionContext } from "./session-context.js";
import { planTurn } from "./turn-policy.js";

/**
 * Said after a reply with neither text nor a tool call. Empty replies are also left out of the
 * projection (tailMessages): a model shown its own empty turns tends to repeat them.
 */
const EMPTY_REPLY_NOTE =
  "Your last reply was empty. Reply with a tool call: the one that gets what your task still needs, or agent__final_report with your complete answer.";

/** Said after a text reply when text must be confirmed as the answer (textReplies: confirm). */
const TEXT_REPLY_NOTE =
  "Your last reply was text, not a tool call. If that text is your complete answer, call agent__final_report with it as the report. If not, call the tool that gets what is missing.";

/**
 * What the compatibility notice says about the last reply, when it was empty or text to be
 * confirmed.
 */
function replyNote(context: SessionContext, plan: TurnPlan): string | undefined {
  if (plan.final) return undefined;
  if (context.state.lastReplyEmpty) return EMPTY_REPLY_NOTE;
  if (context.state.lastReplyText) return TEXT_REPLY_NOTE;
  return undefined;
}

/**
 * The projection: the model's input, built at send time from the canonical history:
 * system, the session's task, the latest compaction summary, then the recent messages. The
 * only place that may shorten anything, and what it shortens names the handle. Each history
 * message is rendered and counted once (the tail keeps it), so a turn costs O(new messages)
 * besides a compaction's model call. Runs as a projection: it cannot write the history.
 */

export interface Projection {
  readonly system: string;
  readonly messages: ModelMessage[];
  /** Estimated tokens of everything sent (system, messages, notice). */
  readonly tokens: number;
  /** Results shortened to their handle form this time. */
  readonly shortened: number;
  /** The turn's plan (the surface's tools join it when a compaction put handles in the summary). */
  readonly plan: TurnPlan;
  readonly usage: ContextUsage;
}

/**
 * Builds the model input of a turn from the tail (brought up to date with the history first),
 * compacting or shortening as the thresholds ask, and reports the context use as a `context`
 * event.
 *
 * @example
 * const tail = newProjectionTail();
 * const projection = await buildProjection(context, tail, planTurn(context));
 */
export function buildProjection(
  context: SessionContext,
  tail: ProjectionTail,
  plan: TurnPlan,
): Promise<Projection> {
  return asProjection("model input", () => project(context, tail, plan));
}

async function project(
  context: SessionContext,
  tail: ProjectionTail,
  plan: TurnPlan,
): Promise<Projection> {
  const started = performance.now();
  const limits = contextLimitsOf(context.settings);
  if (!tail.system) {
    const text = `${context.systemPrompt.trim()}\n\n${operatingInstructions(context)}`;
    tail.system = { text, tokens: (await countSessionTokens(context, text)) + MESSAGE_OVERHEAD };
  }
  await syncTail(context, tail, limits.inputWindow);
  const orphans = answerOrphans(tail);
  if (orphans.length > 0) {
    context.emit({
      type: "warning",
      sessionId: context.sessionId,
      message: `No result is recorded for call${orphans.length === 1 ? "" : "s"} ${orphans.join(", ")}; the projection sends an error result in its place.`,
    });
  }
  const asyncOutputs = await asyncOutputsOf(context, tail.asyncIds);
  // Counted as if sent: a turn that cannot fit becomes the last, and the last turn has one.
  const draft = guided(context.settings, "notice")
    ? renderNotice(context, plan, 0, asyncOutputs)
    : "";
  // Sent with every request: the system prompt, the tool definitions and the notice.
  const fixed =
    tail.system.tokens +
    (await toolTokens(context, tail, plan.offered ?? plan.tools)) +
    (await countSessionTokens(context, draft)) +
    MESSAGE_OVERHEAD;
  const total = () => fixed + historyTokens(tail);
  const step = await compactIfDue(context, tail, limits, fixed, plan.turn);
  let shortened = step.shortened;
  // The hard limit: shorten results to their handle form, oldest first.
  if (total() > limits.hard) shortened += await shortenTail(context, tail, limits.hard - fixed);
  const compacted = step.results.some((r) => r.kind === "compacted");
  let turnPlan =
    compacted && !plan.final && !plan.canRetrieve && context.state.hasStoredOutputs
      ? planTurn(context)
      : plan;
  if (total() > limits.hard && !plan.final) {
    // Nothing more can make room: this turn is the last (the model reports with what it has).
    context.state.budgetExhausted = true;
    turnPlan = planTurn(context);
    context.emit({
      type: "warning",
      sessionId: context.sessionId,
      message: `The context stays over its hard limit (${total()} of ${limits.hard} tokens) with every result in handle form${limits.compactionEnabled ? " after compaction" : ""}; this turn is the last.`,
    });
  }
  const percent = Math.min(100, Math.round((total() / limits.inputWindow) * 100));
  const messages = tailMessages(tail);
  const note = replyNote(context, turnPlan);
  if (
    noticeNeeded(
      context,
      turnPlan,
      asyncOutputs.some((o) => tail.backgroundIds.has(o.id)),
    )
  ) {
    const notice = renderNotice(context, turnPlan, percent, asyncOutputs, step.notes, note);
    context.state.noticesShown.push(notice);
    messages.push({ role: "user", content: notice });
  }
  const usage = contextUsage(limits, {
    turn: plan.turn,
    tokens: total(),
    summaryTokens: tail.summaries[tail.summaries.length - 1]?.textTokens ?? 0,
    recentMessages: tail.entries.length + (tail.pinned ? 1 : 0),
    shortenedResults: tail.shortened,
    projectionMs: performance.now() - started - step.modelMs,
  });
  context.accounting.setContext(usage);
  context.emit({ type: "context", sessionId: context.sessionId, ...usage });
  return {
    system: tail.system.text,
    messages,
    tokens: total(),
    shortened,
    plan: turnPlan,
    usage,
  };
}

/**
 * The readable summary `spillway run` prints on stderr when a run ends, and the usage
 * figures `sessions list/show` share: status, turns, model calls per model, tokens, cost,
 * tool calls and time, bytes stored, trace path, and how to resume a run that did not finish.
 */
import type { UsageReport } from "../agent/accounting.js";
import type { AgentRunResult } from "../agent/run-agent.js";
import {
  fields,
  formatBytes,
  formatCompact,
  formatCount,
  formatDuration,
  shellQuote,
} from "./format.js";

/** "1 model call", "3 model calls". */
function counted(n: number, what: string): string {
  return `${formatCount(n)} ${what}${n === 1 ? "" : "s"}`;
}

/** A cost in dollars: "$0", "$0.0123", or "$1.23" from one dollar up. */
export function formatCost(usd: number): string {
  if (usd === 0) return "$0";
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** The cost, or why it is unknown (the models without pricing): "unknown: no pricing configured for …". */
export function costText(usage: UsageReport): string {
  if (usage.total.costUsd !== null) return formatCost(usage.total.costUsd);
  const unpriced = Object.entries(usage.byModel)
    .filter(([, model]) => model.costUsd === null)
    .map(([ref]) => ref);
  return (
    `unknown: no pricing configured for ${unpriced.join(", ") || "some model"} ` +
    '(set models."<ref>".pricing in the config file)'
  );
}

/** Model calls per model: "4 × openai/gpt-4.1 (12.3k in / 1.1k out)". */
export function modelCallsText(usage: UsageReport): string {
  const entries = Object.entries(usage.byModel);
  if (entries.length === 0) return "none";
  return entries
    .map(
      ([ref, model]) =>
        `${model.calls} × ${ref} (${formatCompact(model.inputTokens)} in / ${formatCompact(model.outputTokens)} out)`,
    )
    .join(", ");
}

/** The command that continues a session, repeating --home when it was given. */
export function resumeCommand(sessionId: string, home: string | undefined): string {
  const homeFlag = home !== undefined ? ` --home ${shellQuote(home)}` : "";
  return `spillway${homeFlag} run --resume ${sessionId} "<what to do next>"`;
}

export interface SummaryOptions {
  /** Wall time of the whole command. */
  readonly elapsedMs: number;
  /** The --home to repeat in follow-up commands (when it was given explicitly). */
  readonly home?: string;
  /** Whether the report went to stdout (a completed run). */
  readonly reportPrinted: boolean;
}

/** The summary lines for stderr. */
export function summaryLines(result: AgentRunResult, options: SummaryOptions): string[] {
  const { usage } = result;
  const total = usage.total;
  const children =
    usage.children.modelCalls > 0 || usage.children.toolCalls > 0
      ? ` (sub-agents included: ${counted(usage.children.modelCalls, "model call")}, ${counted(usage.children.toolCalls, "tool call")})`
      : "";
  const lines = [
    "",
    `── ${result.status} · session ${result.sessionId} · ${counted(result.turns, "turn")} · ${formatDuration(options.elapsedMs)}`,
    ...fields([
      ...(result.error !== null ? [["error", result.error] as [string, string]] : []),
      ["model calls", `${modelCallsText(usage)}${children}`],
      ["tokens", `${formatCount(total.inputTokens)} in / ${formatCount(total.outputTokens)} out`],
      ["cost", costText(usage)],
      ["tool calls", `${formatCount(total.toolCalls)} (${formatDuration(total.toolMs)} in tools)`],
      ["stored", `${formatBytes(total.storedBytes)} (${formatCount(total.storedBytes)} bytes)`],
      ["trace", result.tracePath],
      [
        "inspect",
        `spillway${options.home !== undefined ? ` --home ${shellQuote(options.home)}` : ""} sessions show ${result.sessionId}`,
      ],
      ...(result.status !== "completed"
        ? [["resume", resumeCommand(result.sessionId, options.home)] as [string, string]]
        : []),
    ]),
  ];
  if (!options.reportPrinted && result.report) {
    lines.push("", "the agent's last message (no final report was delivered):", result.report);
  }
  if (options.reportPrinted && result.report === "") lines.push("(the final report is empty)");
  return lines;
}

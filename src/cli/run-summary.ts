/**
 * The readable summary `spillway run` prints on stderr when a run ends, and the usage
 * figures `sessions list/show` share: status, turns, model calls per model, tokens, cost,
 * tool calls and time, bytes stored, trace path, and how to resume a run that did not finish.
 * Calls made for the agent by extraction and by sub-agents (the usage report's `children`) are
 * counted in every total and also shown apart.
 */
import type { UsageReport } from "../agent/accounting.js";
import type { AgentRunResult } from "../agent/run-types.js";
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

/** Who else spent: extraction model calls and sub-agents (the read-grep agent included). */
const CHILDREN = "extraction/sub-agents";

/** The summary lines for stderr. */
export function summaryLines(result: AgentRunResult, options: SummaryOptions): string[] {
  const { usage } = result;
  const { total, own, children } = usage;
  // byModel counts every call (own and children's); the split says who made them.
  const calls =
    children.modelCalls > 0
      ? `${modelCallsText(usage)} · ${formatCount(own.modelCalls)} by the agent + ` +
        `${formatCount(children.modelCalls)} by ${CHILDREN}`
      : modelCallsText(usage);
  const tokens =
    `${formatCount(total.inputTokens)} in / ${formatCount(total.outputTokens)} out` +
    (children.modelCalls > 0
      ? ` (${CHILDREN}: ${formatCount(children.inputTokens)} in / ${formatCount(children.outputTokens)} out)`
      : "");
  const cost =
    costText(usage) +
    (children.modelCalls > 0 && total.costUsd !== null && children.costUsd !== null
      ? ` (${CHILDREN}: ${formatCost(children.costUsd)})`
      : "");
  const tools =
    `${formatCount(total.toolCalls)} (${formatDuration(total.toolMs)} in tools` +
    `${children.toolCalls > 0 ? `; ${formatCount(children.toolCalls)} by sub-agents` : ""})`;
  const lines = [
    "",
    `── ${result.status} · session ${result.sessionId} · ${counted(result.turns, "turn")} · ${formatDuration(options.elapsedMs)}`,
    ...fields([
      ...(result.error !== null ? [["error", result.error] as [string, string]] : []),
      ["model calls", calls],
      ["tokens", tokens],
      ["cost", cost],
      ["tool calls", tools],
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

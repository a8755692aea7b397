import type { ToolDefinition } from "../core/tool-definition.js";
import { type AsyncOutputStatus, asyncStatusSection } from "../surfaces/async-texts.js";
import type { SessionContext } from "./session-context.js";

/** What the next model call may do: decided by the turn policy, shown by the notice. */
export interface TurnPlan {
  /** The turn number as counted toward maxTurns. */
  readonly turn: number;
  readonly maxTurns: number;
  /** Only the final report is allowed. */
  readonly final: boolean;
  readonly tools: readonly ToolDefinition[];
  /** Some output is shown by handle: the notice offers to read it. */
  readonly canRetrieve: boolean;
}

/**
 * The per-turn system notice (seed 003's XML-NEXT): turn i of N, context window % used, the
 * Async Tool Status (running, ready with retrieval counts, failed) and the options the model
 * has now. Ephemeral: part of the projection, never of the canonical history.
 */
export function renderNotice(
  context: SessionContext,
  plan: TurnPlan,
  contextPercent: number,
  asyncOutputs: readonly AsyncOutputStatus[] = [],
): string {
  const lines = [
    "# System Notice",
    "",
    `This is turn ${plan.turn} of ${plan.maxTurns}.`,
    `Your context window is ${contextPercent}% full.`,
    "",
    ...asyncStatusSection(asyncOutputs, context.clock()),
  ];
  if (plan.final) {
    lines.push(
      "This is your final turn: call agent__final_report now with your complete answer.",
      "No other tool is available in this turn.",
    );
    return lines.join("\n");
  }
  const retrieve = context.surface
    .tools()
    .map((t) => t.name)
    .join(" or ");
  lines.push("You now need to decide your next move:");
  const options = ["Call tools to advance your task"];
  // Seed 003's conditional options: ready outputs → retrieve; only running ones → wait.
  const running = asyncOutputs.some((o) => o.status === "running");
  const settled = asyncOutputs.some((o) => o.status !== "running");
  if (settled)
    options.push(
      "Retrieve/examine async tool outputs using get_tool_output(id, mode) or wait_for_tool_output()",
    );
  else if (plan.canRetrieve)
    options.push(`Read stored tool outputs with ${retrieve} (their ids are in the tool results)`);
  if (running && !settled) options.push("Wait for running tools using wait_for_tool_output()");
  options.push("Provide your final report/answer with agent__final_report");
  for (const [i, option] of options.entries()) lines.push(`${i + 1}. ${option}`);
  if (asyncOutputs.length > 0) {
    lines.push("", 'Use get_tool_output(id, "raw"|"extract"|"slice") to retrieve.');
    if (running) lines.push("Use wait_for_tool_output() to block until a running tool completes.");
  }
  return lines.join("\n");
}

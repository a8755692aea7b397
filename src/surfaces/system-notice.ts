import { type AsyncOutputStatus, asyncStatusSection } from "./async-texts.js";

/** What one System Notice says. */
export interface NoticeView {
  /** "This is turn i of N." (left out when the loop has no turn cap it knows of). */
  readonly turn?: { readonly number: number; readonly max: number };
  /** "Your context window is N% full." (left out when the context window is unknown). */
  readonly contextPercent?: number;
  /** The session's async outputs, oldest first (the Async Tool Status section). */
  readonly asyncOutputs: readonly AsyncOutputStatus[];
  /** Now, in ms since the epoch (running tools show their seconds). */
  readonly now: number;
  /** Only the final answer is allowed now. */
  readonly final: boolean;
  /** The surface's tools are listed (some output is shown by handle). */
  readonly canRetrieve: boolean;
  /** The names of the surface's tools. */
  readonly retrieveTools: readonly string[];
  /** The tool that delivers the final answer; absent when the answer is plain text. */
  readonly finalTool?: string;
  /** Lines after the context line (e.g. that a compaction fell back to handle form). */
  readonly notes?: readonly string[];
}

/**
 * The per-turn System Notice (seed 003's XML-NEXT): turn i of N, context window % used, the
 * Async Tool Status (running, ready with retrieval counts, failed) and the options the model
 * has now. Ephemeral: part of the projection, never of the canonical history.
 *
 * @example
 * renderSystemNotice({
 *   turn: { number: 3, max: 10 }, contextPercent: 45, asyncOutputs: [], now: Date.now(),
 *   final: false, canRetrieve: false, retrieveTools: ["get_tool_output"], finalTool: "agent__final_report",
 * });
 * // "# System Notice\n\nThis is turn 3 of 10.\nYour context window is 45% full.\n\n…"
 */
export function renderSystemNotice(view: NoticeView): string {
  const lines = ["# System Notice", ""];
  if (view.turn) lines.push(`This is turn ${view.turn.number} of ${view.turn.max}.`);
  if (view.contextPercent !== undefined)
    lines.push(`Your context window is ${view.contextPercent}% full.`);
  lines.push(...(view.notes ?? []));
  if (view.turn || view.contextPercent !== undefined || view.notes?.length) lines.push("");
  lines.push(...asyncStatusSection(view.asyncOutputs, view.now));
  if (view.final) {
    if (view.finalTool)
      lines.push(
        `This is your final turn: call ${view.finalTool} now with your complete answer.`,
        "No other tool is available in this turn.",
      );
    else lines.push("This is your final turn: give your complete answer now, without tool calls.");
    return lines.join("\n");
  }
  const retrieve = view.retrieveTools.join(" or ");
  lines.push("You now need to decide your next move:");
  const options = ["Call tools to advance your task"];
  // Seed 003's conditional options: ready outputs → retrieve; only running ones → wait.
  const running = view.asyncOutputs.some((o) => o.status === "running");
  const settled = view.asyncOutputs.some((o) => o.status !== "running");
  if (settled)
    options.push(
      "Retrieve/examine async tool outputs using get_tool_output(id, mode) or wait_for_tool_output()",
    );
  else if (view.canRetrieve)
    options.push(`Read stored tool outputs with ${retrieve} (their ids are in the tool results)`);
  if (running && !settled) options.push("Wait for running tools using wait_for_tool_output()");
  options.push(
    view.finalTool
      ? `Provide your final report/answer with ${view.finalTool}`
      : "Give your final answer when you have what you need",
  );
  for (const [i, option] of options.entries()) lines.push(`${i + 1}. ${option}`);
  if (view.asyncOutputs.length > 0) {
    lines.push("", 'Use get_tool_output(id, "raw"|"extract"|"slice") to retrieve.');
    if (running) lines.push("Use wait_for_tool_output() to block until a running tool completes.");
  }
  return lines.join("\n");
}

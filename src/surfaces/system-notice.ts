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
  /** The last turn: the answer is due now. */
  readonly final: boolean;
  /** In the last turn, no tool but `finalTool` may be called. */
  readonly reportOnly?: boolean;
  /** The surface's tools are listed (some output is shown by handle). */
  readonly canRetrieve: boolean;
  /** The names of the surface's tools. */
  readonly retrieveTools: readonly string[];
  /** The tool that delivers the final answer; absent when the answer is plain text. */
  readonly finalTool?: string;
  /** Lines after the context line (e.g. that a compaction fell back to handle form). */
  readonly notes?: readonly string[];
  /**
   * spillway's own options (one tool call, the read modes by name) instead of the original
   * design's numbered menu: a small model copies a placeholder option ("Call tools to advance
   * your task") into its reply, and takes the first mode of a `"raw"|"extract"|"slice"` line
   * even for outputs far over raw's limit.
   */
  readonly guided?: boolean;
}

/**
 * The per-turn System Notice (D3-14): turn i of N, context window % used, the Async Tool
 * Status (running, ready with retrieval counts, failed) and the options the model has now.
 * Ephemeral: part of the projection, never of the canonical history.
 *
 * @example
 * renderSystemNotice({
 *   turn: { number: 3, max: 10 }, contextPercent: 45, asyncOutputs: [], now: Date.now(),
 *   final: false, canRetrieve: false, retrieveTools: ["get_tool_output"], finalTool: "agent__final_report",
 * });
 * // "# System Notice\n\nThis is turn 3 of 10.\nYour context window is 45% full.\n\n…"
 */
export function renderSystemNotice(view: NoticeView): string {
  // spillway's own notices say whose they are: a model must not take them for a tool's result.
  const lines = [
    view.guided ? "# System Notice (from spillway, not from a tool)" : "# System Notice",
    "",
  ];
  if (view.turn) lines.push(`This is turn ${view.turn.number} of ${view.turn.max}.`);
  if (view.contextPercent !== undefined)
    lines.push(`Your context window is ${view.contextPercent}% full.`);
  lines.push(...(view.notes ?? []));
  if (view.turn || view.contextPercent !== undefined || view.notes?.length) lines.push("");
  lines.push(...asyncStatusSection(view.asyncOutputs, view.now));
  if (view.final) {
    if (view.finalTool) {
      lines.push(`This is your final turn: call ${view.finalTool} now with your complete answer.`);
      if (view.reportOnly) lines.push("No other tool is available in this turn.");
    } else
      lines.push("This is your final turn: give your complete answer now, without tool calls.");
    return lines.join("\n");
  }
  if (view.guided) {
    // Nothing stored or running: no menu. The tool schemas already say what the model can call,
    // and a menu with nothing to read is answered with its first line, copied as text.
    if (hasStoredOutput(view) || view.asyncOutputs.length > 0) lines.push(...guidedOptions(view));
    return lines.join("\n").trimEnd();
  }
  const retrieve = view.retrieveTools.join(" or ");
  lines.push("You now need to decide your next move:");
  const options = ["Call tools to advance your task"];
  // The original design's conditional options, exact: ready outputs → retrieve; only running
  // ones → wait.
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

function hasStoredOutput(view: NoticeView): boolean {
  return view.canRetrieve || view.asyncOutputs.some((o) => o.status === "ready");
}

/**
 * What the model can do now, as spillway says it: concrete calls only. No line is a placeholder
 * sentence ("the tool your task needs next"): a small model copies one into a tool's free-text
 * argument instead of making the call it stands for.
 */
function guidedOptions(view: NoticeView): string[] {
  const running = view.asyncOutputs.some((o) => o.status === "running");
  const tools = view.retrieveTools.join(" or ");
  const lines = [view.finalTool ? "Reply with one tool call:" : "Now do one of these:"];
  if (hasStoredOutput(view))
    lines.push(
      `- ${tools} to read a stored output by its id, in parts: mode="search" (words), "grep" (an exact text), "slice" (lines or text around an anchor), "page" (in order), "json" or "extract" (a query); its tool result lists exact calls`,
    );
  if (running) lines.push("- wait_for_tool_output() to wait for a running tool");
  lines.push(
    view.finalTool
      ? `- ${view.finalTool} with your complete answer, once the tool results you have read hold it`
      : "- your final answer as text, once the tool results you have read hold it",
  );
  return lines;
}

/**
 * What the final turn quotes (SW-27 in docs/architecture.md): the lines of the session's reads
 * and handle messages that hold the task's words, taken from the canonical history, so a turn a
 * compaction summarized still counts. The summary is written by the model, which may drop or
 * change the value a read showed; the quote is the text as it was shown.
 */
import { guided } from "../config/guidance.js";
import { type ReadEvidence, readEvidence } from "../surfaces/read-evidence.js";
import { renderResult } from "./render-result.js";
import type { SessionContext } from "./session-context.js";
import { sessionResults } from "./session-results.js";
import { WAIT_FOR_TOOL_OUTPUT } from "./wait-tool.js";

/** The session's tool results that show the output's numbered lines, by who chose the lines. */
interface ShownLines {
  /** Reads (the surface's tools, the wait tool), in order. */
  readonly reads: string[];
  /** Handle messages (the task search's lines, the first and last lines), in order. */
  readonly handleMessages: string[];
}

/**
 * The lines of every read and handle message of the session, compacted turns included, that
 * hold the task's words; undefined when there is no task, the switch is off or none does.
 *
 * @example
 * await sessionEvidence(context);
 * // { terms: ["evt", "1"], lines: ["158:22: event=evt_1 refund_ref=ANS-7"] }
 */
export async function sessionEvidence(context: SessionContext): Promise<ReadEvidence | undefined> {
  const task = context.state.taskText;
  if (!task || !guided(context.settings, "evidenceQuotes")) return undefined;
  const readTools = new Set([...context.surface.tools().map((t) => t.name), WAIT_FOR_TOOL_OUTPUT]);
  const shown: ShownLines = { reads: [], handleMessages: [] };
  for (const { toolName, ref } of await sessionResults(context)) {
    if (ref.kind === "error" || ("isError" in ref && ref.isError === true)) continue;
    if (readTools.has(toolName)) shown.reads.push(await renderResult(context, ref));
    else if (ref.kind === "output" && ref.shown !== "inline")
      shown.handleMessages.push(await renderResult(context, ref));
  }
  const evidence = readEvidence(task, shown.reads, shown.handleMessages);
  return evidence.lines.length > 0 ? evidence : undefined;
}

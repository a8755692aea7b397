/**
 * What a session showed its model, gathered once per final report for the report guards
 * (report-guard.ts): every tool result as the model was shown it, split by who wrote it, the
 * outputs its calls stored, and the places its calls read.
 */
import type { ToolCallRecord } from "../store/history.js";
import { NOTHING_FOUND_MARK } from "../surfaces/get-tool-output/nothing-found.js";
import { callLocations } from "../surfaces/task-search.js";
import { operatingInstructions } from "./operating-instructions.js";
import { renderResult, shortenedResult } from "./render-result.js";
import type { ReturnedTexts } from "./report-unread-id.js";
import type { SessionContext } from "./session-context.js";
import { sessionResults } from "./session-results.js";

/** The tool results of the session as the model was shown them, by who wrote them. */
export interface ShownResults {
  /** What reads of stored outputs returned, and outputs shown whole. */
  readonly returned: string[];
  /** What the runtime wrote: handle messages, notes, errors, the hint after an empty read. */
  readonly runtime: string[];
  /** The outputs the session's tool calls stored, each once. */
  readonly outputIds: string[];
  /** The places the session's calls read with success (`placesRead`). */
  readonly places: string[];
}

/**
 * Every tool result of the session as the model was shown it, the texts that stood in for
 * results and turns when the context was made smaller (a result's shortened form; a compaction
 * summary's header and call index, not its summary proper, the summarizer's account of what the
 * tools returned), and spillway's standing instructions after the agent's system prompt.
 */
async function shownResults(context: SessionContext): Promise<ShownResults> {
  const calls = await context.history.toolCalls(context.sessionId);
  const shown: ShownResults = {
    returned: [],
    runtime: [],
    outputIds: [...new Set(calls.flatMap((c) => (c.outputId ? [c.outputId] : [])))],
    places: placesRead(calls),
  };
  for (const { ref } of await sessionResults(context)) {
    const text = await renderResult(context, ref);
    const read =
      ref.kind === "retrieval" && !ref.isError
        ? ref.text.split(NOTHING_FOUND_MARK)[0]!
        : ref.kind === "output" && ref.shown === "inline"
          ? text
          : "";
    shown.returned.push(read);
    shown.runtime.push(text.slice(read.length));
    const shortened = await shortenedResult(context, ref);
    if (shortened !== undefined) shown.runtime.push(shortened);
  }
  for (const summary of await context.history.summaries(context.sessionId))
    shown.runtime.push(summary.text.replace(summary.summary.trim(), ""));
  shown.runtime.push(operatingInstructions(context));
  return shown;
}

/** The session's tool results, rendered on the first call and shared by every later one. */
export function renderedOnce(context: SessionContext): () => Promise<ShownResults> {
  let rendered: Promise<ShownResults> | undefined;
  return () => {
    rendered ??= shownResults(context);
    return rendered;
  };
}

/** What reads returned and outputs shown whole showed, rendered once for every check. */
export const returnedTexts =
  (shownOnce: () => Promise<ShownResults>): ReturnedTexts =>
  async () =>
    (await shownOnce()).returned;

/**
 * The paths, URLs and file names a tool call of the session read with success (SW-71): a place
 * a tool accepted exists, and a report naming it invents nothing, though no result echoed it (a
 * file's text does not repeat its own path). Only a call that returned an output counts: a
 * failed read names a place that may not exist, and spillway's own tools read no place.
 */
function placesRead(calls: readonly ToolCallRecord[]): string[] {
  return calls
    .filter((call) => call.status === "ok" && call.outputId !== null)
    .flatMap((call) => callLocations(call.argsText));
}

import type { BackgroundJob } from "../async/background.js";

/**
 * The model-facing texts of async tools, exact as the async design gives them: D3-13's answers
 * (immutable, no status field), wait_for_tool_output's list, and the System Notice's Async Tool
 * Status (D3-14); and spillway's own texts where it names the exact call instead.
 */

/** D3-13, timeout case (the tool keeps running in the background). */
export function asyncRunningText(id: string, toolName: string): string {
  return (
    `Tool Output ID: ${id}\nTool: ${toolName}\n\n` +
    `When the System Notice shows this tool is ready, use get_tool_output("${id}", mode) to retrieve its output.`
  );
}

/**
 * spillway's text for a tool that goes on in the background: what to call next, exactly. A
 * template with a placeholder (`get_tool_output("out_…", mode)`) leaves a small model to fill
 * in the mode and its arguments, which it gets wrong; a call it can copy does not.
 *
 * @example
 * asyncRunningGuidedText("out_1", "ci__build_status");
 * // "ci__build_status goes on in the background; its output will be stored as out_1.\n…"
 */
export function asyncRunningGuidedText(id: string, toolName: string): string {
  return [
    `${toolName} goes on in the background; its output will be stored as ${id}.`,
    "Wait for it with wait_for_tool_output(): its result shows the output when it is small, or how to read it.",
  ].join("\n");
}

/** D3-13, size threshold case (the output is stored and ready, not shown). */
export function asyncReadyText(id: string, toolName: string, tokens: number): string {
  return (
    `Tool Output ID: ${id}\nTool: ${toolName}\nSize: ~${tokens} tokens\n\n` +
    `Use get_tool_output("${id}", mode) to retrieve this output:\n` +
    '- "extract": Extract specific information you need\n' +
    '- "slice": Get bytes around an anchor string'
  );
}

/** get_tool_output's answer for a tool still running (the async design's exact text). */
export const NOT_READY_TEXT = "Tool not ready. Use wait_for_tool_output.";
/** wait_for_tool_output's answer when nothing runs (the async design's exact text). */
export const NOTHING_RUNNING_TEXT = "No async tools running.";
/**
 * Our answer when nothing runs names what to call instead: told only that nothing runs, a
 * small model calls the wait again in place of reading what it has or calling its task's first
 * tool.
 *
 * @example
 * nothingRunningGuidedText(["fs__read_text_file"]);
 * // "No async tools running. Nothing to wait for: call the tool your task needs (fs__read_text_file), …"
 */
export function nothingRunningGuidedText(taskTools: readonly string[]): string {
  const first =
    taskTools.length > 0 ? `call the tool your task needs (${taskTools.join(", ")}), ` : "";
  return (
    `${NOTHING_RUNNING_TEXT} Nothing to wait for: ${first}read a stored output with get_tool_output, ` +
    "or call agent__final_report with your complete answer."
  );
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function tokensLabel(tokens: number): string {
  return tokens >= 1000 ? `~${Math.round(tokens / 1000)}K tokens` : `~${tokens} tokens`;
}

/** wait_for_tool_output's answer: `Completed tools:` and a line each (the async design's). */
export function completedText(jobs: readonly BackgroundJob[]): string {
  const lines = jobs.map((job) => {
    if (job.status === "ready") {
      const attachments =
        job.attachments.length > 0 ? `, attachments: ${job.attachments.join(", ")}` : "";
      return `- ${job.toolName} (id: ${job.outputId}, size: ${humanSize(job.bytes ?? 0)}${attachments})`;
    }
    // An aborted job's error already starts with "aborted: ".
    const error = (job.error ?? "unknown error").replace(/^aborted: /, "");
    return `- ${job.toolName} (id: ${job.outputId}, ${job.status}: ${error})`;
  });
  return ["Completed tools:", ...lines].join("\n");
}

/** One async output as the System Notice shows it (read from the store, so resume-proof). */
export interface AsyncOutputStatus {
  readonly id: string;
  readonly toolName: string;
  readonly status: "running" | "ready" | "failed";
  /** Token estimate of a ready output. */
  readonly tokens: number | null;
  /** When the tool call started (ms since the epoch). */
  readonly startedAt: number;
  /** Successful get_tool_output reads (D3-21: a counter, no "examined" state). */
  readonly reads: number;
  readonly error: string | null;
}

/** How many lines a notice subsection lists before summarizing the rest. */
const MAX_LISTED = 20;

function listed<T>(items: readonly T[], line: (item: T) => string): string[] {
  const lines = items.slice(-MAX_LISTED).map(line);
  if (items.length > MAX_LISTED)
    lines.unshift(`- … ${items.length - MAX_LISTED} earlier (ids in their tool results)`);
  return lines;
}

/**
 * The "## Async Tool Status" section of the System Notice (D3-14): Running (id, tool,
 * seconds), Ready (id, tool, ~tokens, retrievals) and Failed; empty when the session has no
 * async output.
 */
export function asyncStatusSection(outputs: readonly AsyncOutputStatus[], now: number): string[] {
  if (outputs.length === 0) return [];
  const running = outputs.filter((o) => o.status === "running");
  const ready = outputs.filter((o) => o.status === "ready");
  const failed = outputs.filter((o) => o.status === "failed");
  const lines = ["## Async Tool Status", ""];
  if (running.length > 0) {
    lines.push(`### Running (${running.length})`);
    lines.push(
      ...listed(
        running,
        (o) =>
          `- ${o.toolName} (id: ${o.id}, running ${(Math.max(0, now - o.startedAt) / 1000).toFixed(1)}s)`,
      ),
    );
    lines.push("");
  }
  if (ready.length > 0) {
    lines.push(`### Ready (${ready.length})`);
    lines.push(
      ...listed(
        ready,
        (o) =>
          `- ${o.toolName} (id: ${o.id}, ${tokensLabel(o.tokens ?? 0)}, ${o.reads} retrieval${o.reads === 1 ? "" : "s"})`,
      ),
    );
    lines.push("");
  }
  if (failed.length > 0) {
    lines.push(`### Failed (${failed.length})`);
    lines.push(
      ...listed(failed, (o) => `- ${o.toolName} (id: ${o.id}, ${o.error ?? "unknown error"})`),
    );
    lines.push("");
  }
  lines.push("---", "");
  return lines;
}

import {
  completedText,
  NOTHING_RUNNING_TEXT,
  nothingRunningGuidedText,
} from "../surfaces/async-texts.js";
import { compatibilityTexts, type SessionContext } from "./session-context.js";
import type { ToolHandler } from "./tool-types.js";
import { guidedCompletedText } from "./wait-results.js";

export const WAIT_FOR_TOOL_OUTPUT = "wait_for_tool_output";

/**
 * `wait_for_tool_output()`: blocks until at least one background tool settles and
 * lists every tool completed since the last report (id, tool, size or failure). Returns at
 * once with the list when some already settled, or "No async tools running." when none runs.
 * Bounded by the tool timeout; ends early when the session is aborted or asked to stop.
 */
export function waitForToolOutputTool(context: () => SessionContext): ToolHandler {
  return {
    kind: "internal",
    definition: {
      name: WAIT_FOR_TOOL_OUTPUT,
      description:
        "Block until at least one running async tool completes; returns the tools completed since the last call (id, tool, size). " +
        "Retrieve their outputs with get_tool_output(id, mode).",
      inputSchema: { type: "object", additionalProperties: false, properties: {} },
    },
    run: async (_call, signal) => {
      const session = context();
      const { background } = session;
      if (background.runningCount === 0 && background.unreported().length === 0) {
        if (compatibilityTexts(session.settings))
          return { type: "note", text: NOTHING_RUNNING_TEXT };
        // The task's own tools (MCP servers, sub-agents), for a model that has called none yet.
        const taskTools = [...session.tools]
          .filter(([, handler]) => handler.kind === "mcp" || handler.kind === "subagent")
          .map(([name]) => name);
        return { type: "note", text: nothingRunningGuidedText(taskTools) };
      }
      const timeoutSecs = session.settings.toolTimeoutSecs;
      const completed = await background.waitForCompleted(signal, timeoutSecs * 1000);
      if (completed.length > 0)
        return {
          type: "note",
          text: compatibilityTexts(session.settings)
            ? completedText(completed)
            : await guidedCompletedText(session, completed),
        };
      const running = background.jobs().filter((job) => job.status === "running");
      const reason = signal.aborted
        ? "The session was aborted"
        : session.state.stopRequested
          ? "The session is stopping"
          : `No tool completed within ${timeoutSecs}s (the tool timeout)`;
      return {
        type: "note",
        text: [
          `${reason}. Still running:`,
          ...running.map((job) => `- ${job.toolName} (id: ${job.outputId})`),
        ].join("\n"),
      };
    },
  };
}

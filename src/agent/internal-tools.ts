import { mapConcurrent } from "../core/concurrency.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import type { ToolResultRef } from "../store/history.js";
import { FINAL_REPORT, FINAL_REPORT_DEFINITION } from "../surfaces/final-report-tool.js";
import { reportAfterSendBack, reportGuard } from "./report-guard.js";
import type { SessionContext } from "./session-context.js";
import type { BatchItem, ToolHandler } from "./tool-types.js";

export { FINAL_REPORT };
export const TASK_STATUS = "agent__task_status";
export const BATCH = "agent__batch";
/** Internal tools that cannot run inside agent__batch. */
const NOT_IN_BATCH = new Set([FINAL_REPORT, BATCH]);
const MAX_BATCH = 20;

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

export function finalReportTool(context: () => SessionContext): ToolHandler {
  return {
    kind: "internal",
    definition: FINAL_REPORT_DEFINITION,
    run: async (call) => {
      const report = text((call.args as Record<string, unknown> | undefined)?.report);
      if (!report || report.trim() === "") {
        return {
          type: "error",
          code: "INVALID_TOOL_ARGUMENTS",
          message: "agent__final_report needs a non-empty `report` string.",
        };
      }
      const sentBack = await reportGuard(context(), report);
      // A note, not an error: a small model reports an error's code as its answer.
      if (sentBack) return { type: "note", text: sentBack };
      const settled = await reportAfterSendBack(context(), report);
      if ("refused" in settled) return { type: "report-refused", reason: settled.refused };
      return { type: "final", report: settled.report };
    },
  };
}

export function taskStatusTool(context: () => SessionContext): ToolHandler {
  return {
    kind: "internal",
    definition: {
      name: TASK_STATUS,
      description: "Report your progress in one line (shown to the user); does not end your work.",
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["status"],
        properties: {
          status: { type: "string", description: "What you are doing now, in one line." },
        },
      },
    },
    run: async (call) => {
      const status = text((call.args as Record<string, unknown> | undefined)?.status);
      if (!status)
        return {
          type: "error",
          code: "INVALID_TOOL_ARGUMENTS",
          message: "agent__task_status needs a `status` string.",
        };
      const session = context();
      session.emit({ type: "status", sessionId: session.sessionId, text: status });
      return { type: "note", text: "Status recorded." };
    },
  };
}

/**
 * agent__batch: several tool calls in one (retrieval tools included), run in parallel; each
 * inner call goes through the same interception point as a direct call.
 */
export function batchTool(
  context: () => SessionContext,
  allowedInside: () => ReadonlySet<string>,
  run: (call: ModelToolCall, allowed: ReadonlySet<string>) => Promise<{ ref: ToolResultRef }>,
): ToolHandler {
  return {
    kind: "internal",
    definition: {
      name: BATCH,
      description:
        "Run several tool calls at once (in parallel) and get all their results together. Each call is {tool, args}.",
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["calls"],
        properties: {
          calls: {
            type: "array",
            minItems: 1,
            maxItems: MAX_BATCH,
            items: {
              type: "object",
              additionalProperties: false,
              required: ["tool", "args"],
              properties: {
                tool: { type: "string", description: "The tool's name." },
                args: { type: "object", description: "The tool's arguments." },
              },
            },
          },
        },
      },
    },
    run: async (call) => {
      const calls = (call.args as { calls?: unknown } | undefined)?.calls;
      if (!Array.isArray(calls) || calls.length === 0 || calls.length > MAX_BATCH) {
        return {
          type: "error",
          code: "INVALID_TOOL_ARGUMENTS",
          message: `agent__batch needs \`calls\`: 1 to ${MAX_BATCH} items of {tool, args}.`,
        };
      }
      const allowed = new Set([...allowedInside()].filter((name) => !NOT_IN_BATCH.has(name)));
      const indexed = calls.map((item: unknown, index) => ({ item, index }));
      const items = await mapConcurrent(
        indexed,
        context().settings.toolConcurrency,
        async ({ item, index }): Promise<BatchItem> => {
          const entry = (typeof item === "object" && item !== null ? item : {}) as {
            tool?: unknown;
            args?: unknown;
          };
          const toolName = typeof entry.tool === "string" ? entry.tool : "";
          const argsText = JSON.stringify(entry.args ?? {});
          const inner: ModelToolCall = {
            toolCallId: `${call.toolCallId}.${index + 1}`,
            toolName,
            argsText,
            args: entry.args ?? {},
            ...(toolName === ""
              ? {
                  invalid: {
                    code: "INVALID_TOOL_ARGUMENTS" as const,
                    message: `Batch item ${index + 1} has no \`tool\` name.`,
                  },
                }
              : {}),
          };
          const { ref } = await run(inner, allowed);
          return { toolName, argsText, ref };
        },
      );
      return { type: "batch", items };
    },
  };
}

import { basename } from "node:path";
import { guided } from "../config/guidance.js";
import type { McpServerSpec } from "../config/index.js";
import { mcpContentParts } from "../providers/mcp/decode-result.js";
import type { McpHub } from "../providers/mcp/hub.js";
import type { McpCallResult } from "../providers/mcp/types.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import type { Surface } from "../surfaces/surface.js";
import { checkHiddenToolNames, hiddenArgumentsError, schemaWithout } from "./hidden-arguments.js";
import { batchTool, finalReportTool, taskStatusTool } from "./internal-tools.js";
import {
  asyncActive,
  asyncSettingsOf,
  compatibilityTexts,
  type SessionContext,
  sessionAnswerChars,
  tokenizerOf,
} from "./session-context.js";
import { executeCall } from "./tool-runner.js";
import type { ToolHandler, ToolOutcome } from "./tool-types.js";
import { waitForToolOutputTool } from "./wait-tool.js";
import { declaredReadOnly, readWhole } from "./whole-read.js";

/** An MCP result as raw content for the interception point. */
export function mcpContent(result: McpCallResult): ToolOutcome {
  const parts = mcpContentParts(result);
  return {
    type: "content",
    isError: result.isError,
    ...(parts.text !== undefined ? { text: parts.text } : {}),
    ...(parts.binary ? { binary: parts.binary } : {}),
  };
}

/**
 * The MCP tools offered to the model: every tool of every connected server, or, for a server
 * whose spec lists `tools`, only those (fewer tool definitions: a small model reads them all
 * every turn); without the arguments its `hideArguments` names (hidden-arguments.ts).
 */
export function mcpToolHandlers(
  hub: McpHub,
  timeoutMs: number,
  servers: Readonly<Record<string, McpServerSpec>> = {},
  options: { readonly wholeReads?: boolean } = {},
): ToolHandler[] {
  const offered = hub.tools().filter((info) => {
    const allow = servers[info.server]?.tools;
    return allow === undefined || allow.includes(info.toolName);
  });
  checkHiddenToolNames(servers, offered);
  return offered.map((info): ToolHandler => {
    const hidden = servers[info.server]?.hideArguments?.[info.toolName] ?? [];
    const inputSchema =
      hidden.length > 0
        ? schemaWithout(info.inputSchema, hidden, info.server, info.toolName)
        : info.inputSchema;
    const offeredArguments = Object.keys(
      (inputSchema.properties as Record<string, unknown> | undefined) ?? {},
    );
    const callWith = async (args: unknown, signal?: AbortSignal) =>
      mcpContent(
        await hub.callTool(info.name, (args ?? {}) as Record<string, unknown>, {
          ...(signal ? { signal } : {}),
          timeoutMs,
        }),
      );
    const wholeReads = options.wholeReads === true && declaredReadOnly(info.definition);
    return {
      kind: "mcp",
      definition: { name: info.name, description: info.description, inputSchema },
      run: (call, signal) =>
        wholeReads
          ? readWhole(inputSchema, call.args, (args) => callWith(args, signal))
          : callWith(call.args, signal),
      ...(hidden.length > 0
        ? {
            rejectArguments: (args: unknown) =>
              hiddenArgumentsError(args, hidden, info.name, offeredArguments),
          }
        : {}),
    };
  });
}

export function surfaceToolHandlers(
  surface: Surface,
  context: () => SessionContext,
): ToolHandler[] {
  return surface.tools().map((definition) => ({
    kind: "surface" as const,
    definition,
    run: async (call, signal) => {
      const session = context();
      const answer = await surface.execute(call.toolName, call.args, {
        outputs: session.outputs,
        scope: { sessionId: session.sessionId },
        maxChars: sessionAnswerChars(session),
        tokenizer: tokenizerOf(session.settings),
        outputOfToolCall: async (toolCallId) =>
          (await session.history.toolCalls(session.sessionId)).find(
            (c) => c.toolCallId === toolCallId,
          )?.outputId ?? undefined,
        ...(session.extractor ? { extractor: session.extractor } : {}),
        signal,
        toolCallId: call.toolCallId,
        ...(session.state.taskText && guided(session.settings, "taskSearch")
          ? { taskText: session.state.taskText }
          : {}),
        ...(asyncActive(session)
          ? {
              asyncTokenThreshold: asyncSettingsOf(session.settings).tokenThreshold,
              compatibilityTexts: compatibilityTexts(session.settings),
            }
          : {}),
      });
      return {
        type: "retrieval",
        text: answer.text,
        isError: answer.isError,
        ...(answer.continuation ? { continuation: answer.continuation } : {}),
        ...(answer.outputId ? { outputId: answer.outputId } : {}),
      };
    },
  }));
}

/** Runs a sub-agent file as a child session and returns its final report. */
export type ChildRunner = (
  agentPath: string,
  task: string,
  parentToolCallId: string,
  signal: AbortSignal,
) => Promise<{
  readonly report: string | null;
  readonly status: string;
  readonly error: string | null;
  readonly sessionId: string;
}>;

/** The tool name of a sub-agent file: `agent__<file name without .md>`. */
export function subagentToolName(agentPath: string): string {
  const name = basename(agentPath)
    .replace(/\.md$/i, "")
    .replace(/[^a-zA-Z0-9_-]/g, "_");
  return `agent__${name}`.slice(0, 64);
}

/**
 * The sub-agent tools (`agents:` in frontmatter). With async tools on they take `async: true`
 * to run in the background: the call answers with an id at once, the report arrives as an
 * async output.
 */
export function subagentHandlers(
  agents: readonly { readonly path: string; readonly description: string }[],
  runChild: ChildRunner,
  options: { readonly asyncParam?: boolean } = {},
): ToolHandler[] {
  const asyncProperty = options.asyncParam
    ? {
        async: {
          type: "boolean",
          description:
            "Run in the background: you get an id at once and keep working; its report becomes an async output (wait_for_tool_output, get_tool_output).",
        },
      }
    : {};
  return agents.map((agent) => ({
    kind: "subagent" as const,
    definition: {
      name: subagentToolName(agent.path),
      description: `Sub-agent: ${agent.description || basename(agent.path)}. Give it a complete task; it returns its final report.`,
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["task"],
        properties: {
          task: {
            type: "string",
            description: "The task for the sub-agent, complete and self-contained.",
          },
          ...asyncProperty,
        },
      },
    },
    run: async (call, signal): Promise<ToolOutcome> => {
      const task = (call.args as { task?: unknown } | undefined)?.task;
      if (typeof task !== "string" || task.trim() === "") {
        return {
          type: "error",
          code: "INVALID_TOOL_ARGUMENTS",
          message: `${call.toolName} needs a non-empty \`task\` string.`,
        };
      }
      const child = await runChild(agent.path, task, call.toolCallId, signal);
      if (child.status === "completed" && child.report !== null)
        return { type: "content", text: child.report, isError: false };
      return {
        type: "content",
        isError: true,
        text:
          `Sub-agent session ${child.sessionId} ended ${child.status}: ${child.error ?? "no final report"}` +
          (child.report ? `\nIts last words:\n${child.report}` : ""),
      };
    },
  }));
}

/**
 * All tools of a session by name: MCP tools, sub-agents, the internal tools and the surface's
 * retrieval tools (listed per turn by the turn policy).
 */
export function assembleTools(
  parts: {
    mcp: ToolHandler[];
    subagents: ToolHandler[];
    surface: Surface;
    onlySurface?: boolean;
    /** Async tools are on: wait_for_tool_output is listed. */
    asyncTools?: boolean;
    /** agent__task_status and agent__batch are listed (default true). */
    helperTools?: boolean;
  },
  context: () => SessionContext,
): Map<string, ToolHandler> {
  const tools = new Map<string, ToolHandler>();
  const add = (handler: ToolHandler) => tools.set(handler.definition.name, handler);
  parts.mcp.forEach(add);
  parts.subagents.forEach(add);
  add(finalReportTool(context));
  surfaceToolHandlers(parts.surface, context).forEach(add);
  // The read-grep agent gets its surface's tools and the final report, nothing else.
  if (parts.onlySurface) return tools;
  const helpers = parts.helperTools !== false;
  if (helpers) add(taskStatusTool(context));
  if (parts.asyncTools) add(waitForToolOutputTool(context));
  const runInner = (call: ModelToolCall, allowed: ReadonlySet<string>) =>
    executeCall(context(), call, allowed, { inBatch: true });
  // Inside a batch: every tool the turn allows (the surface's only while outputs are stored).
  const allowedInside = () => {
    const session = context();
    const names = new Set<string>();
    for (const [name, handler] of tools) {
      if (
        handler.kind === "surface" &&
        !session.state.hasStoredOutputs &&
        !session.surface.alwaysListed
      )
        continue;
      names.add(name);
    }
    return names;
  };
  if (helpers) add(batchTool(context, allowedInside, runInner));
  return tools;
}

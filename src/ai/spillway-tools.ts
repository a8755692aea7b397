import {
  type InferToolInput,
  type InferToolOutput,
  jsonSchema,
  type Tool,
  type ToolSet,
  tool,
} from "ai";
import { SpillwayError } from "../core/errors.js";
import {
  GET_TOOL_OUTPUT,
  GET_TOOL_OUTPUT_INPUT_SCHEMA,
  type GetToolOutputArgs,
} from "../surfaces/get-tool-output/schema.js";
import { createGetToolOutputSurface } from "../surfaces/get-tool-output.js";
import { resolveOptions, type SpillwayAsyncOptions, type SpillwayOptions } from "./options.js";
import { type GetToolOutputResult, readStoredOutput, waitForOutputs } from "./reads.js";
import { SpillwaySession } from "./session.js";
import type { SpillwayBackgroundOutput } from "./time-trigger.js";
import { wrapTool } from "./wrap-tool.js";

/** The tool `spillwayTools` adds with async tools on: it waits until a background tool settles. */
export const WAIT_FOR_TOOL_OUTPUT = "wait_for_tool_output";

/** A wrapped tool: the same tool, whose output may also be a background handle when async is on. */
export type SpillwayTool<TOOL, ASYNC extends boolean> = ASYNC extends true
  ? TOOL extends Tool
    ? TOOL["execute"] extends undefined
      ? TOOL
      : Tool<InferToolInput<TOOL>, InferToolOutput<TOOL> | SpillwayBackgroundOutput>
    : TOOL
  : TOOL;

/** The tools spillway adds: `get_tool_output`, and `wait_for_tool_output` with async on. */
export type SpillwayRetrievalTools<ASYNC extends boolean> = {
  get_tool_output: Tool<GetToolOutputArgs, GetToolOutputResult>;
} & (ASYNC extends true
  ? { wait_for_tool_output: Tool<Record<string, never>, string> }
  : Record<never, never>);

/** What {@link spillwayTools} returns: your tools, each keeping its input and output types, plus spillway's. */
export type SpillwayToolSet<TOOLS extends ToolSet, ASYNC extends boolean = false> = {
  [NAME in keyof TOOLS]: SpillwayTool<TOOLS[NAME], ASYNC>;
} & SpillwayRetrievalTools<ASYNC>;

const SESSION = Symbol.for("spillway.ai.session");

/**
 * The session behind a tool set made by {@link spillwayTools}: its store, session id and
 * extraction usage. Undefined for any other tool set.
 *
 * @example
 * const tools = spillwayTools({ fetchLogs });
 * const session = spillwaySessionOf(tools)!;
 * const outputs = await (await session.store()).list({ sessionId: session.id });
 */
export function spillwaySessionOf(tools: ToolSet): SpillwaySession | undefined {
  const holder = tools[GET_TOOL_OUTPUT] as Record<symbol, unknown> | undefined;
  const session = holder?.[SESSION];
  return session instanceof SpillwaySession ? session : undefined;
}

function retrievalTools(session: SpillwaySession): ToolSet {
  const definition = createGetToolOutputSurface({ synopsisLines: 0 }).tools()[0]!;
  const getToolOutput = tool({
    description: definition.description,
    inputSchema: jsonSchema<GetToolOutputArgs>(
      GET_TOOL_OUTPUT_INPUT_SCHEMA as Parameters<typeof jsonSchema>[0],
    ),
    execute: (args, { toolCallId, messages, abortSignal }) =>
      readStoredOutput(
        session,
        args,
        { toolName: GET_TOOL_OUTPUT, toolCallId, input: args, messages },
        abortSignal,
      ),
    toModelOutput: ({ output }) => ({
      type: output.isError ? "error-text" : "text",
      value: output.text,
    }),
  });
  Object.defineProperty(getToolOutput, SESSION, { value: session, enumerable: false });
  const tools: ToolSet = { [GET_TOOL_OUTPUT]: getToolOutput };
  if (session.options.async)
    tools[WAIT_FOR_TOOL_OUTPUT] = tool({
      description:
        "Block until at least one running async tool completes; returns the tools completed since the last call (id, tool, size). " +
        "Retrieve their outputs with get_tool_output(id, mode).",
      inputSchema: jsonSchema<Record<string, never>>({
        type: "object",
        additionalProperties: false,
        properties: {},
      }),
      execute: (_args, { abortSignal }) => waitForOutputs(session, abortSignal),
    });
  return tools;
}

/**
 * Lossless tool results for an AI SDK loop: wraps a `ToolSet` so that each tool's result is
 * stored whole first (strings, JSON, bytes, MCP content), and the model is shown the result
 * itself when it fits, else a handle message with the exact `get_tool_output` calls that read
 * it. Adds `get_tool_output` (and `wait_for_tool_output` with `async`). Your code still gets
 * every result whole and typed; only what the model sees changes. Works with `generateText`,
 * `streamText` and `ToolLoopAgent`, with tools whose `execute` yields, and with abort signals.
 *
 * @example
 * import { generateText, stepCountIs } from "ai";
 * import { spillwayTools } from "spillway/ai";
 *
 * const result = await generateText({
 *   model,
 *   tools: spillwayTools({ fetchLogs }, { sessionId: chatId }),
 *   stopWhen: stepCountIs(10),
 *   prompt: "Find the first error in today's log.",
 * });
 */
export function spillwayTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  options: SpillwayOptions & { readonly async: true | SpillwayAsyncOptions },
): SpillwayToolSet<TOOLS, true>;
export function spillwayTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  options?: SpillwayOptions & { readonly async?: false },
): SpillwayToolSet<TOOLS, false>;
/** `async` not known until run time: outputs may be background handles. */
export function spillwayTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  options?: SpillwayOptions,
): SpillwayToolSet<TOOLS, true>;
export function spillwayTools<TOOLS extends ToolSet>(
  tools: TOOLS,
  options?: SpillwayOptions,
): SpillwayToolSet<TOOLS, boolean> {
  const session = new SpillwaySession(resolveOptions(options));
  const added = retrievalTools(session);
  const wrapped: ToolSet = {};
  for (const [name, original] of Object.entries(tools)) {
    if (name in added)
      throw new SpillwayError(
        "CONFIG_INVALID",
        `The tool set already has a tool named ${name}, which spillway adds. Rename your tool.`,
        { tool: name },
        { fault: "user" },
      );
    wrapped[name] = wrapTool(session, name, original as Tool<unknown, unknown>);
  }
  return { ...wrapped, ...added } as unknown as SpillwayToolSet<TOOLS, boolean>;
}

export type { SpillwayAsyncOptions };

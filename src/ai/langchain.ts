/**
 * spillway/langchain: the same lossless tool results for LangChain.js agents (any agent that
 * runs `@langchain/core` tools: `createAgent`, LangGraph's ToolNode, `bindTools` loops). It is
 * the AI SDK adapter's core (SpillwaySession) under LangChain's tool interface.
 */
import type { ToolRunnableConfig } from "@langchain/core/tools";
import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import { SpillwayError } from "../core/errors.js";
import { randomId } from "../core/ids.js";
import { getToolOutputArgs } from "../surfaces/get-tool-output/schema.js";
import { createGetToolOutputSurface } from "../surfaces/get-tool-output.js";
import { resolveOptions, type SpillwayOptions } from "./options.js";
import { readStoredOutput } from "./reads.js";
import { SpillwaySession } from "./session.js";

/** Options of {@link spillwayLangChainTools}: those of spillwayTools, without `async`. */
export type SpillwayLangChainOptions = Omit<SpillwayOptions, "async">;

/** What {@link spillwayLangChainTools} returns: your tools wrapped, get_tool_output, and the session. */
export interface SpillwayLangChainTools {
  readonly tools: StructuredToolInterface[];
  readonly session: SpillwaySession;
}

function wrap(
  session: SpillwaySession,
  original: StructuredToolInterface,
): StructuredToolInterface {
  return new DynamicStructuredTool({
    name: original.name,
    description: original.description,
    schema: original.schema as never,
    ...(original.returnDirect ? { returnDirect: true } : {}),
    func: async (input: unknown, _runManager, config?: ToolRunnableConfig) => {
      // Run the original on the parsed arguments (not the tool call), so it returns its own value.
      const { toolCall, ...rest } = config ?? {};
      const output: unknown = await original.invoke(input as never, rest);
      const call = { toolName: original.name, toolCallId: toolCall?.id ?? randomId("call"), input };
      const view = await session.capture(call, output);
      if (view.kind === "text") return view.text;
      return typeof output === "string" ? output : JSON.stringify(output);
    },
  });
}

/**
 * Lossless tool results for a LangChain.js agent: each tool's result is stored whole first,
 * and the agent's model is shown the result when it fits, else the handle message; adds
 * `get_tool_output` to read the rest (search, grep, slice, page, json, extract). Async tools are not
 * offered here (use the AI SDK adapter for them).
 *
 * @example
 * import { createAgent } from "langchain";
 * import { spillwayLangChainTools } from "spillway/langchain";
 *
 * const { tools } = spillwayLangChainTools([fetchLogs], { sessionId: threadId });
 * const agent = createAgent({ model: "openai:gpt-4.1-mini", tools });
 */
export function spillwayLangChainTools(
  tools: readonly StructuredToolInterface[],
  options: SpillwayLangChainOptions = {},
): SpillwayLangChainTools {
  if ("async" in options)
    throw new SpillwayError(
      "CONFIG_INVALID",
      "spillwayLangChainTools does not take `async` (background tools need the AI SDK adapter, spillway/ai).",
      { option: "async" },
      { fault: "user" },
    );
  const session = new SpillwaySession(resolveOptions(options));
  const definition = createGetToolOutputSurface({ synopsisLines: 0 }).tools()[0]!;
  const getToolOutput = new DynamicStructuredTool({
    name: definition.name,
    description: definition.description,
    schema: getToolOutputArgs,
    func: async (args, _runManager, config?: ToolRunnableConfig) => {
      const toolCallId = config?.toolCall?.id ?? randomId("call");
      const call = { toolName: definition.name, toolCallId, input: args };
      return (await readStoredOutput(session, args, call, config?.signal)).text;
    },
  });
  for (const tool of tools)
    if (tool.name === definition.name)
      throw new SpillwayError(
        "CONFIG_INVALID",
        `The tools already have one named ${tool.name}, which spillway adds. Rename your tool.`,
        { tool: tool.name },
        { fault: "user" },
      );
  return { tools: [...tools.map((tool) => wrap(session, tool)), getToolOutput], session };
}

import { isSpillwayError, OutputFailedError, SpillwayError } from "../core/errors.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import { NOT_READY_TEXT } from "./async-texts.js";
import { extractMode } from "./get-tool-output/extract-mode.js";
import { grepMode } from "./get-tool-output/grep-mode.js";
import { jsonMode } from "./get-tool-output/json-mode.js";
import { pageMode } from "./get-tool-output/page-mode.js";
import { rawMode } from "./get-tool-output/raw-mode.js";
import {
  GET_TOOL_OUTPUT,
  GET_TOOL_OUTPUT_INPUT_SCHEMA,
  type GetToolOutputArgs,
  getToolOutputArgs,
  invalidGetToolOutputArgs,
  missingArgument,
  normalizeGetToolOutputArgs,
} from "./get-tool-output/schema.js";
import { searchMode } from "./get-tool-output/search-mode.js";
import { sliceMode } from "./get-tool-output/slice-mode.js";
import { unusedArgumentsNote } from "./get-tool-output/unused-arguments.js";
import { defaultHandleMessage } from "./handle-message.js";
import { renderError } from "./render.js";
import type { Surface, SurfaceAnswer, SurfaceContext } from "./surface.js";

export { GET_TOOL_OUTPUT } from "./get-tool-output/schema.js";

/**
 * Answers one parsed call: the output's status first (its edge cases, docs/async-tools.md), then
 * the mode.
 */
async function answer(input: GetToolOutputArgs, context: SurfaceContext): Promise<string> {
  // Only a search reads without an id: every output of the session.
  if (input.mode === "search" && input.id === undefined) return searchMode(input, context);
  if (input.id === undefined) {
    throw missingArgument(
      `mode="${input.mode}" needs id: the output id ("out_…") a tool result named. Only mode="search" works without one (it searches every output of this session).`,
    );
  }
  const args = { ...input, id: input.id };
  const record = await context.outputs.get(args.id, context.scope);
  if (record.status === "running")
    throw new SpillwayError(
      "OUTPUT_NOT_READY",
      NOT_READY_TEXT,
      { outputId: args.id },
      { fault: "model" },
    );
  if (record.status === "failed")
    throw new OutputFailedError(args.id, record.toolName, record.error ?? "unknown error");
  switch (args.mode) {
    case "raw":
      return rawMode(record, context);
    case "slice":
      return sliceMode(args, context);
    case "grep":
      return grepMode(args, context);
    case "search":
      return searchMode(args, context);
    case "page":
      return pageMode(args, context);
    case "json":
      return jsonMode(args, context);
    case "extract":
      return extractMode(args, record, context);
  }
}

/** The compatibility text "Unknown tool ID: X", followed by what valid ids look like. */
function unknownId(id: string, error: SpillwayError): SpillwayError {
  return new SpillwayError(
    "OUTPUT_NOT_FOUND",
    `Unknown tool ID: ${id}. ${error.message}`,
    error.details,
    { fault: "model" },
  );
}

/**
 * The default surface: `get_tool_output(id, mode, …)` with modes raw, slice, grep, search, page,
 * json and extract, mapping 1:1 to the retrieval engine (search without an id reads the whole
 * session); results fit the budget and say how to go on, never silently cut. One file per mode
 * under get-tool-output/.
 *
 * @example
 * const surface = createGetToolOutputSurface({ synopsisLines: 5 });
 * const answer = await surface.execute("get_tool_output", { id, mode: "grep", pattern: "ERROR" }, context);
 */
export function createGetToolOutputSurface(options: { synopsisLines: number }): Surface {
  const definition: ToolDefinition = {
    name: GET_TOOL_OUTPUT,
    description:
      "Read a stored tool output by its id, exactly. Modes: search (lines best matching some words, any language), " +
      "grep (lines with exact text), slice (lines or characters), page (in order), json (JSONPath), " +
      "extract (a model reads it for you), raw (small outputs only).",
    inputSchema: GET_TOOL_OUTPUT_INPUT_SCHEMA,
  };
  return {
    name: "get_tool_output",
    shownAs: "handle",
    // Listed from the first turn: a tool list that does not change keeps prompt caches whole.
    alwaysListed: true,
    uncountedTools: new Set(),
    tools: () => [definition],
    owns: (toolName) => toolName === GET_TOOL_OUTPUT,
    placeholder: async (record, context) => ({
      text: await defaultHandleMessage(
        record,
        context.outputs,
        context.scope,
        options.synopsisLines,
        {
          ...context.guidance,
          ...(context.taskText ? { taskText: context.taskText } : {}),
          ...(context.liftedArguments ? { liftedArguments: context.liftedArguments } : {}),
        },
      ),
    }),
    execute: async (_toolName, rawArgs, context): Promise<SurfaceAnswer> => {
      const parsed = getToolOutputArgs.safeParse(normalizeGetToolOutputArgs(rawArgs));
      if (!parsed.success)
        return { text: renderError(invalidGetToolOutputArgs(parsed.error)), isError: true };
      try {
        return {
          // Sessions with the compatibility texts keep them word for word.
          text:
            (await answer(parsed.data, context)) +
            (context.compatibilityTexts ? "" : unusedArgumentsNote(parsed.data)),
          isError: false,
          ...(parsed.data.id !== undefined ? { outputId: parsed.data.id } : {}),
        };
      } catch (error) {
        if (isSpillwayError(error, "OUTPUT_NOT_FOUND") && parsed.data.id !== undefined)
          return { text: renderError(unknownId(parsed.data.id, error)), isError: true };
        if (isSpillwayError(error)) return { text: renderError(error), isError: true };
        throw error;
      }
    },
  };
}

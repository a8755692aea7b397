import { z } from "zod";
import { describeValue } from "../core/check-arguments.js";
import { isSpillwayError } from "../core/errors.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import { toolInputSchema } from "../core/tool-input-schema.js";
import { readOutput } from "../retrieval/read-output.js";
import type { Surface, SurfaceContext } from "./surface.js";

/**
 * The continuation surface, word for word: a result over the cap shows its first characters and
 * ends with
 * `[truncated — showing 4000/24591 chars. Call get_continuation with tool_call_id="call_abc123" to read more]`;
 * `get_continuation(tool_call_id, offset)` reads the next characters by offset; these calls do
 * not count toward the turn cap. The canonical history never holds the marker: the projection
 * appends it from the numbers.
 */

export const GET_CONTINUATION = "get_continuation";

/** Its schema, word for word (pinned by tool-schemas.test.ts). */
export const getContinuationArgs = z.object({
  tool_call_id: z.string().describe("The tool_call_id from the truncation message"),
  offset: z.number().int().optional().describe("Character offset to read from (default: 4000)"),
});

const GET_CONTINUATION_SCHEMA = toolInputSchema(getContinuationArgs);

/** The marker: word for word for the first chunk; later chunks also say the offset to pass next. */
export function continuationMarker(
  toolCallId: string,
  shown: number,
  total: number,
  first: boolean,
): string {
  return first
    ? `[truncated — showing ${shown}/${total} chars. Call get_continuation with tool_call_id="${toolCallId}" to read more]`
    : `[truncated — showing ${shown}/${total} chars. Call get_continuation with tool_call_id="${toolCallId}" offset=${shown} to read more]`;
}

export function createGetContinuationSurface(options: { chars: number }): Surface {
  const chars = options.chars;
  const definition: ToolDefinition = {
    name: GET_CONTINUATION,
    description:
      "Retrieve the next chunk of a truncated tool result. Use when a previous tool result shows [truncated].",
    inputSchema: GET_CONTINUATION_SCHEMA,
  };
  const errorJson = (message: string) => JSON.stringify({ error: message });
  return {
    name: "get_continuation",
    shownAs: "continuation",
    uncountedTools: new Set([GET_CONTINUATION]),
    tools: () => [definition],
    owns: (toolName) => toolName === GET_CONTINUATION,
    placeholder: async (record, context) => {
      if (record.kind === "binary") {
        return {
          text: `[binary output of ${record.byteSize} bytes${record.mediaType ? ` (${record.mediaType})` : ""}; not shown]`,
        };
      }
      const total = record.charCount ?? 0;
      const first = await readOutput(context.outputs, record.id, context.scope, {
        mode: "slice",
        start: 0,
        length: Math.min(chars, total),
        maxChars: chars + 2,
      });
      const shown = first.found && "charEnd" in first.provenance ? first.provenance.charEnd : 0;
      return {
        text: first.found ? first.text : "",
        continuation: { toolCallId: context.toolCallId, shown, total },
      };
    },
    execute: async (_toolName, args, context: SurfaceContext) => {
      const input = (typeof args === "object" && args !== null ? args : {}) as Record<
        string,
        unknown
      >;
      const toolCallId = input.tool_call_id;
      if (typeof toolCallId !== "string" || toolCallId === "") {
        return {
          text: errorJson("tool_call_id is required: the id from the truncation message"),
          isError: true,
        };
      }
      const offset = input.offset === undefined ? chars : input.offset;
      if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) {
        return {
          text: errorJson(
            `offset must be a non-negative integer character offset, got ${describeValue(offset)}`,
          ),
          isError: true,
        };
      }
      const outputId = await context.outputOfToolCall(toolCallId);
      if (!outputId)
        return { text: errorJson(`Unknown tool_call_id: ${toolCallId}`), isError: true };
      const length = Math.max(1, Math.min(chars, context.maxChars));
      try {
        const record = await context.outputs.get(outputId, context.scope);
        const total = record.charCount ?? 0;
        if (offset > total) {
          return {
            text: errorJson(`offset ${offset} is past the end of the result (${total} chars)`),
            isError: true,
          };
        }
        const slice = await readOutput(context.outputs, outputId, context.scope, {
          mode: "slice",
          start: offset,
          length,
          maxChars: length + 2,
        });
        const shown =
          slice.found && "charEnd" in slice.provenance ? slice.provenance.charEnd : offset;
        return {
          text: slice.found ? slice.text : "",
          isError: false,
          outputId,
          ...(shown < total ? { continuation: { toolCallId, shown, total } } : {}),
        };
      } catch (error) {
        if (isSpillwayError(error)) return { text: errorJson(error.message), isError: true };
        throw error;
      }
    },
  };
}

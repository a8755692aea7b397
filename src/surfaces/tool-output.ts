import { z } from "zod";
import { isSpillwayError } from "../core/errors.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import { toolInputSchema } from "../core/tool-input-schema.js";
import { truncateToFit } from "../extraction/truncate.js";
import type { OutputRecord } from "../store/output-store.js";
import type { Surface, SurfaceAnswer, SurfaceContext } from "./surface.js";

/**
 * The `tool_output` compatibility surface, word for word: the handle message, the `tool_output`
 * schema and the success / failure result formats. Extraction strategies come from the configured
 * extractor; `truncate` (head and tail with a marker naming the omitted range and the handle) is
 * built in, and is the fallback, with a warning, when a strategy cannot run (D0-4).
 */

export const TOOL_OUTPUT = "tool_output";
const STRATEGIES = ["auto", "full-chunked", "read-grep", "truncate"] as const;
type Strategy = (typeof STRATEGIES)[number];

/** The `tool_output` schema, word for word (pinned by tool-schemas.test.ts). */
export const toolOutputArgs = z
  .object({
    handle: z
      .string()
      .min(1)
      .describe(
        'UUID handle of the stored tool output (provided in the tool-result message: tool_output(handle = "<uuid>", ...)).',
      ),
    extract: z
      .string()
      .min(1)
      .describe(
        "Provide precise, detailed instructions about what you need from the tool output (be specific, include keys/fields/sections if known).",
      ),
    mode: z
      .enum(STRATEGIES)
      .optional()
      .describe(
        "Optional override. auto=module decides; full-chunked=LLM chunk+reduce; read-grep=dynamic sub-agent with Read/Grep; truncate=keeps top and bottom, truncates in the middle.",
      ),
  })
  .strict();

const TOOL_OUTPUT_SCHEMA = toolInputSchema(toolOutputArgs);

/** The compatibility handle message, word for word (numbers and handle filled in). */
export function toolOutputHandleMessage(record: OutputRecord): string {
  return (
    `Tool output is too large (${record.byteSize ?? 0} bytes, ${record.lineCount ?? 0} lines, ${record.tokenEstimate ?? 0} tokens).\n` +
    `Call tool_output(handle = "${record.id}", extract = "what to extract").\n` +
    "Provide precise and detailed instructions in `extract` about what you are looking for."
  );
}

/**
 * An extraction's answer on the `tool_output` surface, word for word.
 *
 * @example
 * toolOutputSuccess("fs__read", "out_1", "auto", "3 errors");
 * // "ABSTRACT FROM TOOL OUTPUT fs__read WITH HANDLE out_1, STRATEGY:auto:\n\n3 errors"
 */
export function toolOutputSuccess(
  toolName: string,
  handle: string,
  strategy: string,
  abstract: string,
): string {
  return `ABSTRACT FROM TOOL OUTPUT ${toolName} WITH HANDLE ${handle}, STRATEGY:${strategy}:\n\n${abstract}`;
}

/**
 * A failed extraction on the `tool_output` surface, word for word.
 *
 * @example
 * toolOutputFailure("fs__read", "out_1", "auto", "no model answered");
 * // "TOOL_OUTPUT FAILED FOR fs__read WITH HANDLE out_1, STRATEGY:auto:\n\nno model answered"
 */
export function toolOutputFailure(
  toolName: string,
  handle: string,
  strategy: string,
  message: string,
): string {
  return `TOOL_OUTPUT FAILED FOR ${toolName} WITH HANDLE ${handle}, STRATEGY:${strategy}:\n\n${message}`;
}

/**
 * The `truncate` strategy for this surface: the output, opened in the caller's scope, cut to fit
 * the answer.
 */
export async function truncateOutput(
  record: OutputRecord,
  context: SurfaceContext,
): Promise<string> {
  const opened = await context.outputs.open(record.id, context.scope);
  try {
    return await truncateToFit(opened, context.maxChars);
  } finally {
    await opened.close();
  }
}

async function answer(
  args: Record<string, unknown>,
  context: SurfaceContext,
): Promise<SurfaceAnswer> {
  const handle = typeof args.handle === "string" ? args.handle : "";
  const extract = typeof args.extract === "string" ? args.extract : "";
  const requested = (typeof args.mode === "string" ? args.mode : "auto") as Strategy;
  if (!STRATEGIES.includes(requested) || handle === "" || extract === "") {
    const problem = !STRATEGIES.includes(requested)
      ? `mode must be one of ${STRATEGIES.join(", ")}`
      : "handle and extract are required non-empty strings";
    return {
      text: toolOutputFailure(
        "unknown",
        handle || "(none)",
        requested,
        `Invalid arguments: ${problem}.`,
      ),
      isError: true,
    };
  }
  let record: OutputRecord;
  try {
    record = await context.outputs.get(handle, context.scope);
  } catch (error) {
    if (!isSpillwayError(error, "OUTPUT_NOT_FOUND")) throw error;
    return {
      text: toolOutputFailure(
        "unknown",
        handle,
        requested,
        `No stored tool output has handle "${handle}". Use the handle from the tool result message.`,
      ),
      isError: true,
    };
  }
  if (requested === "truncate") {
    await context.outputs.countRead(record.id);
    return {
      text: toolOutputSuccess(
        record.toolName,
        handle,
        "truncate",
        await truncateOutput(record, context),
      ),
      isError: false,
      outputId: record.id,
    };
  }
  if (context.extractor) {
    // The engine routes, retries and falls back itself; it answers failed only when it could
    // not answer at all (e.g. maxChunks would be exceeded).
    const result = await context.extractor.extract({
      output: record,
      query: extract,
      strategy: requested,
      ...(context.toolCallId ? { toolCallId: context.toolCallId } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
      maxChars: context.maxChars,
    });
    await context.outputs.countRead(record.id);
    const format = result.failed ? toolOutputFailure : toolOutputSuccess;
    return {
      text: format(record.toolName, handle, result.strategy, result.text),
      isError: result.failed,
      outputId: record.id,
    };
  }
  const failure = "extraction is not configured in this session (no extraction model)";
  // D0-4: a strategy that could not run falls back to truncate, with a warning first.
  await context.outputs.countRead(record.id);
  const warning = `WARNING: strategy ${requested} could not run (${failure}); falling back to truncate, which keeps only the top and bottom of the output.\n\n`;
  return {
    text: toolOutputSuccess(
      record.toolName,
      handle,
      "truncate",
      warning + (await truncateOutput(record, context)),
    ),
    isError: false,
    outputId: record.id,
  };
}

export function createToolOutputSurface(): Surface {
  const definition: ToolDefinition = {
    name: TOOL_OUTPUT,
    description:
      "Extract information from a tool output that was too large to show, by its handle. Provide precise instructions in `extract`.",
    inputSchema: TOOL_OUTPUT_SCHEMA,
  };
  return {
    name: "tool_output",
    shownAs: "handle",
    uncountedTools: new Set(),
    tools: () => [definition],
    owns: (toolName) => toolName === TOOL_OUTPUT,
    placeholder: async (record) => ({ text: toolOutputHandleMessage(record) }),
    execute: async (_toolName, args, context) =>
      answer(
        typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {},
        context,
      ),
  };
}

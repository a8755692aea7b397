import { isSpillwayError } from "../core/errors.js";
import type { ToolDefinition } from "../providers/model-caller.js";
import { readSlice } from "../retrieval/slice.js";
import type { OutputRecord } from "../store/output-store.js";
import type { Surface, SurfaceAnswer, SurfaceContext } from "./surface.js";

/**
 * Seed 000's surface, exact: the handle message (2a), the `tool_output` schema (2b) and the
 * success / failure result formats. Extraction strategies come from the configured extractor;
 * `truncate` (head and tail with a marker naming the omitted range and the handle) is built
 * in, and is the fallback, with a warning, when a strategy cannot run (decision 4).
 */

export const TOOL_OUTPUT = "tool_output";
const STRATEGIES = ["auto", "full-chunked", "read-grep", "truncate"] as const;
type Strategy = (typeof STRATEGIES)[number];

/** Seed 000, 2b, verbatim. */
const TOOL_OUTPUT_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["handle", "extract"],
  properties: {
    handle: {
      type: "string",
      minLength: 1,
      description:
        'UUID handle of the stored tool output (provided in the tool-result message: tool_output(handle = "<uuid>", ...)).',
    },
    extract: {
      type: "string",
      minLength: 1,
      description:
        "Provide precise, detailed instructions about what you need from the tool output (be specific, include keys/fields/sections if known).",
    },
    mode: {
      type: "string",
      enum: ["auto", "full-chunked", "read-grep", "truncate"],
      description:
        "Optional override. auto=module decides; full-chunked=LLM chunk+reduce; read-grep=dynamic sub-agent with Read/Grep; truncate=keeps top and bottom, truncates in the middle.",
    },
  },
};

/** Seed 000, 2a, verbatim (numbers and handle filled in). */
export function toolOutputHandleMessage(record: OutputRecord): string {
  return (
    `Tool output is too large (${record.byteSize ?? 0} bytes, ${record.lineCount ?? 0} lines, ${record.tokenEstimate ?? 0} tokens).\n` +
    `Call tool_output(handle = "${record.id}", extract = "what to extract").\n` +
    "Provide precise and detailed instructions in `extract` about what you are looking for."
  );
}

export function toolOutputSuccess(
  toolName: string,
  handle: string,
  strategy: string,
  abstract: string,
): string {
  return `ABSTRACT FROM TOOL OUTPUT ${toolName} WITH HANDLE ${handle}, STRATEGY:${strategy}:\n\n${abstract}`;
}

export function toolOutputFailure(
  toolName: string,
  handle: string,
  strategy: string,
  message: string,
): string {
  return `TOOL_OUTPUT FAILED FOR ${toolName} WITH HANDLE ${handle}, STRATEGY:${strategy}:\n\n${message}`;
}

/**
 * Head and tail of an output within `maxChars`, with an explicit marker in the middle naming
 * how much was omitted and the handle that holds it.
 */
export async function truncateOutput(
  record: OutputRecord,
  context: SurfaceContext,
): Promise<string> {
  const total = record.charCount ?? 0;
  const opened = await context.outputs.open(record.id, context.scope);
  try {
    const budget = Math.max(200, context.maxChars - 300);
    if (total <= budget) {
      const whole = await readSlice(opened, {
        start: 0,
        length: total,
        maxChars: Math.max(1, total),
      });
      return whole.found ? whole.text : "";
    }
    const half = Math.floor(budget / 2);
    const head = await readSlice(opened, { start: 0, length: half, maxChars: half + 2 });
    const tail = await readSlice(opened, { start: total - half, length: half, maxChars: half + 2 });
    if (
      !head.found ||
      !tail.found ||
      !("charEnd" in head.provenance) ||
      !("charStart" in tail.provenance)
    )
      return "";
    const omittedFrom = head.provenance.charEnd;
    const omittedTo = tail.provenance.charStart;
    const marker =
      `\n[… ${(omittedTo - omittedFrom).toLocaleString("en-US")} characters omitted (chars ${omittedFrom}-${omittedTo} of ${total}); ` +
      `the whole output is stored as handle ${record.id} …]\n`;
    return `${head.text}${marker}${tail.text}`;
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
  let failure: string;
  if (context.extractor) {
    try {
      const result = await context.extractor.extract({
        output: record,
        query: extract,
        strategy: requested,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      await context.outputs.countRead(record.id);
      return {
        text: toolOutputSuccess(record.toolName, handle, result.strategy, result.text),
        isError: false,
        outputId: record.id,
      };
    } catch (error) {
      if (!isSpillwayError(error)) throw error;
      failure = error.message;
    }
  } else {
    failure = "extraction is not configured in this session (no extraction model)";
  }
  // Decision 4: a strategy that could not run falls back to truncate, with a warning first.
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

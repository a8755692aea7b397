import { SpillwayError } from "../../core/errors.js";
import type { OutputRecord } from "../../store/output-store.js";
import type { SurfaceContext } from "../surface.js";
import { missingArgument, type ReadArgs } from "./schema.js";

/** mode="extract": the session's extractor reads the output for the model. */
export async function extractMode(
  args: ReadArgs,
  record: OutputRecord,
  context: SurfaceContext,
): Promise<string> {
  // The call's shape alone, no example value: an example value is what a model copies (SW-27).
  if (!args.query)
    throw missingArgument(
      `Query required for extract mode.${context.compatibilityTexts ? "" : ` Say what to find, in your task's words: get_tool_output(id="${record.id}", mode="extract", query).`}`,
    );
  if (!context.extractor) {
    throw new SpillwayError(
      "INVALID_ARGUMENT",
      'Extraction is not configured in this session. Read the output yourself with mode="grep", "slice", "page" or "json".',
      { outputId: record.id },
      { fault: "user" },
    );
  }
  const extracted = await context.extractor.extract({
    output: record,
    query: args.query,
    strategy: args.strategy ?? "auto",
    ...(context.toolCallId ? { toolCallId: context.toolCallId } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
    maxChars: context.maxChars,
  });
  if (extracted.failed) {
    throw new SpillwayError(
      "EXTRACTION_FAILED",
      extracted.text,
      { outputId: record.id },
      { fault: "tool" },
    );
  }
  // Only successful retrievals count as reads (D3-21 in docs/architecture.md).
  await context.outputs.countRead(record.id);
  return extracted.text;
}

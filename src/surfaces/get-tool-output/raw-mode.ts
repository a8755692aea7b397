import { SpillwayError } from "../../core/errors.js";
import type { OutputRecord } from "../../store/output-store.js";
import { readCallLines } from "../handle-message.js";
import { renderRaw } from "../render.js";
import type { SurfaceContext } from "../surface.js";
import { readerFor } from "./read.js";

/**
 * mode="raw": the whole output, when it fits. Over the async raw limit or the
 * budget, a typed error says the size and the modes that work instead.
 */
export async function rawMode(record: OutputRecord, context: SurfaceContext): Promise<string> {
  const { maxChars } = context;
  const id = record.id;
  const otherModes = `mode="grep", "slice", "page"${record.kind === "json" || record.kind === "ndjson" ? ', "json"' : ""}`;
  const threshold = context.asyncTokenThreshold;
  if (threshold !== undefined && (record.tokenEstimate ?? 0) > threshold) {
    const tokens = (record.tokenEstimate ?? 0).toLocaleString("en-US");
    throw new SpillwayError(
      "OUTPUT_TOO_LARGE",
      context.compatibilityTexts
        ? `Response too large (${record.byteSize ?? 0} bytes). Use extract mode. ` +
            `Also exact: ${otherModes} (~${tokens} tokens is over the ${threshold.toLocaleString("en-US")}-token raw limit).`
        : // A small model followed "Use extract mode" and sent no query; the exact calls come first.
          [
            `Too large to return whole: ${(record.byteSize ?? 0).toLocaleString("en-US")} bytes, ~${tokens} tokens (raw reads stop at ${threshold.toLocaleString("en-US")} tokens). Read it in parts:`,
            ...readCallLines(
              id,
              record.kind === "json" || record.kind === "ndjson" ? { jsonQuery: "$" } : {},
            ),
            `or have it read for you: get_tool_output(id="${id}", mode="extract", query) with what to find as the query.`,
          ].join("\n"),
      { outputId: id, limit: threshold },
      { fault: "model" },
    );
  }
  if ((record.charCount ?? 0) > maxChars || record.kind === "binary") {
    throw new SpillwayError(
      "OUTPUT_TOO_LARGE",
      `Response too large for raw mode (${(record.byteSize ?? 0).toLocaleString("en-US")} bytes, ` +
        `~${(record.tokenEstimate ?? 0).toLocaleString("en-US")} tokens; at most ${maxChars.toLocaleString("en-US")} characters fit now). ` +
        `Use ${otherModes} or "extract".`,
      { outputId: id, limit: maxChars },
      { fault: "model" },
    );
  }
  return renderRaw(await readerFor(id, context)({ mode: "raw", maxChars }));
}

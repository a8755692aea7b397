import { SpillwayError } from "../../core/errors.js";
import type { OutputRecord } from "../../store/output-store.js";
import { renderRaw } from "../render.js";
import type { SurfaceContext } from "../surface.js";
import { readerFor } from "./read.js";

/**
 * mode="raw": the whole output, when it fits. Over the async raw limit (seed 003) or the
 * budget, a typed error says the size and the modes that work instead.
 */
export async function rawMode(record: OutputRecord, context: SurfaceContext): Promise<string> {
  const { maxChars } = context;
  const id = record.id;
  const otherModes = `mode="grep", "slice", "page"${record.kind === "json" || record.kind === "ndjson" ? ', "json"' : ""}`;
  const threshold = context.asyncTokenThreshold;
  if (threshold !== undefined && (record.tokenEstimate ?? 0) > threshold) {
    throw new SpillwayError(
      "OUTPUT_TOO_LARGE",
      `Response too large (${record.byteSize ?? 0} bytes). Use extract mode. ` +
        `Also exact: ${otherModes} (~${(record.tokenEstimate ?? 0).toLocaleString("en-US")} tokens is over the ${threshold.toLocaleString("en-US")}-token raw limit).`,
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

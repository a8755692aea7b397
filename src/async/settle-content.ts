import { isSpillwayError } from "../core/errors.js";
import type { OutputOrigin, OutputRecord, OutputStore } from "../store/output-store.js";
import { storeToolResult, type ToolResultContent } from "../store/store-result.js";
import type { Settlement } from "./background.js";

/** Error texts longer than this are stored as the output's content, not its error field. */
export const MAX_ERROR_CHARS = 100_000;

/**
 * The text of a failure, with a typed error's code.
 *
 * @example
 * failureText(new Error("disk full")); // "disk full"
 */
export function failureText(reason: unknown): string {
  if (isSpillwayError(reason)) return `${reason.code}: ${reason.message}`;
  return (reason as Error)?.message ?? String(reason);
}

/**
 * Stores a background call's content in its record (begun when it went async): content makes
 * it ready; a tool error makes it failed with the error's text, or, for a huge error text,
 * stores that text whole as the output and still reports the failure.
 *
 * @example
 * const settlement = await settleContent(store, origin, running, { text: "done", isError: false });
 * settlement.status; // "ready"
 */
export async function settleContent(
  outputs: OutputStore,
  origin: OutputOrigin,
  record: OutputRecord,
  content: ToolResultContent & { readonly isError: boolean },
): Promise<Settlement> {
  const errorText = content.text ?? "";
  if (content.isError && errorText.length <= MAX_ERROR_CHARS && !content.binary?.length) {
    const error = errorText || "the tool reported an error without text";
    await outputs.fail(record.id, error);
    return { status: "failed", error };
  }
  const stored = await storeToolResult(outputs, origin, content, record);
  if (content.isError) {
    // A huge error text stays whole as the output; the job still reports the failure.
    return {
      status: "failed",
      error: `the tool reported an error; its ${stored.storedBytes}-byte error output is stored at ${record.id}`,
    };
  }
  return {
    status: "ready",
    tokens: stored.record.tokenEstimate ?? 0,
    bytes: stored.storedBytes,
    attachments: stored.attachments.map((a) => a.id),
  };
}

import { isSpillwayError, type SpillwayError } from "../core/errors.js";
import type { ShownAs, ToolCallStatus, ToolResultRef } from "../store/history.js";
import { interceptContent } from "./intercept.js";
import type { SessionContext } from "./session-context.js";
import type { ToolCallInput, ToolOutcome } from "./tool-types.js";

/** One finished call: its canonical result and what the loop needs to know. */
export interface CallResult {
  readonly ref: ToolResultRef;
  readonly status: Exclude<ToolCallStatus, "running">;
  readonly outputId?: string;
  readonly error?: string;
  readonly finalReport?: string;
  /** Why a final report was not delivered (the session ends without an answer). */
  readonly reportRefused?: string;
  readonly storedBytes: number;
  /** For content stored whole: its SHA-256, which tells two calls' results apart by content. */
  readonly contentSha256?: string;
  readonly shown?: ShownAs;
  /** For surface reads: the output read. */
  readonly readOutputId?: string;
  /** The call went on in the background (async tools): its output settles later. */
  readonly async?: true;
}

export function errorResult(code: SpillwayError["code"], message: string): CallResult {
  return { ref: { kind: "error", code, message }, status: "error", error: message, storedBytes: 0 };
}

/** Turns a tool's outcome into its canonical result (storing raw content first). */
export async function settleOutcome(
  context: SessionContext,
  call: ToolCallInput,
  outcome: ToolOutcome,
): Promise<CallResult> {
  switch (outcome.type) {
    case "content": {
      let intercepted: Awaited<ReturnType<typeof interceptContent>>;
      try {
        intercepted = await interceptContent(context, call, outcome);
      } catch (error) {
        // The store refused the result (over maxOutputBytes or the session's quota): the
        // model is told, and the session goes on.
        if (!isSpillwayError(error, "OUTPUT_TOO_LARGE", "SESSION_QUOTA_EXCEEDED")) throw error;
        return errorResult(
          error.code,
          `The result of tool ${call.toolName} could not be stored: ${error.message}`,
        );
      }
      const { ref, record, storedBytes } = intercepted;
      return {
        ref,
        status: outcome.isError ? "error" : "ok",
        outputId: record.id,
        storedBytes,
        ...(record.sha256 ? { contentSha256: record.sha256 } : {}),
        ...(ref.kind === "output" ? { shown: ref.shown } : {}),
        ...(outcome.isError ? { error: "the tool reported an error" } : {}),
      };
    }
    case "retrieval":
      return {
        ref: {
          kind: "retrieval",
          text: outcome.text,
          ...(outcome.continuation ? { continuation: outcome.continuation } : {}),
          ...(outcome.outputId ? { outputId: outcome.outputId } : {}),
          ...(outcome.isError ? { isError: true } : {}),
        },
        status: outcome.isError ? "error" : "ok",
        storedBytes: 0,
        ...(outcome.outputId ? { readOutputId: outcome.outputId } : {}),
      };
    case "note":
      return { ref: { kind: "note", text: outcome.text }, status: "ok", storedBytes: 0 };
    case "final":
      return {
        ref: { kind: "note", text: "Final report received." },
        status: "ok",
        finalReport: outcome.report,
        storedBytes: 0,
      };
    case "report-refused":
      return {
        ref: { kind: "note", text: `Final report not delivered: ${outcome.reason}` },
        status: "error",
        error: outcome.reason,
        reportRefused: outcome.reason,
        storedBytes: 0,
      };
    case "batch":
      return { ref: { kind: "batch", items: outcome.items }, status: "ok", storedBytes: 0 };
    case "error":
      return errorResult(outcome.code, outcome.message);
  }
}

/** The result of a tool that threw: typed errors keep their code, aborts say so. */
export function thrownResult(error: unknown, toolName: string, aborted: boolean): CallResult {
  if (aborted) return errorResult("ABORTED", `Tool ${toolName} was aborted with the session.`);
  if (isSpillwayError(error)) return errorResult(error.code, error.message);
  // A tool (or its adapter) threw something untyped: the model gets the message, the run goes on.
  return errorResult(
    "TOOL_FAILED",
    `Tool ${toolName} failed: ${(error as Error)?.message ?? String(error)}`,
  );
}

/** True when a result only says "running in the background" (no new information, D3-22). */
export function isAsyncRef(ref: ToolResultRef): boolean {
  if (ref.kind === "async") return true;
  return (
    ref.kind === "batch" && ref.items.length > 0 && ref.items.every((item) => isAsyncRef(item.ref))
  );
}

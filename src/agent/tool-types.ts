import type { ErrorCode } from "../core/errors.js";
import type { TextStream } from "../core/text-stream.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import type { ToolResultRef } from "../store/history.js";

/** A tool call about to run: its id, name and arguments (parsed, and verbatim). */
export interface ToolCallInput {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly argsText: string;
  readonly args: unknown;
}

/**
 * What a tool produced, before the interception point decides how it is stored and shown.
 * Raw results (`content`) are stored whole as outputs; surface reads (`retrieval`) and
 * internal acknowledgements (`note`) are not outputs and never create handles.
 */
export type ToolOutcome =
  | {
      readonly type: "content";
      /** The result's text (its error text when `isError`). */
      /** A text too large to hold arrives as a stream, read once when it is stored. */
      readonly text?: string | TextStream;
      /** Binary content (MCP images and blobs), each stored as its own output. */
      readonly binary?: readonly { readonly data: Uint8Array; readonly mediaType: string }[];
      readonly isError: boolean;
      /**
       * The call asked for part of a read-only tool's result and was run whole (whole-read.ts):
       * the limiting arguments not applied, and the arguments the stored result was read with.
       */
      readonly lifted?: { readonly arguments: readonly string[]; readonly argsText: string };
    }
  | {
      readonly type: "retrieval";
      readonly text: string;
      readonly isError: boolean;
      readonly continuation?: {
        readonly toolCallId: string;
        readonly shown: number;
        readonly total: number;
      };
      readonly outputId?: string;
    }
  | { readonly type: "note"; readonly text: string }
  | { readonly type: "final"; readonly report: string }
  /** A final report not delivered: the session ends without an answer, for this reason. */
  | { readonly type: "report-refused"; readonly reason: string }
  | { readonly type: "batch"; readonly items: readonly BatchItem[] }
  | { readonly type: "error"; readonly code: ErrorCode; readonly message: string };

export interface BatchItem {
  readonly toolName: string;
  readonly argsText: string;
  readonly ref: ToolResultRef;
}

/** Where a tool comes from; decides how its results are treated. */
export type ToolKind = "mcp" | "internal" | "surface" | "subagent";

/** A tool the session can run. */
export interface ToolHandler {
  readonly definition: ToolDefinition;
  readonly kind: ToolKind;
  run(call: ToolCallInput, signal: AbortSignal): Promise<ToolOutcome>;
  /** Why these arguments are refused before the tool runs (an error for the model), if they are. */
  rejectArguments?(args: unknown): string | undefined;
}

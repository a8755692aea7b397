import type { TokenizerName } from "../core/tokens.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import type { Extractor } from "../extraction/extractor.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import type { HandleGuidance } from "./handle-message.js";

/** The model-facing tool sets over stored outputs. */
export const SURFACE_NAMES = ["get_tool_output", "tool_output", "get_continuation"] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];

/** What a surface needs to answer one call. */
export interface SurfaceContext {
  readonly outputs: OutputStore;
  readonly scope: ReadScope;
  /** Characters the result may take: derived from the context budget and the byte cap. */
  readonly maxChars: number;
  readonly tokenizer: TokenizerName;
  /** Resolves a tool call id of this session to the output that holds its result. */
  readonly outputOfToolCall: (toolCallId: string) => Promise<string | undefined>;
  readonly extractor?: Extractor;
  readonly signal?: AbortSignal;
  /** The tool call being answered. */
  readonly toolCallId?: string;
  /**
   * Async tools are on: raw reads of outputs over this many tokens are refused with
   * the size and the modes that work, and running outputs answer "Tool not ready".
   */
  readonly asyncTokenThreshold?: number;
  /** The compatibility texts (asyncReadyMessage: ready-menu) instead of spillway's. */
  readonly compatibilityTexts?: boolean;
  /** The session's task (its first prompt): the handle message searches the output for it (SW-27). */
  readonly taskText?: string;
}

/** A surface call's answer: text for the model, kept in the canonical history as is. */
export interface SurfaceAnswer {
  readonly text: string;
  /** For get_continuation: the projection appends the continuation marker from these numbers. */
  readonly continuation?: {
    readonly toolCallId: string;
    readonly shown: number;
    readonly total: number;
  };
  /** True when the call failed (unknown id, bad arguments); the text says why. */
  readonly isError: boolean;
  /** The output read, when there was one (its read counter is bumped by the caller). */
  readonly outputId?: string;
}

/** What the model sees in place of an output too large to show whole. */
export interface Placeholder {
  readonly text: string;
  readonly continuation?: {
    readonly toolCallId: string;
    readonly shown: number;
    readonly total: number;
  };
}

export interface Surface {
  /** A configurable surface, or `read-grep` (the extraction sub-agent's Read/Grep tools). */
  readonly name: SurfaceName | "read-grep";
  /** Listed from the first turn, not only once an output is shown by handle. */
  readonly alwaysListed?: boolean;
  /** How outputs too large to show are shown. */
  readonly shownAs: "handle" | "continuation";
  /** The surface's tools (word-for-word schemas for the compatibility surfaces). */
  tools(): ToolDefinition[];
  /** True for tool names this surface answers. */
  owns(toolName: string): boolean;
  /** Tools whose calls do not count toward the turn cap (get_continuation). */
  readonly uncountedTools: ReadonlySet<string>;
  placeholder(
    record: OutputRecord,
    context: {
      readonly toolCallId: string;
      readonly outputs: OutputStore;
      readonly scope: ReadScope;
      /** The session's task (its first prompt): the handle message's examples may use its terms. */
      readonly taskText?: string;
      /** The limiting arguments of the call that were not applied: it was run whole. */
      readonly liftedArguments?: readonly string[];
      /** What the guidance switches change in the handle message. */
      readonly guidance?: HandleGuidance;
    },
  ): Promise<Placeholder>;
  execute(toolName: string, args: unknown, context: SurfaceContext): Promise<SurfaceAnswer>;
}

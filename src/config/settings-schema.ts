/**
 * The settings an agent file's frontmatter, the config file's `defaults` and the CLI share.
 */
import { z } from "zod";
import { CHUNK_SIZE_RULES } from "../core/chunk-size-rule.js";
import { guidanceSchema } from "./guidance.js";
import { checkModelRef, type ModelRef } from "./model-ref.js";
import {
  addIssue,
  boolean,
  either,
  int,
  isPlainObject,
  number,
  oneOf,
  strictObject,
} from "./schema-helpers.js";

/** The model-facing tool sets over stored outputs. */
export const TOOL_OUTPUT_SURFACES = ["get_tool_output", "tool_output", "get_continuation"] as const;

export type ToolOutputSurface = (typeof TOOL_OUTPUT_SURFACES)[number];

/**
 * What the model is shown for an output over asyncTokenThreshold (the size trigger): the handle
 * message (size, kind, synopsis, the calls that read it; the default, SW-23), or the compatibility
 * ready text, exact (`Tool Output ID … Use get_tool_output(…)` with extract and slice).
 */
export const ASYNC_READY_MESSAGES = ["handle", "ready-menu"] as const;

export type AsyncReadyMessage = (typeof ASYNC_READY_MESSAGES)[number];

/**
 * What a reply of plain text (no tool call) means before the final turn: the answer
 * (`final`), or, with `confirm`, a question back: "call agent__final_report if that is your
 * answer" (a second text reply in a row is taken as the answer).
 */
export const TEXT_REPLIES = ["final", "confirm", "none"] as const;
export type TextReplies = (typeof TEXT_REPLIES)[number];

const MODEL_REF_ALLOWED = 'a model ref "provider/model", e.g. "openai/gpt-4.1"';

function checkRef(ref: string, ctx: Parameters<typeof addIssue>[0]): ModelRef | undefined {
  const checked = checkModelRef(ref);
  if (checked.ok) return checked.value;
  if (checked.kind === "unknown_provider") {
    addIssue(ctx, checked.message, {
      sentence: true,
      kind: "unknown_provider",
      provider: checked.provider,
    });
  } else {
    addIssue(ctx, checked.message.replace(/^expected /, ""));
  }
  return undefined;
}

/** A model ref string, checked (use as a record key). */
export const modelRefKeySchema = z.string({ error: MODEL_REF_ALLOWED }).superRefine((ref, ctx) => {
  checkRef(ref, ctx);
});

/** A model ref, parsed into a {@link ModelRef}. */
export const modelRefSchema = z
  .string({ error: MODEL_REF_ALLOWED })
  .transform((ref, ctx): ModelRef => checkRef(ref, ctx) ?? z.NEVER);

/** One model ref or an ordered list of them (the first that works is used). */
export const modelListSchema = z.preprocess(
  (value) => (typeof value === "string" ? [value] : value),
  z
    .array(modelRefSchema, { error: "a model ref or a list of model refs" })
    .min(1, { error: "a model ref or a non-empty list of model refs" }),
);

/** Context window: one integer for every model of the agent, or a map model ref → integer. */
export const contextWindowSchema = either(
  (value) => (typeof value === "number" ? "a" : isPlainObject(value) ? "b" : undefined),
  int(1),
  z.record(modelRefKeySchema, int(1)),
  "an integer (tokens, for every model of the agent) or a mapping of model ref to integer",
);

/** How outputs too large to show are surfaced to the model. */
export const toolOutputSchema = strictObject({
  enabled: boolean().optional(),
  surface: oneOf(TOOL_OUTPUT_SURFACES).optional(),
  continuationChars: int(100).optional(),
  synopsisLines: int(0, 50).optional(),
});

/** Model-driven reads of outputs (extraction). */
export const extractionSchema = strictObject({
  models: modelListSchema.optional(),
  maxChunks: int(1).optional(),
  chunkOverlapPercent: number(0, { max: 90 }).optional(),
  concurrency: int(1, 64).optional(),
  fullModeMaxChunks: int(1).optional(),
  longLineBytes: int(1).optional(),
  chunkSize: oneOf(CHUNK_SIZE_RULES).optional(),
  readGrepMaxTurns: int(1, 100).optional(),
  readGrepMaxToolCallsPerTurn: int(1, 20).optional(),
});

/** Which model writes compaction summaries: the one serving the session, or the extraction model. */
export const COMPACTION_MODELS = ["serving", "extraction"] as const;
export type CompactionModel = (typeof COMPACTION_MODELS)[number];

/** A fraction of the context window: more than 0, at most 1. */
const fraction = () => number(0, { exclusive: true, max: 1 });

/**
 * Compaction: thresholds as fractions of the window the input may use (the context
 * window less the reply's reserve), the summarizer model, the summary's size.
 */
export const compactionSchema = strictObject({
  enabled: boolean().optional(),
  warn: fraction().optional(),
  compact: fraction().optional(),
  hard: fraction().optional(),
  model: oneOf(COMPACTION_MODELS).optional(),
  summaryMaxTokens: int(64).optional(),
});

/** The settings shared by frontmatter, config `defaults` and the CLI (all optional). */
export const settingsShape = {
  models: modelListSchema.optional(),
  maxTurns: int(1, 1000).optional(),
  toolResponseMaxBytes: int(256).optional(),
  toolConcurrency: int(1, 64).optional(),
  toolTimeoutSecs: number(0, { exclusive: true }).optional(),
  toolOutput: toolOutputSchema.optional(),
  contextWindow: contextWindowSchema.optional(),
  maxOutputTokens: int(1).optional(),
  stream: boolean().optional(),
  extraction: extractionSchema.optional(),
  async: boolean().optional(),
  asyncTimeoutSecs: number(0).optional(),
  asyncTokenThreshold: int(0).optional(),
  asyncMaxRunning: int(1, 64).optional(),
  compaction: compactionSchema.optional(),
  asyncReadyMessage: oneOf(ASYNC_READY_MESSAGES).optional(),
  helperTools: boolean().optional(),
  textReplies: oneOf(TEXT_REPLIES).optional(),
  guidance: guidanceSchema.optional(),
};

/** The config file's `defaults`. */
export const settingsSchema = strictObject(settingsShape);

/** Validated settings of one level (frontmatter, config defaults or CLI). */
export type SettingsValues = z.output<typeof settingsSchema>;

export type ToolOutputValues = z.output<typeof toolOutputSchema>;

export type ExtractionValues = z.output<typeof extractionSchema>;

export type CompactionValues = z.output<typeof compactionSchema>;

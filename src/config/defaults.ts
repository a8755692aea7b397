/**
 * Built-in defaults: what a setting is when no CLI flag, frontmatter, config file or
 * environment variable says otherwise.
 */
import type { TokenizerName } from "../core/tokens.js";
import type { ModelRef } from "./model-ref.js";
import type {
  AsyncReadyMessage,
  CompactionModel,
  TextReplies,
  ToolOutputSurface,
} from "./settings-schema.js";

/** The model when nothing names one (and `SPILLWAY_MODEL` is unset). */
export const DEFAULT_MODEL = "ollama/qwen2.5:7b";

/** The local model used when nothing names a model and no Ollama server answers. */
export const DEFAULT_LOCAL_MODEL_REF = "local/qwen2.5-coder-1.5b-instruct-q4_k_m";

/**
 * Tokens of context given to a local model nobody configured (capped at what the model was
 * trained for): memory stays modest and prompt evaluation on a CPU stays bearable.
 */
export const LOCAL_CONTEXT_WINDOW = 16_384;

/** Reply tokens reserved for a local model when no level sets `maxOutputTokens`. */
export const LOCAL_MAX_OUTPUT_TOKENS = 1_024;

/** Ollama's OpenAI-compatible endpoint on this machine. */
export const DEFAULT_OLLAMA_BASE_URL = "http://localhost:11434/v1";

/** Built-in values of the settings that have one. */
export const DEFAULT_SETTINGS: {
  readonly maxTurns: number;
  readonly toolResponseMaxBytes: number;
  readonly toolConcurrency: number;
  readonly toolTimeoutSecs: number;
  readonly toolOutput: {
    readonly enabled: boolean;
    readonly surface: ToolOutputSurface;
    readonly continuationChars: number;
    readonly synopsisLines: number;
  };
  readonly maxOutputTokens: number;
  readonly stream: boolean;
  readonly async: boolean;
  readonly asyncTimeoutSecs: number;
  readonly asyncTokenThreshold: number;
  readonly asyncMaxRunning: number;
  readonly compaction: {
    readonly enabled: boolean;
    readonly warn: number;
    readonly compact: number;
    readonly hard: number;
    readonly model: CompactionModel;
    readonly summaryMaxTokens: number;
  };
  readonly asyncReadyMessage: AsyncReadyMessage;
  /**
   * agent__task_status and agent__batch are listed; undefined: no (SW-31 in
   * docs/architecture.md: neither reads a tool result, and each definition costs every request).
   */
  readonly helperTools: boolean | undefined;
  /** `final`, `confirm` or `none` (undefined: `none` when every model is `local/`, else `final`). */
  readonly textReplies: TextReplies | undefined;
} = {
  maxTurns: 20,
  toolResponseMaxBytes: 12_288,
  toolConcurrency: 4,
  toolTimeoutSecs: 300,
  toolOutput: {
    enabled: true,
    surface: "get_tool_output",
    continuationChars: 4_000,
    synopsisLines: 5,
  },
  maxOutputTokens: 4_096,
  stream: false,
  async: true,
  asyncTimeoutSecs: 5,
  asyncTokenThreshold: 10_000,
  asyncMaxRunning: 4,
  compaction: {
    enabled: true,
    warn: 0.75,
    compact: 0.9,
    hard: 0.95,
    model: "serving",
    summaryMaxTokens: 2_048,
  },
  asyncReadyMessage: "handle",
  helperTools: undefined,
  textReplies: undefined,
};

/**
 * The context window assumed for a model nobody configured: OpenAI `gpt-4.1*` 1,047,576,
 * `gpt-4o*` 128,000, Anthropic `claude-*` 200,000, Ollama 32,768, local 16,384 (capped at the
 * model's training context when it runs), anything else 128,000.
 *
 * @example
 * builtinContextWindow(parseModelRef("anthropic/claude-sonnet-4-5")); // 200000
 */
export function builtinContextWindow(ref: ModelRef): number {
  if (ref.provider === "openai") {
    if (ref.model.startsWith("gpt-4.1")) return 1_047_576;
    if (ref.model.startsWith("gpt-4o")) return 128_000;
  }
  if (ref.provider === "anthropic" && ref.model.startsWith("claude-")) return 200_000;
  if (ref.provider === "ollama") return 32_768;
  if (ref.provider === "local") return LOCAL_CONTEXT_WINDOW;
  return 128_000;
}

/**
 * The tokenizer assumed for a model nobody configured: `cl100k_base` for OpenAI's GPT-4 and
 * GPT-3.5 (not `gpt-4o`/`gpt-4.1`), else `o200k_base`.
 *
 * @example
 * defaultTokenizer(parseModelRef("openai/gpt-4-turbo")); // "cl100k_base"
 */
export function defaultTokenizer(ref: ModelRef): TokenizerName {
  return ref.provider === "openai" && /^gpt-(3\.5|4)(-|$)/.test(ref.model)
    ? "cl100k_base"
    : "o200k_base";
}

import type { LanguageModel, ModelMessage } from "ai";
import { z } from "zod";
import type { Clock } from "../core/clock.js";
import { SpillwayError } from "../core/errors.js";
import type { TokenizerName } from "../core/tokens.js";
import type { OutputRecord, OutputStore } from "../store/output-store.js";

/** What a {@link TokenBudget} function is told about the call whose result is being shown. */
export interface TokenBudgetInfo {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The messages the model was sent in this step (empty when the loop did not say). */
  readonly messages: readonly ModelMessage[];
}

/** The tokens still free for tool results now (spillway subtracts results shown since in the step). */
export type TokenBudget = (info: TokenBudgetInfo) => number | Promise<number>;

/** What a custom handle-message formatter gets. */
export interface HandleMessageInfo {
  /** The stored output: id (the handle), tool, sizes, kind, SHA-256. */
  readonly record: OutputRecord;
  /** spillway's own handle message: size, synopsis and the exact get_tool_output calls. */
  readonly defaultText: string;
  /** Ids of binary parts of the same result, each stored as an output of its own. */
  readonly attachments: readonly string[];
}

/** Replaces the handle message the model sees for an output too large to show. */
export type HandleMessageFormatter = (info: HandleMessageInfo) => string | Promise<string>;

/** Model-driven reads (`get_tool_output` mode "extract"). */
export interface SpillwayExtractionOptions {
  /** Any AI SDK language model (a provider model, or a gateway id string). */
  readonly model: LanguageModel;
  /** Its context window in tokens (sizes the chunks; default 32,768). */
  readonly contextWindow?: number;
  /** Tokens it may answer with (default 4,096). */
  readonly maxOutputTokens?: number;
  /** Most chunks one map-reduce reads (default 20). */
  readonly maxChunks?: number;
  /** Chunk calls at once (default 4). */
  readonly concurrency?: number;
}

/** Async tools: the time trigger and the size trigger. */
export interface SpillwayAsyncOptions {
  /** A tool still running after this many seconds goes on in the background (default 5). */
  readonly timeoutSecs?: number;
  /** A result over this many tokens is announced ready instead of shown (default 10,000). */
  readonly tokenThreshold?: number;
  /** Background tools at once; a call beyond it waits as without async (default 4). */
  readonly maxRunning?: number;
  /** Longest `wait_for_tool_output` blocks, in seconds (default 300). */
  readonly waitTimeoutSecs?: number;
}

/** Options of {@link spillwayTools}. Every field is optional. */
export interface SpillwayOptions {
  /**
   * Groups the outputs of one conversation. Pass your chat or thread id so that later
   * requests can read earlier results; default: a new id for each spillwayTools call.
   */
  readonly sessionId?: string;
  /** Any OutputStore, or the directory of the SQLite store. Default: SQLite in $SPILLWAY_HOME or ~/.spillway. */
  readonly store?: OutputStore | { readonly home: string };
  /** Results over this many bytes are shown by handle (default 12,288). */
  readonly toolResponseMaxBytes?: number;
  /**
   * The context budget. A number: the tokens the conversation may use (the model's context
   * window less its output reserve); spillway subtracts what the step's messages already use.
   * A function: the tokens still free for tool results now. Default: no token budget (the
   * byte cap alone decides).
   */
  readonly tokenBudget?: number | TokenBudget;
  /** Tokenizer for estimates (default o200k_base). */
  readonly tokenizer?: TokenizerName;
  /** Enables `get_tool_output` mode "extract" with this model. */
  readonly extraction?: SpillwayExtractionOptions;
  /** Async tools: `true` for the defaults, or the triggers. Adds `wait_for_tool_output`. */
  readonly async?: boolean | SpillwayAsyncOptions;
  /** Your own handle message. */
  readonly formatHandle?: HandleMessageFormatter;
  /** First and last lines shown in the handle message's synopsis (default 5; 0 for none). */
  readonly synopsisLines?: number;
  /** Injectable for tests. */
  readonly clock?: Clock;
}

/** The options with defaults applied. */
export interface ResolvedOptions {
  readonly sessionId: string | undefined;
  readonly store: OutputStore | { readonly home: string } | undefined;
  readonly toolResponseMaxBytes: number;
  readonly tokenBudget: number | TokenBudget | undefined;
  readonly tokenizer: TokenizerName;
  readonly extraction: SpillwayExtractionOptions | undefined;
  readonly async: Required<SpillwayAsyncOptions> | undefined;
  readonly formatHandle: HandleMessageFormatter | undefined;
  readonly synopsisLines: number;
  readonly clock: Clock | undefined;
}

const fn = (what: string) =>
  z.custom<(...args: never[]) => unknown>((v) => typeof v === "function", `expected ${what}`);
const positiveInt = z.number().int().positive();

const optionsSchema = z
  .object({
    sessionId: z.string().min(1).max(200).optional(),
    store: z
      .union([
        z.object({ home: z.string().min(1) }).strict(),
        z.custom<OutputStore>(
          (v) =>
            typeof v === "object" &&
            v !== null &&
            ["put", "begin", "complete", "fail", "get", "list", "open", "countRead"].every(
              (m) => typeof (v as Record<string, unknown>)[m] === "function",
            ),
          "expected an OutputStore (put, begin, complete, fail, get, list, open, countRead)",
        ),
      ])
      .optional(),
    toolResponseMaxBytes: positiveInt.optional(),
    tokenBudget: z.union([positiveInt, fn("a function returning the remaining tokens")]).optional(),
    tokenizer: z.enum(["o200k_base", "cl100k_base"]).optional(),
    extraction: z
      .object({
        model: z.custom<LanguageModel>(
          (v) => typeof v === "string" || (typeof v === "object" && v !== null),
          "expected an AI SDK language model",
        ),
        contextWindow: positiveInt.optional(),
        maxOutputTokens: positiveInt.optional(),
        maxChunks: positiveInt.optional(),
        concurrency: positiveInt.optional(),
      })
      .strict()
      .optional(),
    async: z
      .union([
        z.boolean(),
        z
          .object({
            timeoutSecs: z.number().positive().optional(),
            tokenThreshold: positiveInt.optional(),
            maxRunning: positiveInt.optional(),
            waitTimeoutSecs: z.number().positive().optional(),
          })
          .strict(),
      ])
      .optional(),
    formatHandle: fn("a function returning the handle message").optional(),
    synopsisLines: z.number().int().min(0).max(50).optional(),
    clock: fn("a function returning milliseconds since the epoch").optional(),
  })
  .strict();

const ASYNC_DEFAULTS: Required<SpillwayAsyncOptions> = {
  timeoutSecs: 5,
  tokenThreshold: 10_000,
  maxRunning: 4,
  waitTimeoutSecs: 300,
};

/** Validates the options (a clear CONFIG_INVALID naming each bad field) and applies defaults. */
export function resolveOptions(options: SpillwayOptions = {}): ResolvedOptions {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(options)"}: ${issue.message}`,
    );
    throw new SpillwayError(
      "CONFIG_INVALID",
      `Invalid spillwayTools options: ${problems.join("; ")}. See docs/ai-sdk.md for every option.`,
      { problems },
      { fault: "user" },
    );
  }
  const asyncOption = options.async;
  return {
    sessionId: options.sessionId,
    store: options.store,
    toolResponseMaxBytes: options.toolResponseMaxBytes ?? 12_288,
    tokenBudget: options.tokenBudget,
    tokenizer: options.tokenizer ?? "o200k_base",
    extraction: options.extraction,
    async:
      asyncOption === true
        ? ASYNC_DEFAULTS
        : asyncOption
          ? { ...ASYNC_DEFAULTS, ...asyncOption }
          : undefined,
    formatHandle: options.formatHandle,
    synopsisLines: options.synopsisLines ?? 5,
    clock: options.clock,
  };
}

import type { BackgroundTools } from "../async/background.js";
import type { Guidance } from "../config/guidance.js";
import type { Clock } from "../core/clock.js";
import type { TokenizerName } from "../core/tokens.js";
import type { Extractor } from "../extraction/extractor.js";
import type { ModelReply, ModelRequest, RetryPolicy } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import type { HistoryStore } from "../store/history.js";
import type { OutputStore } from "../store/output-store.js";
import { answerBudgetChars } from "../surfaces/show-decision.js";
import type { Surface, SurfaceName } from "../surfaces/surface.js";
import type { Accounting } from "./accounting.js";
import type { AgentEvent } from "./events.js";
import type { ToolHandler } from "./tool-types.js";
import type { TraceWriter } from "./trace.js";

/** The settings a session runs with, resolved from CLI > frontmatter > config > defaults. */
export interface SessionSettings {
  readonly models: readonly ModelTarget[];
  readonly maxTurns: number;
  readonly toolResponseMaxBytes: number;
  readonly toolConcurrency: number;
  readonly toolTimeoutSecs: number;
  readonly toolOutput: {
    readonly enabled: boolean;
    readonly surface: SurfaceName;
    readonly continuationChars: number;
    readonly synopsisLines: number;
  };
  readonly stream: boolean;
  readonly retry: RetryPolicy;
  /** Calls beyond this many in one turn get an error instead of running (read-grep agents). */
  readonly maxToolCallsPerTurn?: number;
  /** Async tools; absent in sessions stored before they existed (then off). */
  readonly async?: AsyncSettings;
  /** Compaction (D4-compaction); absent in sessions stored before it existed (then defaults). */
  readonly compaction?: CompactionSettings;
  /** agent__task_status and agent__batch are listed (absent in sessions stored before: yes). */
  readonly helperTools?: boolean;
  /**
   * The surface's tools are listed from the first turn when the surface asks for it (absent:
   * yes). When false, they and wait_for_tool_output come once an output is stored or a tool
   * runs in the background. False when every model is local: a small model forced to call a
   * tool before anything is stored may pick a read with nothing to read (wait_for_tool_output
   * with nothing running) turn after turn; the local prompt cache pays one re-evaluation when
   * the list grows.
   */
  readonly surfaceFromFirstTurn?: boolean;
  /**
   * A text reply before the final turn is the answer (`final`, absent), or asked to be
   * confirmed (`confirm`); `none`: every model call asks for a tool call (toolChoice required),
   * and a text reply that comes anyway is asked to be confirmed.
   */
  readonly textReplies?: "final" | "confirm" | "none";
  /** Guidance behaviours on or off (absent in sessions stored before the switches: all on). */
  readonly guidance?: Guidance;
}

/** Compaction (D4-compaction): thresholds, summarizer, summary size. */
export interface CompactionSettings {
  readonly enabled: boolean;
  /** Fractions of the window the input may use (context window less the reply's reserve). */
  readonly warn: number;
  readonly compact: number;
  readonly hard: number;
  /** The summary's largest size in tokens (also capped at a fifth of the input window). */
  readonly summaryMaxTokens: number;
  /** `serving`: the session's models (the last one that served first); `extraction`: `models`. */
  readonly model: "serving" | "extraction";
  /** The extraction models, when `model` is `extraction` and some are configured. */
  readonly models: readonly ModelTarget[] | null;
}

export const DEFAULT_COMPACTION: CompactionSettings = {
  enabled: true,
  warn: 0.75,
  compact: 0.9,
  hard: 0.95,
  summaryMaxTokens: 2048,
  model: "serving",
  models: null,
};

export function compactionSettingsOf(settings: SessionSettings): CompactionSettings {
  return settings.compaction ?? DEFAULT_COMPACTION;
}

/** The async triggers (D3-1, D3-17) and the background cap. */
export interface AsyncSettings {
  readonly enabled: boolean;
  /** A tool still running after this long continues in the background (time trigger). */
  readonly timeoutSecs: number;
  /** A finished output over this many tokens is announced as ready instead of shown (size trigger). */
  readonly tokenThreshold: number;
  /** Background tools running at once; async sub-agents beyond it wait in a queue. */
  readonly maxRunning: number;
  /**
   * What an output over tokenThreshold shows: the handle message, or the async design's ready
   * text (SW-23).
   */
  readonly readyMessage?: "handle" | "ready-menu";
}

const ASYNC_OFF: AsyncSettings = {
  enabled: false,
  timeoutSecs: 5,
  tokenThreshold: 10_000,
  maxRunning: 4,
};

export function asyncSettingsOf(settings: SessionSettings): AsyncSettings {
  return settings.async ?? ASYNC_OFF;
}

/**
 * The session speaks the async design's texts word for word (`asyncReadyMessage: ready-menu`):
 * its ready text, notice menu and wait answers, with every read run as asked; otherwise
 * spillway's own.
 */
export function compatibilityTexts(settings: SessionSettings): boolean {
  return asyncSettingsOf(settings).readyMessage === "ready-menu";
}

/**
 * Whether async tools work in this session: enabled, and the surface is get_tool_output (the
 * exact-text surfaces, tool_output and get_continuation, have no async texts; the read-grep
 * agent has none).
 */
export function asyncActive(context: Pick<SessionContext, "settings" | "surface">): boolean {
  return asyncSettingsOf(context.settings).enabled && context.surface.name === "get_tool_output";
}

/** Everything one session's functions share: services (fixed) and state (changing). */
export interface SessionContext {
  readonly sessionId: string;
  readonly parentSessionId: string | null;
  readonly depth: number;
  readonly agentName: string;
  readonly systemPrompt: string;
  readonly settings: SessionSettings;
  readonly outputs: OutputStore;
  readonly history: HistoryStore;
  readonly surface: Surface;
  readonly extractor?: Extractor;
  /** Tools by name: MCP, internal, sub-agents, surface. */
  readonly tools: ReadonlyMap<string, ToolHandler>;
  readonly accounting: Accounting;
  readonly trace: TraceWriter;
  readonly signal: AbortSignal;
  /** Tools running in the background (async), settled into the store when they end. */
  readonly background: BackgroundTools;
  readonly clock: Clock;
  /** Calls the session's models (or `targets`, e.g. a summarizer), with retries and fallback. */
  readonly callModel: (
    request: ModelRequest,
    targets?: readonly ModelTarget[],
  ) => Promise<ModelReply>;
  readonly emit: (event: AgentEvent) => void;
  readonly state: SessionState;
}

/** The results one call (tool and arguments) returned in a session, with their turns. */
export interface CallRepeats {
  readonly turns: number[];
  readonly fingerprints: string[];
}

export interface SessionState {
  /** Turns counted toward maxTurns so far. */
  turn: number;
  /** The model ref that served the last turn (extraction's default model). */
  servingModel: string | null;
  /** Model calls made (counted or not), bounding uncounted turns. */
  modelCalls: number;
  /** Tokens of the last projection sent (the context the next results must fit beside). */
  projectedTokens: number;
  /** Tokens of results accepted in the turn being run, not yet in a projection. */
  pendingTokens: number;
  finalReport: string | null;
  /** Set when even a handle message cannot fit: the next turn must be the final one. */
  budgetExhausted: boolean;
  /** Some output is shown by handle/continuation: the surface's tools are listed. */
  hasStoredOutputs: boolean;
  /** Outputs this run showed by handle, as ready, or by async id (their content not in the context). */
  readonly shownByHandle: Set<string>;
  /** The turn being run is the final one (set once its projection is built). */
  finalTurn: boolean;
  /** Reports the guards sent back (at most one a session: report-guard.ts). */
  reportsSentBack: number;
  /** The turn whose report the guards sent back. */
  sentBackTurn?: number;
  /** The final turn's report was sent back and one more final turn was given. */
  extraFinalTurn: boolean;
  /** The System Notices sent so far (runtime text a report may not repeat), the latest last. */
  readonly noticesShown: string[];
  /** Rendered tool-result texts (deterministic for a given record), so turns do not re-read them. */
  readonly rendered: Map<string, string>;
  /** Outputs of calls run whole (whole-read.ts): the limiting arguments that were not applied. */
  readonly liftedArguments: Map<string, readonly string[]>;
  /** A graceful stop was asked: the next turn is the final one; background tools go on. */
  stopRequested: boolean;
  /** The model's last reply had neither text nor a tool call (the notice says so). */
  lastReplyEmpty: boolean;
  /** The model's last reply was text asked to be confirmed (textReplies: confirm). */
  lastReplyText: boolean;
  /** The session's task (its first prompt): handle messages suggest a grep for its terms. */
  taskText?: string;
  /** Reads of one stored output that ran and succeeded, by call key (unchanged-read.ts). */
  readonly outputReads: Map<string, { readonly toolCallId: string; readonly turn: number }>;
  /** Calls whose results the last projection sent whole (not compacted, not shortened). */
  resultsInView: ReadonlySet<string>;
  /** What each call (tool and arguments) returned so far, by call key (repeat-stop.ts). */
  readonly callRepeats: Map<string, CallRepeats>;
  /** A call was stopped for repeating the same result: the next turn is the last. */
  repeatStopped: boolean;
}

/** The smallest context window among the session's models: what every fallback can take. */
export function contextWindowOf(settings: SessionSettings): number {
  return Math.min(...settings.models.map((m) => m.contextWindow));
}

export function maxOutputTokensOf(settings: SessionSettings): number {
  return Math.max(...settings.models.map((m) => m.maxOutputTokens));
}

export function tokenizerOf(settings: SessionSettings): TokenizerName {
  return settings.models[0]?.tokenizer ?? "o200k_base";
}

/**
 * How many of the model's own tokens one of our counted tokens may be, per provider family
 * (SW-21). OpenAI's models use the tokenizers we count with (o200k_base, cl100k_base): 2% for
 * what the chat format adds. Local and Ollama models (Qwen, Llama, Mistral…) and other
 * OpenAI-compatible servers use their own: Qwen2.5's counts run 0.96 to 1.27 times o200k_base on
 * the evaluation's outputs (logs and CSV highest, since it splits numbers into single digits),
 * so 30%. Anthropic's tokenizer is not public: 30% as well.
 */
export const TOKENIZER_MARGINS: Readonly<Record<ModelTarget["provider"], number>> = {
  openai: 1.02,
  anthropic: 1.3,
  ollama: 1.3,
  "openai-compatible": 1.3,
  local: 1.3,
};

/** The largest margin among the session's models: every fallback must fit. */
export function tokenizerMarginOf(settings: SessionSettings): number {
  return Math.max(1, ...settings.models.map((m) => TOKENIZER_MARGINS[m.provider] ?? 1.3));
}

/**
 * The budget of one request in our counted tokens: the smallest context window, less the reply,
 * divided by the tokenizer margin. Everything sent is charged against it (tool definitions,
 * instructions, history, the notice).
 */
export function requestBudgetOf(settings: SessionSettings): number {
  return Math.floor(
    (contextWindowOf(settings) - maxOutputTokensOf(settings)) / tokenizerMarginOf(settings),
  );
}

/** Tokens still free for tool results before the next model call. */
export function remainingTokens(context: SessionContext): number {
  const { state, settings } = context;
  return requestBudgetOf(settings) - state.projectedTokens - state.pendingTokens;
}

/** The approximate characters free for a surface's answer (at most the byte cap's worth). */
export function sessionAnswerChars(context: SessionContext): number {
  return answerBudgetChars(remainingTokens(context), context.settings.toolResponseMaxBytes);
}

/** The state of a session that has not run a turn yet. */
export function newSessionState(): SessionState {
  return {
    turn: 0,
    servingModel: null,
    modelCalls: 0,
    projectedTokens: 0,
    pendingTokens: 0,
    finalReport: null,
    budgetExhausted: false,
    hasStoredOutputs: false,
    shownByHandle: new Set(),
    finalTurn: false,
    reportsSentBack: 0,
    extraFinalTurn: false,
    noticesShown: [],
    rendered: new Map(),
    liftedArguments: new Map(),
    stopRequested: false,
    lastReplyEmpty: false,
    lastReplyText: false,
    outputReads: new Map(),
    resultsInView: new Set(),
    callRepeats: new Map(),
    repeatStopped: false,
  };
}

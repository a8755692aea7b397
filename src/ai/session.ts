import type { ModelMessage } from "ai";
import { BackgroundTools } from "../async/background.js";
import { type Clock, systemClock } from "../core/clock.js";
import { randomId } from "../core/ids.js";
import { countTokens, estimateTokens } from "../core/tokens.js";
import type { Extractor } from "../extraction/extractor.js";
import { readOutput } from "../retrieval/read-output.js";
import type { OutputRecord, OutputStore } from "../store/output-store.js";
import type { ExtractionCache } from "../store/sqlite-extraction-cache.js";
import { storeToolResult } from "../store/store-result.js";
import { asyncReadyText } from "../surfaces/async-texts.js";
import { defaultHandleMessage } from "../surfaces/handle-message.js";
import { decideShown } from "../surfaces/show-decision.js";
import { defaultStores } from "./default-store.js";
import { aiSdkExtractor, type ExtractionUsage } from "./extraction.js";
import type { ResolvedOptions } from "./options.js";
import { storedContentOf } from "./stored-content.js";

/** One tool call, as the adapter knows it. */
export interface CallInfo {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The call's parsed input (stored as JSON text with the output). */
  readonly input: unknown;
  /** The messages the model was sent in this step, when the loop says (the AI SDK does). */
  readonly messages?: readonly ModelMessage[];
}

/** How a tool result reaches the model. */
export type ModelView =
  /** The result itself: it fits. */
  | { readonly kind: "result"; readonly outputId: string }
  /** A text in its place: the handle message, the ready or running notice. */
  | { readonly kind: "text"; readonly text: string; readonly outputId: string };

/** State shared by every adapter session with the same store and session id in this process. */
interface Shared {
  /** How each call's result is shown, by tool call id (decided once). */
  readonly views: Map<string, ModelView>;
  /** Outputs announced as ready (size trigger) or running (time trigger), in order. */
  readonly asyncIds: string[];
  readonly background: BackgroundTools;
}

interface Opened {
  readonly outputs: OutputStore;
  readonly cache: ExtractionCache | undefined;
  readonly shared: Shared;
}

/** Remembered views per session: enough for any conversation; the oldest go first. */
const MAX_VIEWS = 10_000;
/** Conversations kept in memory per store (their outputs stay in the store either way). */
const MAX_SESSIONS = 1_000;
const registry = new WeakMap<OutputStore, Map<string, Shared>>();

function sharedFor(
  outputs: OutputStore,
  sessionId: string,
  options: ResolvedOptions,
  clock: Clock,
) {
  let sessions = registry.get(outputs);
  if (!sessions) {
    sessions = new Map();
    registry.set(outputs, sessions);
  }
  let shared = sessions.get(sessionId);
  if (!shared) {
    // A server makes a tool set per request: forget the oldest idle conversations. Their
    // outputs stay in the store, and a later request finds them by tool call id.
    for (const [id, old] of sessions) {
      if (sessions.size < MAX_SESSIONS) break;
      if (old.background.runningCount === 0) sessions.delete(id);
    }
    shared = {
      views: new Map(),
      asyncIds: [],
      background: new BackgroundTools(options.async?.maxRunning ?? 4, clock),
    };
    sessions.set(sessionId, shared);
  }
  return shared;
}

/** Tokens of the step's messages, counted once per step (the same array is shared by its calls). */
const stepTokens = new WeakMap<object, Promise<number>>();
/** Tokens of results accepted in a step, not yet in its messages. */
const stepPending = new WeakMap<object, { tokens: number }>();

const n = (value: number | null) => (value ?? 0).toLocaleString("en-US");

/**
 * The framework-neutral core of the adapters: one conversation's outputs in the store, how
 * each result is shown, the context budget, background tools and the extractor. The AI SDK
 * adapter (spillwayTools) maps it onto `execute` and `toModelOutput`.
 */
export class SpillwaySession {
  readonly id: string;
  readonly clock: Clock;
  /** Extraction calls and tokens spent in this session object. */
  readonly extractionUsage: ExtractionUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  private opened: Promise<Opened> | undefined;
  private extractor: Extractor | undefined;

  constructor(readonly options: ResolvedOptions) {
    this.id = options.sessionId ?? randomId("ses");
    this.clock = options.clock ?? systemClock;
  }

  /** Opens the store on first use (the default SQLite store is shared by the process). */
  open(): Promise<Opened> {
    this.opened ??= (async () => {
      const store = this.options.store;
      let outputs: OutputStore;
      let cache: ExtractionCache | undefined;
      if (store && "put" in store) {
        outputs = store;
      } else {
        const stores = await defaultStores(store?.home);
        outputs = stores.outputs;
        cache = stores.extractionCache;
      }
      return { outputs, cache, shared: sharedFor(outputs, this.id, this.options, this.clock) };
    })();
    return this.opened;
  }

  /** The output store this session writes to. */
  async store(): Promise<OutputStore> {
    return (await this.open()).outputs;
  }

  /** The background tools of this conversation (time trigger). */
  async background(): Promise<BackgroundTools> {
    return (await this.open()).shared.background;
  }

  /** The extractor, when an extraction model is configured. */
  async extractorOf(): Promise<Extractor | undefined> {
    if (!this.options.extraction) return undefined;
    if (!this.extractor) {
      const { outputs, cache } = await this.open();
      this.extractor = aiSdkExtractor(
        this.options.extraction,
        outputs,
        this.id,
        cache,
        this.extractionUsage,
      );
    }
    return this.extractor;
  }

  /** The origin the store records for a call: session, tool, arguments as JSON, call id. */
  origin(call: CallInfo) {
    return {
      sessionId: this.id,
      toolName: call.toolName,
      toolArgs: JSON.stringify(call.input ?? {}) ?? "{}",
      toolCallId: call.toolCallId,
    };
  }

  /** Tokens still free for tool results in the call's step (Infinity without a token budget). */
  async remainingTokens(call: CallInfo): Promise<number> {
    const budget = this.options.tokenBudget;
    if (budget === undefined) return Number.POSITIVE_INFINITY;
    const messages = call.messages ?? [];
    const pending = call.messages ? (stepPending.get(call.messages)?.tokens ?? 0) : 0;
    if (typeof budget === "function")
      return (
        (await budget({ toolName: call.toolName, toolCallId: call.toolCallId, messages })) - pending
      );
    return budget - (await this.contextTokens(messages)) - pending;
  }

  /** Estimated tokens of a step's messages (counted once per step). */
  contextTokens(messages: readonly ModelMessage[]): Promise<number> {
    let tokens = stepTokens.get(messages);
    if (!tokens) {
      tokens = estimateTokens(JSON.stringify(messages), this.options.tokenizer).then(
        (e) => e.tokens,
      );
      stepTokens.set(messages, tokens);
    }
    return tokens;
  }

  /** Charges the call's step for what the model will be shown. */
  charge(call: CallInfo, tokens: number): void {
    if (!call.messages) return;
    const pending = stepPending.get(call.messages) ?? { tokens: 0 };
    pending.tokens += tokens;
    stepPending.set(call.messages, pending);
  }

  /**
   * Stores a result whole (the interception point: before any size logic), then decides, once,
   * how the model sees it. `running` is the record begun when the call went to the background.
   */
  async capture(call: CallInfo, value: unknown, running?: OutputRecord): Promise<ModelView> {
    const { outputs } = await this.open();
    const content = storedContentOf(value);
    const stored = await storeToolResult(outputs, this.origin(call), content, running);
    return this.decide(
      call,
      stored.record,
      stored.attachments.map((a) => a.id),
      content.isError,
    );
  }

  /** Remembers a view (a background call's running notice, for one). */
  async remember(toolCallId: string, view: ModelView): Promise<void> {
    const { views } = (await this.open()).shared;
    if (views.size >= MAX_VIEWS) views.delete(views.keys().next().value!);
    views.set(toolCallId, view);
  }

  /** Marks an output as async (ready or running): the notice lists it. */
  async announce(outputId: string): Promise<void> {
    const { asyncIds } = (await this.open()).shared;
    if (!asyncIds.includes(outputId)) asyncIds.push(outputId);
  }

  /** True once some result of this conversation was shown by handle (or announced ready). */
  async hasHandles(): Promise<boolean> {
    for (const view of (await this.open()).shared.views.values())
      if (view.kind === "text") return true;
    return false;
  }

  /** The async outputs of this conversation, oldest first. */
  async asyncIds(): Promise<readonly string[]> {
    return (await this.open()).shared.asyncIds;
  }

  /**
   * The view of a call's result: decided when it was stored, or (in another request or
   * process) found in the store by its call id, or, never seen, stored now.
   */
  async viewOf(call: CallInfo, value: unknown): Promise<ModelView> {
    const { shared } = await this.open();
    const known = shared.views.get(call.toolCallId);
    if (known) return known;
    const found = await this.recordsOfCall(call.toolCallId);
    const main = found.find((r) => r.kind !== "binary") ?? found.at(-1);
    if (main && main.status === "ready") {
      const attachments = found.filter((r) => r !== main).map((r) => r.id);
      return this.decide(call, main, attachments, false);
    }
    return this.capture(call, value);
  }

  /** The records stored for a tool call of this session (its output and attachments), newest first. */
  async recordsOfCall(toolCallId: string): Promise<OutputRecord[]> {
    const { outputs } = await this.open();
    const found: OutputRecord[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await outputs.list({ sessionId: this.id, limit: 200, offset });
      found.push(...page.filter((r) => r.toolCallId === toolCallId));
      if (page.length < 200) return found;
    }
  }

  private async decide(
    call: CallInfo,
    record: OutputRecord,
    attachments: readonly string[],
    isError: boolean,
  ): Promise<ModelView> {
    const { outputs } = await this.open();
    const { options } = this;
    let handle: string | undefined;
    const handleText = async () => {
      if (handle !== undefined) return handle;
      const defaultText = await defaultHandleMessage(
        record,
        outputs,
        { sessionId: this.id },
        options.synopsisLines,
      );
      handle = options.formatHandle
        ? await options.formatHandle({ record, defaultText, attachments })
        : defaultText;
      return handle;
    };
    const decision = await decideShown(
      record,
      {
        enabled: true,
        toolResponseMaxBytes: options.toolResponseMaxBytes,
        shownAs: "handle",
        continuationChars: 0,
        ...(options.async ? { readyOverTokens: options.async.tokenThreshold } : {}),
      },
      {
        remainingTokens: await this.remainingTokens(call),
        countTokens: (text) => countTokens(text, options.tokenizer),
        placeholder: handleText,
      },
    );
    this.charge(call, decision.tokens);
    const notes = attachments.map((id) => `\n[binary attachment stored as ${id}]`).join("");
    const error = isError ? "[the tool reported an error]\n" : "";
    let view: ModelView;
    if (decision.shown === "inline" && attachments.length === 0)
      view = { kind: "result", outputId: record.id };
    else if (decision.shown === "inline")
      view = {
        kind: "text",
        text: `${error}${await this.inlineText(record)}${notes}`,
        outputId: record.id,
      };
    else if (decision.shown === "ready") {
      await this.announce(record.id);
      const ready = asyncReadyText(record.id, record.toolName, record.tokenEstimate ?? 0);
      view = { kind: "text", text: `${error}${ready}${notes}`, outputId: record.id };
    } else
      view = { kind: "text", text: `${error}${await handleText()}${notes}`, outputId: record.id };
    await this.remember(call.toolCallId, view);
    return view;
  }

  /** A small stored text, read back whole (results with binary attachments show it so). */
  private async inlineText(record: OutputRecord): Promise<string> {
    const { outputs } = await this.open();
    const raw = await readOutput(
      outputs,
      record.id,
      { sessionId: this.id },
      { mode: "raw", maxChars: Math.max(1, record.charCount ?? 0) },
    );
    return raw.text;
  }

  /** A one-line description of an output, for logs and examples. */
  static describe(record: OutputRecord): string {
    return `${record.id}: ${record.toolName}, ${n(record.byteSize)} bytes, ${n(record.lineCount)} lines, ~${n(record.tokenEstimate)} tokens`;
  }
}

/**
 * A gateway session's canonical history: the same session, tool-call and message records an
 * agent run writes, so `spillway sessions show` (and the inspector) show what the client's
 * model was given. One client connection (stdio process, or MCP session over HTTP) is one
 * session; each tool call is one "turn".
 *
 * Outputs are stored before the client gets an answer (that is the durable part); the history
 * records of calls are written off the answer's path, in call order, when the client pauses
 * (100 ms without a new call) or every 32 calls, and on close. Each SQLite write is a
 * synchronous, fsynced transaction, so writing them between two calls of a busy client would
 * put a few milliseconds of bookkeeping on every answer.
 */
import type { Clock } from "../core/clock.js";
import { SpillwayError } from "../core/errors.js";
import type { IdGenerator } from "../core/ids.js";
import { DEFAULT_RETRY } from "../providers/model-caller.js";
import type {
  HistoryStore,
  SessionRecord,
  SessionStatus,
  ToolCallStatus,
  ToolResultRef,
} from "../store/history.js";
import type { GatewaySettings } from "./gateway-settings.js";

/** History records are written after this long without a new call... */
const FLUSH_AFTER_IDLE_MS = 100;
/** ... or once this many calls wait. */
const FLUSH_EVERY_CALLS = 32;

/** The agent name of gateway sessions. */
export const GATEWAY_AGENT_NAME = "mcp-gateway";

/** One finished call, as the history keeps it. */
export interface GatewayCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments exactly as the client sent them (JSON). */
  readonly argsText: string;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly status: Exclude<ToolCallStatus, "running">;
  readonly outputId?: string;
  readonly error?: string;
  readonly ref: ToolResultRef;
}

/**
 * The stored settings of a gateway session, in the shape of an agent run's plan (version 1),
 * so viewers render its results the way its client was shown them.
 */
export function gatewayPlan(settings: GatewaySettings, description: string): unknown {
  return {
    version: 1,
    agentName: GATEWAY_AGENT_NAME,
    agentPath: null,
    description,
    systemPrompt: "",
    settings: {
      models: [],
      maxTurns: 0,
      toolResponseMaxBytes: settings.limits.maxInlineBytes,
      toolConcurrency: 0,
      toolTimeoutSecs: settings.toolTimeoutMs / 1000,
      toolOutput: {
        enabled: true,
        surface: "get_tool_output",
        continuationChars: 4_000,
        synopsisLines: settings.synopsisLines,
      },
      stream: false,
      retry: DEFAULT_RETRY,
    },
    mcpServers: settings.servers,
    subagents: [],
    cli: {},
    configPath: settings.configPath,
    sources: {},
    gateway: { limits: settings.limits, namespace: settings.namespace },
  };
}

/** Writes one session's history in order; a failed write is reported, never dropped. */
export class GatewayHistory {
  readonly sessionId: string;
  readonly #history: HistoryStore;
  readonly #clock: Clock;
  readonly #onError: (error: unknown) => void;
  #calls: number;
  #queue: Promise<void> = Promise.resolve();
  readonly #pending: { call: GatewayCall; turn: number }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #failures = 0;

  private constructor(
    history: HistoryStore,
    session: SessionRecord,
    clock: Clock,
    onError: (error: unknown) => void,
  ) {
    this.#history = history;
    this.sessionId = session.id;
    this.#clock = clock;
    this.#onError = onError;
    this.#calls = session.turns;
  }

  /**
   * Starts a new session, or resumes `resume` (which must be a gateway session): its outputs
   * stay readable and its calls go on numbering from where they stopped.
   */
  static async open(options: {
    readonly history: HistoryStore;
    readonly settings: GatewaySettings;
    readonly description: string;
    readonly clock: Clock;
    readonly ids: IdGenerator;
    readonly resume?: string;
    readonly onError: (error: unknown) => void;
  }): Promise<GatewayHistory> {
    const { history, resume } = options;
    let session: SessionRecord;
    if (resume !== undefined) {
      session = await history.getSession(resume);
      if (session.agentName !== GATEWAY_AGENT_NAME) {
        throw new SpillwayError(
          "INVALID_ARGUMENT",
          `Session ${resume} is a run of agent "${session.agentName}", not a gateway session; ` +
            `resume it with: spillway run --resume ${resume}`,
          { sessionId: resume, agentName: session.agentName },
        );
      }
      await history.updateSession(resume, { status: "running" });
    } else {
      session = await history.createSession({
        id: options.ids("ses"),
        agentName: GATEWAY_AGENT_NAME,
        prompt: options.description,
        settings: gatewayPlan(options.settings, options.description),
      });
    }
    return new GatewayHistory(history, session, options.clock, options.onError);
  }

  /** Calls recorded so far (across resumes). */
  get calls(): number {
    return this.#calls;
  }

  /** History writes that failed (each was reported). */
  get failures(): number {
    return this.#failures;
  }

  /** Queues the records of one finished call: the call and its result. */
  record(call: GatewayCall): void {
    const turn = ++this.#calls;
    this.#pending.push({ call, turn });
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length >= FLUSH_EVERY_CALLS) this.#flushPending();
    else this.#timer = setTimeout(() => this.#flushPending(), FLUSH_AFTER_IDLE_MS);
  }

  #flushPending(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending.splice(0);
    if (batch.length === 0) return;
    for (const { call, turn } of batch) this.#write(call, turn);
    const turns = batch.at(-1)?.turn ?? this.#calls;
    this.#enqueue(() => this.#history.updateSession(this.sessionId, { turns }));
  }

  #write(call: GatewayCall, turn: number): void {
    this.#enqueue(async () => {
      await this.#history.appendMessage(this.sessionId, turn, "assistant", [
        {
          type: "tool-call",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          argsText: call.argsText,
        },
      ]);
      await this.#history.startToolCall({
        sessionId: this.sessionId,
        toolCallId: call.toolCallId,
        turn,
        toolName: call.toolName,
        argsText: call.argsText,
        startedAt: call.startedAt,
      });
      await this.#history.finishToolCall(
        this.sessionId,
        call.toolCallId,
        {
          status: call.status,
          ...(call.outputId ? { outputId: call.outputId } : {}),
          ...(call.error ? { error: call.error } : {}),
        },
        { turn, toolName: call.toolName, ref: call.ref },
      );
    });
  }

  /** Writes every queued record now and waits for them. */
  flush(): Promise<void> {
    this.#flushPending();
    return this.#queue;
  }

  /** Flushes, then marks the session ended. */
  async close(status: SessionStatus, error?: string): Promise<void> {
    await this.flush();
    await this.#history.updateSession(this.sessionId, {
      status,
      ...(error === undefined ? {} : { error }),
    });
  }

  /** Milliseconds since the epoch, from the injected clock. */
  now(): number {
    return this.#clock();
  }

  #enqueue(write: () => Promise<void>): void {
    this.#queue = this.#queue.then(write).catch((error: unknown) => {
      this.#failures++;
      this.#onError(error);
    });
  }
}

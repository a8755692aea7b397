/**
 * Progress of `spillway run`, one of four ways:
 * - `tty`: a live status line on stderr, redrawn in place, plus permanent lines for notable
 *   events (tool errors, warnings, model retries and fallbacks, sub-agents, status reports,
 *   extraction retries and fallbacks); a running extraction shows in the status line;
 * - `lines`: one plain line per event on stderr (stderr is not a terminal); an extraction gets
 *   a line when it starts and one when it ends, its model calls only when one is retried;
 * - `json`: each event as one JSON object per line on stdout (JSON Lines);
 * - `quiet`: nothing.
 * Sub-agent events (depth > 0) are indented and prefixed with the sub-agent's session id.
 */
import { clipText } from "../core/clip-text.js";
import { formatBytes, formatCompact, formatDuration } from "./format.js";
import type { Output } from "./output.js";
import {
  backgroundDoneLine,
  compactionLine,
  extractionOutcome,
  type RunEvent,
} from "./progress-lines.js";
import {
  type ExtractionInfo,
  extractionKey,
  extractionStatus,
  type SessionInfo,
} from "./progress-state.js";
import { printable } from "./terminal-text.js";

export type ProgressMode = "tty" | "lines" | "json" | "quiet";

type EventOf<T extends string> = Extract<RunEvent, { type: T }>;

const CLEAR_LINE = "\r\x1b[2K";
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Renders run events as the chosen mode asks. */
export class RunProgress {
  private readonly sessions = new Map<string, SessionInfo>();
  private readonly running = new Map<string, string>();
  /** Tool calls running in the background (async), by session/toolCallId. */
  private readonly background = new Map<string, string>();
  private readonly extractions = new Map<string, ExtractionInfo>();
  private storedBytes = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private model = "";
  private rootTurn = { turn: 0, maxTurns: 0 };
  private statusShown = false;
  private timer: NodeJS.Timeout | undefined;
  private writes: Promise<void> = Promise.resolve();
  private writeError: unknown;
  private stopped = false;
  /** Called once when stdout fails (e.g. its reader went away): the run should stop. */
  onWriteError: ((error: unknown) => void) | undefined;
  private readonly started = Date.now();

  constructor(
    readonly mode: ProgressMode,
    private readonly out: Output,
    private readonly stderr: NodeJS.WriteStream = process.stderr,
  ) {
    if (mode === "tty") {
      this.timer = setInterval(() => this.redraw(), 1000);
      this.timer.unref();
      this.redraw();
    }
  }

  /** Takes one event of the run (or of a sub-agent's). */
  handle(event: RunEvent): void {
    if (this.mode === "quiet") return;
    if (this.mode === "json") {
      this.writeJson(event);
      return;
    }
    this.track(event);
    const line = this.lineOf(event);
    if (line !== undefined && (this.mode === "lines" || this.notable(event))) this.permanent(line);
    else if (this.mode === "tty") this.redraw();
  }

  /** Writes a JSON Lines object to stdout (json mode), in order. */
  writeJson(value: unknown): void {
    this.writes = this.writes
      .then(() => this.out.jsonLine(value))
      .catch((error: unknown) => {
        if (this.writeError === undefined) this.onWriteError?.(error);
        this.writeError ??= error;
      });
  }

  /** A warning of the CLI itself: a permanent line, or a `{"type":"cli.warning"}` JSON line. */
  warn(message: string): void {
    if (this.mode === "json") this.writeJson({ type: "cli.warning", message });
    else this.permanent(`warning: ${message}`);
  }

  /** A permanent line on stderr (above the status line on a terminal). */
  permanent(line: string): void {
    if (this.mode === "quiet" || this.mode === "json") return;
    if (this.mode === "tty") {
      this.stderr.write(`${this.statusShown ? CLEAR_LINE : ""}${printable(line)}\n`);
      this.statusShown = false;
      this.redraw();
    } else {
      this.stderr.write(`${printable(line)}\n`);
    }
  }

  /** Stops the status line (clearing it) and waits for queued JSON lines (throwing a write error). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.statusShown) this.stderr.write(CLEAR_LINE);
    this.statusShown = false;
    await this.writes;
    if (this.writeError !== undefined) throw this.writeError;
  }

  private track(event: RunEvent): void {
    switch (event.type) {
      case "session.start":
        this.sessions.set(event.sessionId, {
          agent: event.agent,
          maxTurns: event.maxTurns,
          depth: event.depth,
          parentSessionId: event.parentSessionId,
          turn: 0,
          ended: false,
        });
        if (event.depth === 0) this.model ||= event.models[0] ?? "";
        break;
      case "turn.start": {
        const session = this.sessions.get(event.sessionId);
        if (session) session.turn = event.turn;
        if (event.depth === 0) this.rootTurn = { turn: event.turn, maxTurns: event.maxTurns };
        break;
      }
      case "model.call":
        this.inputTokens += event.inputTokens;
        this.outputTokens += event.outputTokens;
        if (event.depth === 0) this.model = event.model;
        break;
      case "tool.start":
        this.running.set(`${event.sessionId}/${event.toolCallId}`, event.toolName);
        break;
      case "tool.end":
        this.running.delete(`${event.sessionId}/${event.toolCallId}`);
        // An extraction that failed outright ends with its tool call, without extraction.end.
        this.extractions.delete(`${event.sessionId}/${event.toolCallId}`);
        this.storedBytes += event.bytes ?? 0;
        break;
      case "tool.async":
        this.background.set(`${event.sessionId}/${event.toolCallId}`, event.toolName);
        break;
      case "tool.done":
        this.background.delete(`${event.sessionId}/${event.toolCallId}`);
        this.storedBytes += event.bytes ?? 0;
        break;
      case "extraction.start":
        this.extractions.set(extractionKey(event), {
          sessionId: event.sessionId,
          outputId: event.outputId,
          strategy: event.strategy,
          chunks: event.chunks,
          mapAnswers: new Map(),
          reduceAnswers: 0,
        });
        break;
      case "extraction.call": {
        this.inputTokens += event.inputTokens;
        this.outputTokens += event.outputTokens;
        const extraction = this.extractions.get(extractionKey(event));
        if (!extraction) break;
        if (event.phase === "reduce") extraction.reduceAnswers++;
        else if (event.chunk !== undefined)
          extraction.mapAnswers.set(event.chunk, (extraction.mapAnswers.get(event.chunk) ?? 0) + 1);
        break;
      }
      case "extraction.end":
        this.extractions.delete(extractionKey(event));
        break;
      case "session.end": {
        const session = this.sessions.get(event.sessionId);
        if (session) session.ended = true;
        // Nothing of an ended session runs any more (whatever events it could not send).
        for (const map of [this.running, this.background])
          for (const key of map.keys()) if (key.startsWith(`${event.sessionId}/`)) map.delete(key);
        for (const [key, extraction] of this.extractions)
          if (extraction.sessionId === event.sessionId) this.extractions.delete(key);
        break;
      }
      default:
        break;
    }
  }

  /** Events that get a permanent line on a terminal. */
  private notable(event: RunEvent): boolean {
    switch (event.type) {
      case "tool.end":
        return event.status === "error";
      case "tool.done":
        return event.status !== "ready";
      case "warning":
      case "compaction":
      case "model.retry":
      case "status":
        return true;
      case "turn.start":
        return event.final;
      case "session.start":
        return true;
      case "session.end":
        return event.depth > 0;
      case "extraction.call":
        // Only a retried call has a line at all.
        return true;
      case "extraction.end":
        return event.fallbackFrom !== undefined;
      default:
        return false;
    }
  }

  private prefix(event: RunEvent): string {
    return event.depth > 0 ? `${"  ".repeat(event.depth)}[${event.sessionId}] ` : "";
  }

  private turnTag(event: RunEvent, turn: number): string {
    const max = this.sessions.get(event.sessionId)?.maxTurns;
    return `[turn ${turn}${max ? `/${max}` : ""}]`;
  }

  /** "[turn 3/20] " for the session's current turn (events without a turn of their own). */
  private currentTurnTag(event: RunEvent): string {
    const turn = this.sessions.get(event.sessionId)?.turn ?? 0;
    return turn > 0 ? `${this.turnTag(event, turn)} ` : "";
  }

  /** The event as one line of text, or undefined for events that have none. */
  private lineOf(event: RunEvent): string | undefined {
    const p = this.prefix(event);
    switch (event.type) {
      case "session.start": {
        const what = `up to ${plural(event.maxTurns, "turn")}${event.resumed ? " · resumed" : ""}`;
        return event.depth === 0
          ? `session ${event.sessionId} · agent ${event.agent} · ${event.models.join(", ")} · ${what}`
          : `${p}sub-agent ${event.agent} started · ${event.models.join(", ")} · ${what}`;
      }
      case "turn.start":
        return event.final
          ? `${p}${this.turnTag(event, event.turn)} final turn: the agent must deliver its report now`
          : undefined;
      case "model.call": {
        const next = event.toolCalls > 0 ? plural(event.toolCalls, "tool call") : "text";
        return (
          `${p}${this.turnTag(event, event.turn)} model ${event.model} · ` +
          `${formatCompact(event.inputTokens)} in / ${formatCompact(event.outputTokens)} out · ` +
          `${formatDuration(event.latencyMs)} → ${next}`
        );
      }
      case "model.retry":
        return (
          `${p}model ${event.model} failed: ${clipText(event.error, 300)} · ` +
          (event.willRetry ? "retrying" : "giving up on it (next model of the list, if any)")
        );
      case "tool.end": {
        const tag = `${p}${this.turnTag(event, event.turn)} tool ${event.toolName}`;
        const stored =
          event.outputId !== undefined
            ? ` → ${event.outputId} ${formatBytes(event.bytes ?? 0)}${event.shown ? ` (${event.shown})` : ""}`
            : "";
        const took = formatDuration(event.durationMs);
        if (event.background)
          return `${tag} → ${event.outputId ?? ""} running in the background after ${took}`;
        return event.status === "ok"
          ? `${tag}${stored || " ok"} ${took}`
          : `${tag} failed${stored} ${took}: ${clipText(event.error ?? "error", 300)}`;
      }
      case "tool.done":
        return `${p}${this.currentTurnTag(event)}${backgroundDoneLine(event)}`;
      case "status":
        return `${p}status: ${event.text}`;
      case "warning":
        return `${p}warning: ${event.message}`;
      case "compaction":
        return `${p}${this.currentTurnTag(event)}${compactionLine(event)}`;
      case "session.end":
        if (event.depth === 0) return undefined;
        return `${p}sub-agent ${this.sessions.get(event.sessionId)?.agent ?? ""} ${event.status}${
          event.error ? `: ${clipText(event.error, 300)}` : ""
        }`;
      case "extraction.start": {
        const chunks =
          event.strategy === "full-chunked" ? ` · ${plural(event.chunks, "chunk")}` : "";
        const how = event.requested !== event.strategy ? ` (${event.requested})` : "";
        return `${p}${this.currentTurnTag(event)}extract ${event.outputId} strategy ${event.strategy}${how}${chunks}`;
      }
      case "extraction.call":
        return this.retryLineOf(event);
      case "extraction.end":
        return `${p}${this.currentTurnTag(event)}extract ${event.outputId} ${extractionOutcome(event)}`;
      default:
        return undefined;
    }
  }

  /**
   * A line for an extraction model call only when it answers a chunk (or the reduce step)
   * that already had an answer: the previous one was unusable, so the call was made again.
   */
  private retryLineOf(event: EventOf<"extraction.call">): string | undefined {
    const extraction = this.extractions.get(extractionKey(event));
    if (!extraction || event.cached) return undefined;
    const answers =
      event.phase === "reduce"
        ? extraction.reduceAnswers
        : event.chunk !== undefined
          ? (extraction.mapAnswers.get(event.chunk) ?? 0)
          : 0;
    if (answers < 2) return undefined;
    const what = event.phase === "reduce" ? "reduce step" : `chunk ${event.chunk}/${event.chunks}`;
    return (
      `${this.prefix(event)}${this.currentTurnTag(event)}extract ${event.outputId} ${what} asked again: ` +
      `answer ${answers} from ${event.model} (the previous one was unusable) · ${formatDuration(event.latencyMs)}`
    );
  }

  /** The live status line. */
  private statusText(): string {
    const seconds = `${Math.floor((Date.now() - this.started) / 1000)}s`;
    if (this.rootTurn.turn === 0) return `starting · ${seconds}`;
    // A tool call running an extraction shows as the extraction, not as its tool's name.
    const names = [
      ...new Set(
        [...this.running].filter(([key]) => !this.extractions.has(key)).map(([, name]) => name),
      ),
    ];
    const background = [...new Set(this.background.values())];
    const activity = [
      ...[...this.extractions.values()].map((extraction) =>
        extractionStatus(this.sessions, extraction),
      ),
      ...(names.length > 0 ? [`running: ${names.join(", ")}`] : []),
      ...(background.length > 0 ? [`background: ${background.join(", ")}`] : []),
    ];
    return [
      `turn ${this.rootTurn.turn}/${this.rootTurn.maxTurns}`,
      this.model,
      ...(activity.length > 0 ? activity : ["waiting for the model"]),
      `stored ${formatBytes(this.storedBytes)}`,
      `${formatCompact(this.inputTokens)} tok in / ${formatCompact(this.outputTokens)} out`,
      seconds,
    ].join(" · ");
  }

  private redraw(): void {
    if (this.mode !== "tty" || this.timer === undefined) return;
    const width = Math.max(20, (this.stderr.columns || 80) - 1);
    this.stderr.write(`${CLEAR_LINE}${clipText(printable(this.statusText()), width)}`);
    this.statusShown = true;
  }
}

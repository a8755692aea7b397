import type { ErrorCode } from "../core/errors.js";

/**
 * The canonical history of agent sessions: every message, tool call and result,
 * lossless and durable, written as it happens. Nothing here is ever shortened: tool results
 * refer to outputs in the output store (stored whole), and what a model was shown is decided
 * again at send time by the projection.
 */

export type SessionStatus = "running" | "completed" | "failed" | "aborted";

/** How a tool result was shown to the model when it arrived (the projection's decision). */
export type ShownAs =
  /** The whole output, inline. */
  | "inline"
  /** A handle message naming the output and how to read it. */
  | "handle"
  /** The first characters and a continuation marker. */
  | "continuation"
  /** Legacy head+tail truncation (only when toolOutput.enabled is false). */
  | "truncated"
  /** Async size trigger: announced as ready with its size (D3-13). */
  | "ready";

/** A tool call's result as the canonical history keeps it. */
export type ToolResultRef =
  /** A result stored whole in the output store. */
  | {
      readonly kind: "output";
      readonly outputId: string;
      /** The tool reported an error (its error text is the output). */
      readonly isError: boolean;
      readonly shown: ShownAs;
      /** Binary parts of the same result (images, blobs), each stored as its own output. */
      readonly attachments?: readonly string[];
    }
  /**
   * A read of stored outputs through a surface (get_tool_output, tool_output,
   * get_continuation). Derived from outputs, so it never creates a handle; `continuation`
   * makes the projection append the continuation marker (the stored text never carries one).
   */
  | {
      readonly kind: "retrieval";
      readonly text: string;
      readonly continuation?: {
        readonly toolCallId: string;
        readonly shown: number;
        readonly total: number;
      };
      /** The output this read came from. */
      readonly outputId?: string;
      readonly isError?: boolean;
    }
  /**
   * An async tool call: still running when its answer was given (time trigger), or
   * started in the background on request (an async sub-agent). Its output record fills in
   * when it settles.
   */
  | { readonly kind: "async"; readonly outputId: string; readonly trigger: "time" | "explicit" }
  /** A call that produced no output: unknown tool, invalid arguments, server gone, aborted. */
  | { readonly kind: "error"; readonly code: ErrorCode; readonly message: string }
  /** A short acknowledgement from an internal tool (final report received, task status). */
  | { readonly kind: "note"; readonly text: string }
  /** agent__batch: each inner call's result, in order. */
  | {
      readonly kind: "batch";
      readonly items: readonly {
        readonly toolName: string;
        readonly argsText: string;
        readonly ref: ToolResultRef;
      }[];
    };

export type HistoryPart =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "tool-call";
      readonly toolCallId: string;
      readonly toolName: string;
      /** The arguments exactly as the model sent them (possibly invalid JSON). */
      readonly argsText: string;
    }
  | {
      readonly type: "tool-result";
      readonly toolCallId: string;
      readonly toolName: string;
      readonly result: ToolResultRef;
    };

export type MessageRole = "user" | "assistant" | "tool";

export interface HistoryMessage {
  readonly seq: number;
  readonly turn: number;
  readonly role: MessageRole;
  readonly parts: readonly HistoryPart[];
  readonly createdAt: number;
}

export interface SessionRecord {
  readonly id: string;
  readonly parentSessionId: string | null;
  readonly parentToolCallId: string | null;
  readonly agentName: string;
  readonly agentPath: string | null;
  readonly prompt: string;
  readonly status: SessionStatus;
  /** The resolved settings the session runs with (JSON), so a resume runs the same way. */
  readonly settings: unknown;
  readonly finalReport: string | null;
  readonly error: string | null;
  readonly turns: number;
  readonly accounting: unknown;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type ToolCallStatus = "running" | "ok" | "error" | "aborted";

export interface ToolCallRecord {
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly turn: number;
  readonly toolName: string;
  readonly argsText: string;
  readonly status: ToolCallStatus;
  readonly outputId: string | null;
  readonly error: string | null;
  readonly startedAt: number;
  readonly finishedAt: number | null;
}

/**
 * One tool call a compaction summary covers, built by machine from the canonical history (not
 * from the summarizer's text), so every handle stays reachable whatever the model wrote.
 */
export interface CoveredCall {
  readonly turn: number;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments exactly as the model sent them. */
  readonly argsText: string;
  /** The outputs this call stored (its result, attachments, a batch's items): handles. */
  readonly outputIds: readonly string[];
  /** For reads of stored outputs (get_tool_output …): the output read. */
  readonly readOutputId?: string;
  /** The result was an error (the tool's, or spillway's: unknown tool, invalid arguments). */
  readonly isError: boolean;
}

/**
 * A compaction summary: a separate record that stands in the projection for the
 * history messages `fromSeq`..`throughSeq`, which stay in the store untouched. Ranges of one
 * session never overlap: nothing is summarized twice (a later summary builds on this one's
 * text, not on its messages).
 */
export interface NewSummary {
  readonly sessionId: string;
  /** First and last history message covered (inclusive). */
  readonly fromSeq: number;
  readonly throughSeq: number;
  readonly fromTurn: number;
  readonly throughTurn: number;
  /** What the summarizer model wrote. */
  readonly summary: string;
  /** The summary message exactly as the projection sends it (header, summary, call index). */
  readonly text: string;
  /** The calls of messages `fromSeq`..`throughSeq`, machine-built. */
  readonly calls: readonly CoveredCall[];
  /** The output holding the full index of every call covered so far (one line a call). */
  readonly indexOutputId: string | null;
  /** The model that wrote the summary. */
  readonly model: string;
  /** Projection tokens before and after this compaction, and the tokens of `text`. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly textTokens: number;
}

export interface SummaryRecord extends NewSummary {
  /** 1, 2, … per session, in order. */
  readonly seq: number;
  readonly createdAt: number;
}

export interface NewSession {
  readonly id: string;
  readonly parentSessionId?: string;
  readonly parentToolCallId?: string;
  readonly agentName: string;
  readonly agentPath?: string;
  readonly prompt: string;
  readonly settings: unknown;
}

/**
 * The canonical history store. Same database as the output store; asynchronous so another
 * database can implement it.
 */
export interface HistoryStore {
  createSession(session: NewSession): Promise<SessionRecord>;
  getSession(id: string): Promise<SessionRecord>;
  listSessions(filter?: {
    limit?: number;
    offset?: number;
    parentSessionId?: string | null;
  }): Promise<SessionRecord[]>;
  updateSession(
    id: string,
    patch: Partial<
      Pick<SessionRecord, "status" | "finalReport" | "error" | "turns" | "accounting" | "settings">
    >,
  ): Promise<void>;

  /** Appends a message; returns it with its sequence number. */
  appendMessage(
    sessionId: string,
    turn: number,
    role: MessageRole,
    parts: readonly HistoryPart[],
  ): Promise<HistoryMessage>;
  /**
   * The session's messages in order; `afterSeq` reads only those after it (a projection reads
   * each message once), `limit` at most that many.
   */
  messages(
    sessionId: string,
    options?: { readonly afterSeq?: number; readonly limit?: number },
  ): Promise<HistoryMessage[]>;

  /** Records that a tool call started (before it runs, so a crash leaves a trace). */
  startToolCall(
    call: Omit<ToolCallRecord, "status" | "outputId" | "error" | "finishedAt">,
  ): Promise<void>;
  /**
   * Finishes a tool call and appends its result message, in one transaction: a call is never
   * left without its result once it has one.
   */
  finishToolCall(
    sessionId: string,
    toolCallId: string,
    outcome: { status: Exclude<ToolCallStatus, "running">; outputId?: string; error?: string },
    result: { turn: number; toolName: string; ref: ToolResultRef },
  ): Promise<HistoryMessage>;
  toolCalls(sessionId: string): Promise<ToolCallRecord[]>;

  /**
   * Stores a compaction summary as its own record (history messages are never touched).
   * Rejects (INVALID_ARGUMENT, fault internal) a range that is empty, starts at or before the
   * end of the session's last summary, or reaches past its last message.
   */
  appendSummary(summary: NewSummary): Promise<SummaryRecord>;
  /** The session's summaries, oldest first. */
  summaries(sessionId: string): Promise<SummaryRecord[]>;
}

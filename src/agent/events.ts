import type { ExtractionEvent } from "../extraction/run-context.js";
import type { ShownAs } from "../store/history.js";
import type { UsageReport } from "./accounting.js";
import type { ContextUsage } from "./context-usage.js";
import type { InvariantName } from "./invariants.js";

/**
 * Progress events of a run, for the CLI's status line, `--json` event lines, a server's SSE
 * stream and the trace. Sub-agents emit theirs with their own `sessionId` and `depth` > 0.
 */
export type AgentEvent =
  | {
      readonly type: "session.start";
      readonly sessionId: string;
      readonly parentSessionId: string | null;
      readonly agent: string;
      readonly models: readonly string[];
      readonly maxTurns: number;
      readonly resumed: boolean;
    }
  | {
      readonly type: "turn.start";
      readonly sessionId: string;
      readonly turn: number;
      readonly maxTurns: number;
      readonly final: boolean;
    }
  | {
      readonly type: "model.call";
      readonly sessionId: string;
      readonly turn: number;
      readonly model: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      readonly costUsd: number | null;
      readonly latencyMs: number;
      readonly toolCalls: number;
    }
  | {
      readonly type: "model.retry";
      readonly sessionId: string;
      readonly model: string;
      readonly error: string;
      readonly willRetry: boolean;
    }
  | {
      readonly type: "tool.start";
      readonly sessionId: string;
      readonly turn: number;
      readonly toolCallId: string;
      readonly toolName: string;
    }
  | {
      readonly type: "tool.end";
      readonly sessionId: string;
      readonly turn: number;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly status: "ok" | "error";
      readonly durationMs: number;
      /** The output this call stored (its result, stored whole). */
      readonly outputId?: string;
      /** The output a retrieval call read (surface reads store nothing new). */
      readonly readOutputId?: string;
      readonly bytes?: number;
      readonly shown?: ShownAs;
      /** The call went on in the background; `tool.done` follows when it settles. */
      readonly background?: true;
      readonly error?: string;
    }
  | {
      /** A tool call went on in the background: time trigger or an async sub-agent. */
      readonly type: "tool.async";
      readonly sessionId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly outputId: string;
      readonly trigger: "time" | "explicit";
    }
  | {
      /** A background tool call settled; its result is in the store under `outputId`. */
      readonly type: "tool.done";
      readonly sessionId: string;
      readonly toolCallId: string;
      readonly toolName: string;
      readonly outputId: string;
      readonly status: "ready" | "failed" | "aborted";
      readonly durationMs: number;
      readonly bytes?: number;
      readonly error?: string;
    }
  | (ExtractionEvent & { readonly sessionId: string })
  | ({
      /**
       * Each turn, once its projection is built: context use against the window and the
       * thresholds (the inspector's context-window indicator).
       */
      readonly type: "context";
      readonly sessionId: string;
    } & ContextUsage)
  | {
      /**
       * A compaction: older whole turns summarized into a separate record, or, when
       * that failed, results shortened to their handle form instead (`fallback`).
       */
      readonly type: "compaction";
      readonly sessionId: string;
      readonly turn: number;
      readonly status: "compacted" | "failed";
      /** Projection tokens before and after (after the fallback's shortening, when it failed). */
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      /** The summary record (1, 2, … in the session) and what it covers. */
      readonly summary?: number;
      readonly fromTurn?: number;
      readonly throughTurn?: number;
      readonly fromSeq?: number;
      readonly throughSeq?: number;
      readonly coveredCalls?: number;
      readonly summaryTokens?: number;
      /** The stored index of every covered call (one line a call). */
      readonly indexOutputId?: string | null;
      /** It built on an earlier summary. */
      readonly recompaction?: boolean;
      /** The summarizer and its call (absent when the call never answered). */
      readonly model?: string | null;
      readonly inputTokens?: number;
      readonly outputTokens?: number;
      readonly durationMs: number;
      /** Why it failed, and what the projection did instead. */
      readonly error?: string;
      readonly code?: string;
      readonly fallback?: "handle-form";
      readonly shortened?: number;
    }
  | {
      /** A runtime assertion of the long-session invariants failed (see docs/agent-runtime.md). */
      readonly type: "invariant";
      readonly sessionId: string;
      readonly invariant: InvariantName;
      readonly message: string;
      readonly details: Readonly<Record<string, unknown>>;
    }
  | { readonly type: "status"; readonly sessionId: string; readonly text: string }
  | { readonly type: "warning"; readonly sessionId: string; readonly message: string }
  | {
      readonly type: "session.end";
      readonly sessionId: string;
      readonly status: "completed" | "failed" | "aborted";
      readonly report: string | null;
      readonly error: string | null;
      readonly usage: UsageReport;
    };

/** Receives events; may be called from sub-agent sessions too (look at `sessionId`). */
export type AgentEventListener = (event: AgentEvent & { readonly depth: number }) => void;

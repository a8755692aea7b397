/**
 * Agent events projected for SSE. A projection, never canonical: tool results appear as a
 * display-limited preview with explicit metadata (`preview: true`, the output id, total bytes,
 * bytes shown); the whole result stays in the store and in the canonical history. Events of a
 * session are projected in order (one chain a session).
 */
import type { AgentEvent } from "../agent/events.js";
import { isSpillwayError } from "../core/errors.js";
import { readOutput } from "../retrieval/read-output.js";
import type { OutputStore } from "../store/output-store.js";
import {
  type ContextThresholds,
  contextStatus,
  thresholdLabel,
  thresholdsFrom,
} from "./context-status.js";
import type { WireEvent } from "./event-hub.js";

/** A tool result's preview on the event stream. */
export interface ResultPreview {
  readonly preview: true;
  readonly outputId: string;
  readonly totalBytes: number;
  readonly bytesShown: number;
  /** The first characters of the stored output (empty for binary outputs). */
  readonly text: string;
  readonly kind: string | null;
  /** Where the whole output is: the canonical record and its bytes. */
  readonly canonical: { readonly record: string; readonly raw: string };
}

export interface ProjectionOptions {
  readonly outputs: OutputStore;
  /** Characters of a tool result previewed (default 2000). */
  readonly previewChars: number;
  /** The context window (tokens) of a model ref in a session, when known. */
  readonly contextWindowOf: (sessionId: string, model: string) => Promise<number | null>;
  /** Thresholds a session reports (compaction settings), when any. */
  readonly thresholdsOf?: (sessionId: string) => Promise<ContextThresholds | undefined>;
}

/** The display-limited preview of a stored output. */
export async function previewOf(
  outputs: OutputStore,
  outputId: string,
  chars: number,
): Promise<ResultPreview | null> {
  try {
    const record = await outputs.get(outputId, { allSessions: true });
    if (record.status !== "ready") return null;
    const totalBytes = record.byteSize ?? 0;
    const canonical = { record: `/v1/outputs/${outputId}`, raw: `/v1/outputs/${outputId}/raw` };
    if (record.kind === "binary")
      return {
        preview: true,
        outputId,
        totalBytes,
        bytesShown: 0,
        text: "",
        kind: record.kind,
        canonical,
      };
    const slice = await readOutput(
      outputs,
      outputId,
      { allSessions: true },
      {
        mode: "slice",
        start: 0,
        length: Math.min(chars, record.charCount ?? 0),
        maxChars: chars + 2,
      },
    );
    const bytesShown = slice.found ? slice.provenance.byteEnd : 0;
    return {
      preview: true,
      outputId,
      totalBytes,
      bytesShown,
      text: slice.found ? slice.text : "",
      kind: record.kind,
      canonical,
    };
  } catch (error) {
    if (isSpillwayError(error)) return null;
    throw error;
  }
}

/** Text longer than `max` characters, cut, with the cut said in metadata. */
function limitedText(
  text: string | null,
  max: number,
): { text: string | null; cut?: { preview: true; totalChars: number; charsShown: number } } {
  if (text === null || text.length <= max) return { text };
  return {
    text: text.slice(0, max),
    cut: { preview: true, totalChars: text.length, charsShown: max },
  };
}

/**
 * Projects one agent event into the events sent on the session's stream (none, one or two).
 *
 * @example
 * const events = await projectEvent(options, { type: "turn.start", sessionId, turn: 1, maxTurns: 10, final: false, depth: 0 });
 * // [{ type: "turn", sessionId, depth: 0, turn: 1, maxTurns: 10, final: false }]
 */
export async function projectEvent(
  options: ProjectionOptions,
  event: AgentEvent & { readonly depth: number },
): Promise<WireEvent[]> {
  const base = { sessionId: event.sessionId, depth: event.depth };
  switch (event.type) {
    case "session.start":
      return [{ ...event, ...base }];
    case "turn.start":
      return [
        { ...base, type: "turn", turn: event.turn, maxTurns: event.maxTurns, final: event.final },
      ];
    case "model.call": {
      const { type: _type, ...rest } = event;
      const out: WireEvent[] = [{ ...rest, ...base, type: "model.call" }];
      const windowTokens = await options.contextWindowOf(event.sessionId, event.model);
      if (windowTokens) {
        const thresholds = thresholdsFrom(await options.thresholdsOf?.(event.sessionId));
        out.push({
          ...base,
          type: "context",
          ...contextStatus({
            turn: event.turn,
            model: event.model,
            inputTokens: event.inputTokens,
            outputTokens: event.outputTokens,
            windowTokens,
            thresholds,
          }),
        });
      }
      return out;
    }
    case "tool.start":
      return [
        {
          ...base,
          type: "tool.start",
          turn: event.turn,
          toolCallId: event.toolCallId,
          toolName: event.toolName,
        },
      ];
    case "tool.end": {
      const { type: _type, ...rest } = event;
      const preview = event.outputId
        ? await previewOf(options.outputs, event.outputId, options.previewChars)
        : null;
      return [{ ...rest, ...base, type: "tool.end", ...(preview ? { result: preview } : {}) }];
    }
    case "tool.async":
      return [
        {
          ...base,
          type: "background",
          state: "running",
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          outputId: event.outputId,
          trigger: event.trigger,
        },
      ];
    case "tool.done": {
      const { type: _type, status, ...rest } = event;
      const preview =
        status === "ready"
          ? await previewOf(options.outputs, event.outputId, options.previewChars)
          : null;
      return [
        {
          ...rest,
          ...base,
          type: "background",
          state: status,
          ...(preview ? { result: preview } : {}),
        },
      ];
    }
    case "session.end": {
      const report = limitedText(event.report, options.previewChars * 4);
      return [
        {
          ...base,
          type: "final",
          status: event.status,
          report: report.text,
          ...(report.cut ? { reportPreview: report.cut } : {}),
          error: event.error,
          usage: event.usage,
        },
      ];
    }
    default: {
      const type: string = event.type;
      if (type.startsWith("compaction"))
        return [{ ...event, ...base, type: "compaction", kind: type }];
      if (event.type === "context") {
        // The projection's own count before the call (the tokens it sends, against the input
        // window), in the same wire shape as the status after a model call: `source` tells them
        // apart.
        const { type: _type, ...usage } = event;
        return [
          {
            ...usage,
            ...base,
            type: "context",
            source: "projection",
            usedTokens: usage.tokens,
            windowTokens: usage.inputWindow,
            fraction: usage.used,
            label: thresholdLabel(usage.thresholds),
          },
        ];
      }
      if (type.startsWith("context")) {
        // Another window status a session reports about itself is passed through.
        return [{ ...event, ...base, type: "context" }];
      }
      if (type.startsWith("extraction.")) {
        const { type: kind, ...rest } = event;
        return [{ ...rest, ...base, type: "extraction", kind }];
      }
      return [{ ...event, ...base }];
    }
  }
}

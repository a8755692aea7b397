import { randomBytes } from "node:crypto";
import { SpillwayError } from "../core/errors.js";
import type { ModelReply, ModelRequest } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import type { OpenedOutput, OutputRecord } from "../store/output-store.js";
import type { ExtractionCache } from "../store/sqlite-extraction-cache.js";
import type { TextReader } from "../store/text-reader.js";
import { type ParsedAnswer, parseAnswer, unwrapFinalReport } from "./final-report.js";
import type { SourceInfo } from "./prompts.js";
import type { ExtractionSettings } from "./settings.js";

/** An extraction event, for progress and the trace (sizes and capped previews, never chunks). */
export type ExtractionEvent =
  | {
      readonly type: "extraction.start";
      readonly outputId: string;
      readonly strategy: string;
      readonly requested: string;
      readonly chunks: number;
      readonly toolCallId?: string;
    }
  | {
      readonly type: "extraction.call";
      readonly outputId: string;
      readonly phase: "map" | "reduce";
      /** 1-based chunk number (map calls). */
      readonly chunk?: number;
      readonly chunks: number;
      readonly model: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      readonly latencyMs: number;
      readonly requestBytes: number;
      readonly responsePreview: string;
      readonly cached: boolean;
      readonly toolCallId?: string;
    }
  | {
      readonly type: "extraction.end";
      readonly outputId: string;
      readonly strategy: string;
      readonly found: boolean;
      readonly snippets: number;
      readonly unverified: number;
      readonly cached: boolean;
      readonly fallbackFrom?: string;
      readonly reason?: string;
      readonly durationMs: number;
      readonly toolCallId?: string;
    };

/** Everything one extraction run needs. */
export interface ExtractionRun {
  readonly output: OpenedOutput;
  readonly record: OutputRecord;
  readonly reader: TextReader;
  readonly query: string;
  readonly source: SourceInfo;
  readonly settings: ExtractionSettings;
  readonly targets: readonly ModelTarget[];
  readonly cache: ExtractionCache | undefined;
  readonly signal: AbortSignal | undefined;
  readonly toolCallId: string | undefined;
  readonly callModel: (
    targets: readonly ModelTarget[],
    request: ModelRequest,
  ) => Promise<ModelReply>;
  /** Records a model call's usage (joins the session's totals, like a sub-agent's). */
  readonly onModelCall: (reply: ModelReply) => void;
  readonly emit: (event: ExtractionEvent) => void;
}

const PREVIEW_CHARS = 200;

/** Waits before a retry: 250 ms, then 500 ms, … (not at all once aborted). */
function backoff(attempt: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, 250 * 2 ** (attempt - 1)));
}

export function newNonce(): string {
  return randomBytes(6).toString("hex");
}

/**
 * One extraction call with the extraction prompts' final-report contract: asks the model, unwraps
 * its answer; a reply without the wrapper (or a model error) is retried `settings.retries` times,
 * then the call fails with EXTRACTION_FAILED (a failure, not "nothing found").
 */
export async function askForAnswer(
  run: ExtractionRun,
  call: {
    readonly phase: "map" | "reduce";
    readonly chunk?: number;
    readonly chunks: number;
    readonly system: (nonce: string) => string;
    readonly user: string;
  },
): Promise<{ parsed: ParsedAnswer; model: string }> {
  let lastProblem = "";
  for (let attempt = 0; attempt <= run.settings.retries; attempt++) {
    if (attempt > 0) await backoff(attempt, run.signal);
    const nonce = newNonce();
    const system = call.system(nonce);
    let reply: ModelReply;
    try {
      reply = await run.callModel(run.targets, {
        system,
        messages: [{ role: "user", content: call.user }],
        tools: [],
        ...(run.signal ? { signal: run.signal } : {}),
      });
    } catch (error) {
      if (run.signal?.aborted) throw error;
      lastProblem = (error as Error).message;
      continue;
    }
    run.onModelCall(reply);
    run.emit({
      type: "extraction.call",
      outputId: run.record.id,
      phase: call.phase,
      ...(call.chunk !== undefined ? { chunk: call.chunk } : {}),
      chunks: call.chunks,
      model: reply.target.ref,
      inputTokens: reply.usage.inputTokens,
      outputTokens: reply.usage.outputTokens,
      latencyMs: reply.latencyMs,
      requestBytes: Buffer.byteLength(system) + Buffer.byteLength(call.user),
      responsePreview: reply.text.slice(0, PREVIEW_CHARS),
      cached: false,
      ...(run.toolCallId ? { toolCallId: run.toolCallId } : {}),
    });
    const content = unwrapFinalReport(reply.text, nonce);
    if (content !== undefined) return { parsed: parseAnswer(content), model: reply.target.ref };
    lastProblem = `${reply.target.ref} answered without the final-report wrapper`;
  }
  const where = call.phase === "map" ? `chunk ${call.chunk} of ${call.chunks}` : "the reduce step";
  throw new SpillwayError(
    "EXTRACTION_FAILED",
    `The extraction model failed on ${where} after ${run.settings.retries + 1} attempts: ${lastProblem}`,
    { outputId: run.record.id, phase: call.phase },
    { fault: "tool" },
  );
}

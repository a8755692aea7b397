import { createHash } from "node:crypto";
import { isSpillwayError, SpillwayError } from "../core/errors.js";
import { countTokens } from "../core/tokens.js";
import type { ModelReply, ModelRequest } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import { textReaderOf } from "../retrieval/common.js";
import type { OpenedOutput, OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import type { ExtractionCache } from "../store/sqlite-extraction-cache.js";
import { type ChunkPlan, chunkTokensFor, planChunks } from "./chunker.js";
import type { Extractor } from "./extractor.js";
import { runFullChunked } from "./full-chunked.js";
import { mapSystemPrompt, type SourceInfo } from "./prompts.js";
import { type ReadGrepRunner, runReadGrep } from "./read-grep.js";
import { type ExtractionResult, renderExtraction } from "./result.js";
import type { ExtractionEvent, ExtractionRun } from "./run-context.js";
import {
  EXTRACTION_PROMPT_VERSION,
  type ExtractionSettings,
  type ExtractionStrategy,
} from "./settings.js";
import { truncateToFit } from "./truncate.js";

export interface ExtractionServices {
  readonly outputs: OutputStore;
  readonly scope: ReadScope;
  readonly settings: ExtractionSettings;
  /** The models that served the current turn (the default extraction models). */
  readonly servingTargets: () => readonly ModelTarget[];
  readonly callModel: (
    targets: readonly ModelTarget[],
    request: ModelRequest,
  ) => Promise<ModelReply>;
  readonly cache?: ExtractionCache;
  /** Starts the read-grep sub-agent; without it, read-grep cannot run. */
  readonly readGrep?: ReadGrepRunner;
  /** Each model call of an extraction, for the session's accounting. */
  readonly onModelCall: (reply: ModelReply) => void;
  readonly emit: (event: ExtractionEvent) => void;
}

export interface ExtractionRequest {
  readonly output: OutputRecord;
  readonly query: string;
  readonly strategy: ExtractionStrategy;
  readonly toolCallId?: string;
  readonly signal?: AbortSignal;
  /** Characters a truncate answer may take (default 8000). */
  readonly maxChars?: number;
}

const DEFAULT_TRUNCATE_CHARS = 8000;

function source(record: OutputRecord): SourceInfo {
  return {
    toolName: record.toolName,
    toolArgs: record.toolArgs,
    bytes: record.byteSize ?? 0,
    lines: record.lineCount ?? 0,
    tokens: record.tokenEstimate ?? 0,
  };
}

function declined(message: string, details: Record<string, unknown>): SpillwayError {
  return new SpillwayError("EXTRACTION_DECLINED", message, details, { fault: "model" });
}

/**
 * Extraction (map-reduce over chunks, quotes verified with provenance): a model
 * reads a stored output for a query. Routes `auto` (one chunk, or long lines →
 * full-chunked; otherwise read-grep), runs the strategy, verifies every quote against the
 * output, caches answers, and falls back to truncate, saying so, when a strategy cannot run.
 *
 * @example
 * const engine = new ExtractionEngine(services);
 * const result = await engine.run({ output: record, query: "the failing request id", strategy: "auto" });
 * console.log(result.answer, result.snippets[0]?.charStart);
 */
export class ExtractionEngine implements Extractor {
  constructor(private readonly services: ExtractionServices) {}

  /** The surfaces' interface: rendered text, and whether it failed. */
  async extract(
    request: ExtractionRequest,
  ): Promise<{ strategy: string; text: string; failed: boolean }> {
    try {
      const result = await this.run(request);
      return { strategy: result.strategy, text: renderExtraction(result), failed: false };
    } catch (error) {
      if (isSpillwayError(error, "EXTRACTION_DECLINED", "EXTRACTION_FAILED")) {
        return { strategy: request.strategy, text: error.message, failed: true };
      }
      throw error;
    }
  }

  async run(request: ExtractionRequest): Promise<ExtractionResult> {
    const started = performance.now();
    const { outputs, scope, settings } = this.services;
    const targets = settings.models ?? this.services.servingTargets();
    if (request.output.kind === "binary") {
      throw declined(`Output ${request.output.id} is binary; extraction reads text.`, {
        outputId: request.output.id,
      });
    }
    if (targets.length === 0) throw declined("No extraction model is configured.", {});
    const key = this.resultKey(request, targets[0]!.ref);
    const hit = (await this.services.cache?.get(key)) as ExtractionResult | undefined;
    if (hit) {
      // The key holds the content's SHA-256: a hit fits any output with the same content.
      const result = { ...hit, outputId: request.output.id, cached: true };
      this.end(request, result, started);
      return result;
    }
    const opened = await outputs.open(request.output.id, scope);
    try {
      const run = this.runContext(opened, request, targets);
      const plan = await this.plan(run);
      const strategy = this.route(request.strategy, run, plan);
      this.services.emit({
        type: "extraction.start",
        outputId: run.record.id,
        strategy,
        requested: request.strategy,
        chunks: strategy === "full-chunked" ? plan.chunks.length : 1,
        ...(request.toolCallId ? { toolCallId: request.toolCallId } : {}),
      });
      let result: ExtractionResult;
      try {
        result = {
          ...(await this.execute(strategy, run, plan, request)),
          requested: request.strategy,
          cached: false,
        };
      } catch (error) {
        if (
          !isSpillwayError(error, "EXTRACTION_FAILED", "MODEL_UNAVAILABLE") ||
          request.signal?.aborted
        )
          throw error;
        // D0-4: a strategy that could not run falls back to truncate, and says so first.
        const truncated = await this.truncate(opened, request);
        result = {
          ...truncated,
          requested: request.strategy,
          cached: false,
          fallback: { from: strategy, reason: error.message },
        };
      }
      if (!result.fallback && result.strategy !== "truncate")
        await this.services.cache?.put(key, "result", result);
      this.end(request, result, started);
      return result;
    } finally {
      await opened.close();
    }
  }

  private runContext(
    opened: OpenedOutput,
    request: ExtractionRequest,
    targets: readonly ModelTarget[],
  ): ExtractionRun {
    return {
      output: opened,
      record: opened.record,
      reader: textReaderOf(opened, "raw"),
      query: request.query,
      source: source(opened.record),
      settings: this.services.settings,
      targets,
      cache: this.services.cache,
      signal: request.signal,
      toolCallId: request.toolCallId,
      callModel: this.services.callModel,
      onModelCall: this.services.onModelCall,
      emit: this.services.emit,
    };
  }

  /** Chunks sized from the smallest context window of the extraction models. */
  private async plan(run: ExtractionRun): Promise<ChunkPlan> {
    const model = {
      contextWindow: Math.min(...run.targets.map((t) => t.contextWindow)),
      maxOutputTokens: Math.max(...run.targets.map((t) => t.maxOutputTokens)),
    };
    const prompt = mapSystemPrompt(
      run.source,
      { index: 1, total: 1 },
      run.settings.chunkOverlapPercent,
      run.query,
      "000000000000",
    );
    const promptTokens = (await countTokens(prompt)) + 200;
    const chars = run.record.charCount ?? 0;
    const charsPerToken = chars / Math.max(1, run.record.tokenEstimate ?? chars / 4);
    return planChunks(run.reader, {
      chunkTokens: chunkTokensFor(run.settings.chunkSize, model, promptTokens),
      // Slightly fewer characters than the estimate allows: estimates can be low by a little.
      charsPerToken: charsPerToken * 0.95,
      overlapPercent: run.settings.chunkOverlapPercent,
    });
  }

  /** Routing for auto; explicit strategies are taken as asked. */
  private route(
    requested: ExtractionStrategy,
    run: ExtractionRun,
    plan: ChunkPlan,
  ): ExtractionStrategy {
    const { settings } = run;
    const chunks = plan.chunks.length;
    const tooMany = () =>
      declined(
        `Reading ${run.record.id} whole would take ${chunks} chunks, over maxChunks=${settings.maxChunks} (each chunk is a model call). ` +
          `Search it instead: get_tool_output(id="${run.record.id}", mode="grep", pattern=…) or mode="slice", ` +
          `or extract with strategy "read-grep", or raise extraction.maxChunks.`,
        { outputId: run.record.id, chunks, maxChunks: settings.maxChunks },
      );
    if (requested === "truncate" || requested === "read-grep") return requested;
    if (requested === "full-chunked") {
      if (chunks > settings.maxChunks) throw tooMany();
      return requested;
    }
    const averageLineBytes = (run.record.byteSize ?? 0) / Math.max(1, run.record.lineCount ?? 0);
    if (
      chunks <= settings.fullModeMaxChunks ||
      averageLineBytes >= settings.longLineBytes ||
      !this.services.readGrep
    ) {
      // Long lines defeat line-oriented reading: chunk them (bounded by maxChunks) rather than fail.
      if (chunks > settings.maxChunks) throw tooMany();
      return "full-chunked";
    }
    return "read-grep";
  }

  private async execute(
    strategy: ExtractionStrategy,
    run: ExtractionRun,
    plan: ChunkPlan,
    request: ExtractionRequest,
  ) {
    if (strategy === "full-chunked") return runFullChunked(run, plan);
    if (strategy === "read-grep") {
      if (!this.services.readGrep) {
        throw new SpillwayError(
          "EXTRACTION_FAILED",
          'Strategy "read-grep" is not available here (no sub-agent can run in this session); use "auto", "full-chunked" or "truncate".',
          {},
          { fault: "tool" },
        );
      }
      return runReadGrep(run, this.services.readGrep);
    }
    return this.truncate(run.output, request);
  }

  private async truncate(
    opened: OpenedOutput,
    request: ExtractionRequest,
  ): Promise<Omit<ExtractionResult, "requested" | "cached">> {
    return {
      strategy: "truncate",
      found: true,
      answer: await truncateToFit(opened, request.maxChars ?? DEFAULT_TRUNCATE_CHARS),
      snippets: [],
      unverified: 0,
      outputId: opened.record.id,
      sourceHash: opened.record.sha256,
      sourceSize: opened.record.byteSize ?? 0,
      chunksSearched: 0,
      chunksTotal: 0,
      confidence: 0,
      model: null,
    };
  }

  private resultKey(request: ExtractionRequest, model: string): string {
    const s = this.services.settings;
    return createHash("sha256")
      .update(
        JSON.stringify([
          EXTRACTION_PROMPT_VERSION,
          "result",
          request.output.sha256,
          request.query,
          request.strategy,
          model,
          s.chunkSize,
          s.chunkOverlapPercent,
          s.maxChunks,
          s.fullModeMaxChunks,
          s.longLineBytes,
        ]),
      )
      .digest("hex");
  }

  private end(request: ExtractionRequest, result: ExtractionResult, started: number): void {
    this.services.emit({
      type: "extraction.end",
      outputId: request.output.id,
      strategy: result.strategy,
      found: result.found,
      snippets: result.snippets.length,
      unverified: result.unverified,
      cached: result.cached,
      durationMs: performance.now() - started,
      ...(result.fallback
        ? { fallbackFrom: result.fallback.from, reason: result.fallback.reason }
        : {}),
      ...(request.toolCallId ? { toolCallId: request.toolCallId } : {}),
    });
  }
}

/**
 * The extraction benchmark's measurements: fresh stores, engines, the context-window probe, one
 * checked extraction run, the seed's reduce call and cache hits.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { isSpillwayError } from "../src/core/errors.js";
import { ExtractionEngine } from "../src/extraction/engine.js";
import { reduceSystemPrompt } from "../src/extraction/prompts.js";
import type { ExtractionResult } from "../src/extraction/result.js";
import type { ExtractionEvent } from "../src/extraction/run-context.js";
import { DEFAULT_EXTRACTION } from "../src/extraction/settings.js";
import { callModel, type ModelReply } from "../src/providers/model-caller.js";
import type { ModelTarget } from "../src/providers/models.js";
import type { OutputRecord } from "../src/store/output-store.js";
import { openSqliteStores, type SpillwayStores } from "../src/store/sqlite-history-store.js";
import { type ModelServer, targetOf } from "./extract-model-process.js";
import type { ServerSpan } from "./extract-model-server.js";
import { type BenchLog, queryOf, type Scenario } from "./extract-policy.js";
import { forceGc } from "./measure.js";

export const CHUNKS = 10;
export const CACHE_REPEATS = 5;
const SESSION = "ses_bench";
const RETRY_ONCE = { retry: { attempts: 1, backoffMs: 0 } } as const;
const epochMs = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------
// Stores and engines.

export interface Kept {
  readonly stores: SpillwayStores;
  readonly home: string;
  readonly record: OutputRecord;
}

/** A fresh store (an empty extraction cache) holding the log. */
export async function freshStore(root: string, text: string): Promise<Kept> {
  const home = await mkdtemp(join(root, "store-"));
  const stores = await openSqliteStores({ home });
  const record = await stores.outputs.put(
    { sessionId: SESSION, toolName: "logs__read", toolArgs: '{"file":"app.log"}' },
    text,
  );
  return { stores, home, record };
}

export async function dropStore(kept: Kept): Promise<void> {
  await kept.stores.close();
  await rm(kept.home, { recursive: true, force: true });
}

/** One model call of a run as the engine saw it, in ms from the start of the run. */
export interface CallSpan {
  /** "map:<chunk>" or "reduce:", as the server names it. */
  readonly call: string;
  readonly phase: "map" | "reduce";
  readonly startMs: number;
  readonly endMs: number;
  readonly relevant: boolean;
}

interface Recorder {
  t0: number;
  readonly events: ExtractionEvent[];
  readonly calls: CallSpan[];
  readonly replies: ModelReply[];
}

function engineFor(
  kept: Kept,
  target: ModelTarget,
  settings: { concurrency: number; maxChunks?: number },
  recorder?: Recorder,
): ExtractionEngine {
  return new ExtractionEngine({
    outputs: kept.stores.outputs,
    scope: { sessionId: SESSION },
    settings: { ...DEFAULT_EXTRACTION, models: [target], ...settings },
    servingTargets: () => [target],
    callModel: (targets, request) => callModel(targets, request, RETRY_ONCE),
    cache: kept.stores.extractionCache,
    onModelCall: (reply) => recorder?.replies.push(reply),
    emit: (event) => {
      if (!recorder) return;
      recorder.events.push(event);
      if (event.type === "extraction.call" && !event.cached) {
        const endMs = performance.now() - recorder.t0;
        recorder.calls.push({
          call: `${event.phase}:${event.chunk ?? ""}`,
          phase: event.phase,
          startMs: endMs - event.latencyMs,
          endMs,
          relevant: !event.responsePreview.includes("NO RELEVANT DATA FOUND"),
        });
      }
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Picking the context window: the engine's own planner, probed without model calls.

/**
 * The chunks the engine plans for `query` with this context window. With maxChunks = 0 every
 * full-chunked plan is over the limit, and the engine declines with EXTRACTION_DECLINED, whose
 * details give the planned count; no model is called.
 */
async function plannedChunks(kept: Kept, contextWindow: number, query: string): Promise<number> {
  const engine = engineFor(kept, targetOf("http://127.0.0.1:9/v1", contextWindow), {
    concurrency: 1,
    maxChunks: 0,
  });
  try {
    await engine.run({ output: kept.record, query, strategy: "full-chunked" });
  } catch (error) {
    if (isSpillwayError(error, "EXTRACTION_DECLINED") && typeof error.details.chunks === "number")
      return error.details.chunks;
    throw error;
  }
  throw new Error("the chunk-count probe ran an extraction instead of declining");
}

/** The smallest context window in [low, high] whose plan has at most `chunks` chunks. */
async function smallestWindowFor(
  kept: Kept,
  query: string,
  chunks: number,
  low: number,
  high: number,
): Promise<number> {
  if ((await plannedChunks(kept, high, query)) > chunks) {
    throw new Error(`even a ${high}-token window plans over ${chunks} chunks`);
  }
  let lo = low;
  let hi = high;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await plannedChunks(kept, mid, query)) <= chunks) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * A context window in the middle of the range that plans exactly CHUNKS chunks for every query
 * (so a few tokens more or less of prompt cannot tip the count), and that range.
 */
export async function pickContextWindow(
  kept: Kept,
  queries: readonly string[],
): Promise<{ contextWindow: number; range: [number, number] }> {
  let low = 0;
  let high = Number.POSITIVE_INFINITY;
  for (const query of queries) {
    const first = await smallestWindowFor(kept, query, CHUNKS, 1024, 16_000_000);
    const past = await smallestWindowFor(kept, query, CHUNKS - 1, first, 16_000_000);
    low = Math.max(low, first);
    high = Math.min(high, past - 1);
  }
  if (low > high) throw new Error(`no context window plans exactly ${CHUNKS} chunks`);
  const contextWindow = Math.floor((low + high) / 2);
  for (const query of queries) {
    const planned = await plannedChunks(kept, contextWindow, query);
    if (planned !== CHUNKS) throw new Error(`window ${contextWindow} plans ${planned} chunks`);
  }
  return { contextWindow, range: [low, high] };
}

// ---------------------------------------------------------------------------------------------
// One measured run.

export interface RunMeasure {
  readonly scenario: Scenario;
  readonly concurrency: number;
  readonly wallMs: number;
  /** Chunks the engine planned (its extraction.start event). */
  readonly chunks: number;
  readonly requests: number;
  readonly mapCalls: number;
  readonly reduceCalls: number;
  readonly relevantMaps: number;
  /** Model calls as the engine saw them (client side). */
  readonly calls: CallSpan[];
  /** The same requests as the server saw them, in ms from the start of the run. */
  readonly serverSpans: ServerSpan[];
  /** CPU time of this process during the run: the engine, the AI SDK, the HTTP client. */
  readonly clientCpuMs: number;
  /** CPU time of the model server during the run. */
  readonly serverCpuMs: number;
  readonly replies: ModelReply[];
  readonly result: ExtractionResult;
}

export interface BenchEnv {
  readonly root: string;
  readonly server: ModelServer;
  readonly log: BenchLog;
  readonly target: ModelTarget;
}

/**
 * One extraction on a fresh store, checked: the planned chunk count, one request per map and
 * reduce call (none answered by a cache), the scenario's answer. `after` runs while the store
 * is still open (the cache-hit measurement).
 */
export async function measureRun(
  env: BenchEnv,
  scenario: Scenario,
  concurrency: number,
  options: {
    readonly warmUp?: boolean;
    readonly after?: (engine: ExtractionEngine, kept: Kept) => Promise<void>;
  } = {},
): Promise<RunMeasure> {
  const kept = await freshStore(env.root, env.log.text);
  try {
    const recorder: Recorder = { t0: 0, events: [], calls: [], replies: [] };
    const engine = engineFor(kept, env.target, { concurrency }, recorder);
    const query = queryOf(scenario, options.warmUp);
    const before = await env.server.stats();
    forceGc();
    const cpu = process.cpuUsage();
    recorder.t0 = performance.now();
    const epoch0 = epochMs();
    const result = await engine.run({ output: kept.record, query, strategy: "full-chunked" });
    const wallMs = performance.now() - recorder.t0;
    const cpuUsed = process.cpuUsage(cpu);
    const after = await env.server.stats();
    const start = recorder.events.find((e) => e.type === "extraction.start");
    const measure: RunMeasure = {
      scenario,
      concurrency,
      wallMs,
      chunks: start?.type === "extraction.start" ? start.chunks : -1,
      requests: after.requests - before.requests,
      mapCalls: recorder.calls.filter((c) => c.phase === "map").length,
      reduceCalls: recorder.calls.filter((c) => c.phase === "reduce").length,
      relevantMaps: recorder.calls.filter((c) => c.phase === "map" && c.relevant).length,
      calls: recorder.calls,
      serverSpans: after.spans.slice(before.spans.length).map((s) => ({
        call: s.call,
        startMs: s.startMs - epoch0,
        endMs: s.endMs - epoch0,
      })),
      clientCpuMs: (cpuUsed.user + cpuUsed.system) / 1000,
      serverCpuMs: after.cpuMs - before.cpuMs,
      replies: recorder.replies,
      result,
    };
    check(env, measure, after.failures);
    await options.after?.(engine, kept);
    return measure;
  } finally {
    await dropStore(kept);
  }
}

function check(env: BenchEnv, m: RunMeasure, failures: readonly string[]): void {
  const problems: string[] = [];
  if (failures.length > 0) problems.push(`server failures: ${failures.join("; ")}`);
  if (m.chunks !== CHUNKS || m.result.chunksTotal !== CHUNKS)
    problems.push(`planned ${m.chunks} chunks (result: ${m.result.chunksTotal}), wanted ${CHUNKS}`);
  if (m.result.cached) problems.push("the result came from the cache");
  const wantReduce = m.scenario === "all-relevant" ? 1 : 0;
  if (m.mapCalls !== CHUNKS || m.reduceCalls !== wantReduce)
    problems.push(`${m.mapCalls} map and ${m.reduceCalls} reduce calls`);
  if (m.requests !== CHUNKS + wantReduce)
    problems.push(`${m.requests} requests reached the server`);
  const served = new Set(m.serverSpans.map((s) => s.call));
  if (m.calls.some((c) => !served.has(c.call))) problems.push("a call has no server timing");
  const { result } = m;
  if (m.scenario === "needle") {
    if (m.relevantMaps !== 1) problems.push(`${m.relevantMaps} map answers were relevant, not 1`);
    if (!hasNeedle(env.log, result)) problems.push("the needle is not a verified snippet");
  } else {
    if (m.relevantMaps !== CHUNKS) problems.push(`${m.relevantMaps} relevant map answers`);
    if (result.snippets.length !== CHUNKS || result.unverified !== 0)
      problems.push(
        `${result.snippets.length} verified and ${result.unverified} unverified quotes`,
      );
    for (const s of result.snippets) {
      if (env.log.text.slice(s.charStart, s.charEnd) !== s.text)
        problems.push(`the snippet at ${s.charStart} does not match the log`);
    }
  }
  if (problems.length > 0) {
    throw new Error(`${m.scenario}, concurrency ${m.concurrency}: ${problems.join("; ")}`);
  }
}

/** The needle's line is among the verified snippets, at its place in the log. */
export function hasNeedle(log: BenchLog, result: ExtractionResult): boolean {
  return (
    result.found &&
    result.snippets.some(
      (s) =>
        s.text === log.needleLine &&
        s.lineStart === log.needleLineNumber &&
        log.text.slice(s.charStart, s.charEnd) === log.needleLine,
    )
  );
}

/**
 * The reduce call the seed makes after its maps even when one chunk found something (spillway
 * skips it then): the reduce prompt over the run's 10 chunk answers, through the same provider
 * path and server, timed.
 */
export async function measureSeedReduce(env: BenchEnv, run: RunMeasure): Promise<number> {
  const outputs = run.replies
    .map((reply, i) => {
      const text = reply.text.replace(/<\/?ai-agent-[0-9a-f]+-FINAL[^>]*>/g, "").trim();
      return `--- chunk ${i + 1} of ${CHUNKS} ---\n${text}`;
    })
    .join("\n\n");
  const source = {
    toolName: "logs__read",
    toolArgs: '{"file":"app.log"}',
    bytes: run.result.sourceSize,
    lines: env.log.text.split("\n").length - 1,
    tokens: 0,
  };
  const nonce = "5eed0000cafe";
  const before = await env.server.stats();
  const started = performance.now();
  const reply = await callModel(
    [env.target],
    {
      system: reduceSystemPrompt(source, queryOf(run.scenario), outputs, nonce),
      messages: [{ role: "user", content: `Synthesize the ${CHUNKS} chunk extractions above.` }],
      tools: [],
    },
    RETRY_ONCE,
  );
  const elapsed = performance.now() - started;
  const after = await env.server.stats();
  if (!reply.text.includes(`<ai-agent-${nonce}-FINAL`) || after.requests - before.requests !== 1) {
    throw new Error("the seed's reduce call did not get a reduce answer");
  }
  return elapsed;
}

/**
 * The same query again on the same engine and store, CACHE_REPEATS times: each must be a cache
 * hit (and keep the needle). Returns the times and the requests that reached the server.
 */
export async function measureCacheHits(
  env: BenchEnv,
  engine: ExtractionEngine,
  kept: Kept,
  scenario: Scenario,
): Promise<{ times: number[]; newRequests: number }> {
  const before = await env.server.stats();
  const times: number[] = [];
  for (let i = 0; i < CACHE_REPEATS; i++) {
    const started = performance.now();
    const result = await engine.run({
      output: kept.record,
      query: queryOf(scenario),
      strategy: "full-chunked",
    });
    times.push(performance.now() - started);
    if (!result.cached) throw new Error(`${scenario}: the repeated query was not a cache hit`);
    if (scenario === "needle" && !hasNeedle(env.log, result)) {
      throw new Error("the cached needle result lost the needle");
    }
  }
  return { times, newRequests: (await env.server.stats()).requests - before.requests };
}

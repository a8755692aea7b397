/** The extraction benchmark's figures: ratios, bounds, where the wall time went, the critical path. */
import { type CallSpan, CHUNKS, type RunMeasure } from "./extract-measure.js";
import type { Scenario } from "./extract-policy.js";
import { median } from "./report.js";

export const TARGETS = {
  parallelVsSequentialRatio: 0.35,
  overheadFraction: 0.05,
} as const;

export interface ScenarioRuns {
  readonly scenario: Scenario;
  readonly parallel: RunMeasure[];
  readonly sequential: RunMeasure[];
  /** needle only: the seed's reduce call, measured after each sequential run. */
  readonly seedReduceMs: number[];
  readonly cacheHitMs: number[];
  readonly cacheNewRequests: number;
}

/** Where the wall time of one parallel run went. */
export interface Overhead {
  readonly wallMs: number;
  /** rounds x latency (+ latency for the reduce): the wall time with nothing but the latency. */
  readonly idealMs: number;
  readonly overIdealMs: number;
  readonly overIdealFraction: number;
  /** The calls of the critical path: the chain of calls, one after another, that ended last. */
  readonly pathCalls: number;
  /** Server-side time of the critical path's calls: the model's time. */
  readonly modelMs: number;
  /** Of the model's time, what the scripted server took beyond the injected latency. */
  readonly serverExtraMs: number;
  /** Wall time minus the model's time on the critical path: spillway's overhead. */
  readonly overheadMs: number;
  readonly fraction: number;
  /** Diagnostics. */
  readonly beforeFirstCallMs: number;
  readonly afterLastCallMs: number;
  readonly noCallInFlightMs: number;
  /** Per call: client-side time minus server-side time (AI SDK, HTTP both ways). */
  readonly clientExcessMeanMs: number;
  readonly clientExcessMaxMs: number;
  /** Per call: server-side time minus the injected latency (parsing, token counting, queueing). */
  readonly serverExtraMeanMs: number;
  readonly serverExtraMaxMs: number;
  readonly clientCpuMs: number;
  readonly serverCpuMs: number;
}

export interface ScenarioFigures {
  readonly scenario: Scenario;
  readonly parallelMs: number;
  readonly sequentialMs: number;
  readonly seedReduceMs: number | null;
  /** The seed's baseline (not a floor): the sequential run plus (needle) the reduce call the seed always makes. */
  readonly seedBaselineMs: number;
  /** parallel / the seed's baseline. */
  readonly seedRatio: number;
  readonly seedBound: number;
  readonly boundText: string;
  /** The headline: parallel / sequential making exactly the same calls. */
  readonly ratio: number;
  /**
   * A real lower bound of the parallel run, measured in it: the model's server-side time along
   * its critical path (no implementation making these calls can end sooner).
   */
  readonly floorMs: number;
  /** floorMs / sequential: the lowest the ratio could be. */
  readonly floorRatio: number;
  /** The same bound from the injected latency alone: (ceil(maps / concurrency) + reduces) / calls. */
  readonly sameWorkBound: number;
  readonly sequentialOverMs: number;
  readonly overhead: Overhead;
  readonly cacheHitMs: number;
  readonly cacheHitMaxMs: number;
  readonly cacheNewRequests: number;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** Time covered by at least one call in flight. */
function inFlightMs(calls: readonly CallSpan[]): number {
  let total = 0;
  let from = 0;
  let to = Number.NEGATIVE_INFINITY;
  for (const span of [...calls].sort((a, b) => a.startMs - b.startMs)) {
    if (span.startMs > to) {
      if (to > from) total += to - from;
      from = span.startMs;
      to = span.endMs;
    } else to = Math.max(to, span.endMs);
  }
  return to > from ? total + to - from : total;
}

/**
 * The critical path: from the call that ended last, back through predecessors, where a call's
 * predecessor is the latest call to end before it started (its worker's previous call; for the
 * reduce, the last map).
 */
function criticalPath(calls: readonly CallSpan[]): CallSpan[] {
  const byEnd = [...calls].sort((a, b) => b.endMs - a.endMs);
  const path: CallSpan[] = [];
  for (let at = byEnd[0]; at !== undefined; ) {
    path.push(at);
    const start = at.startMs;
    at = byEnd.find((c) => c.endMs <= start && !path.includes(c));
  }
  return path.reverse();
}

function overheadOf(run: RunMeasure, latencyMs: number, concurrency: number): Overhead {
  const idealMs = (Math.ceil(run.mapCalls / concurrency) + run.reduceCalls) * latencyMs;
  const serverMs = new Map(run.serverSpans.map((s) => [s.call, s.endMs - s.startMs]));
  const served = (c: CallSpan) => serverMs.get(c.call) ?? Number.NaN;
  const path = criticalPath(run.calls);
  const modelMs = path.reduce((sum, c) => sum + served(c), 0);
  const clientExcess = run.calls.map((c) => c.endMs - c.startMs - served(c));
  const serverExtra = run.calls.map((c) => served(c) - latencyMs);
  return {
    wallMs: run.wallMs,
    idealMs,
    overIdealMs: run.wallMs - idealMs,
    overIdealFraction: (run.wallMs - idealMs) / run.wallMs,
    pathCalls: path.length,
    modelMs,
    serverExtraMs: modelMs - path.length * latencyMs,
    overheadMs: run.wallMs - modelMs,
    fraction: (run.wallMs - modelMs) / run.wallMs,
    beforeFirstCallMs: Math.min(...run.calls.map((c) => c.startMs)),
    afterLastCallMs: run.wallMs - Math.max(...run.calls.map((c) => c.endMs)),
    noCallInFlightMs: run.wallMs - inFlightMs(run.calls),
    clientExcessMeanMs: mean(clientExcess),
    clientExcessMaxMs: Math.max(...clientExcess),
    serverExtraMeanMs: mean(serverExtra),
    serverExtraMaxMs: Math.max(...serverExtra),
    clientCpuMs: run.clientCpuMs,
    serverCpuMs: run.serverCpuMs,
  };
}

/** The run of median wall time (the upper one of an even count). */
function medianRun(runs: readonly RunMeasure[]): RunMeasure {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
}

export function figuresOf(
  s: ScenarioRuns,
  latencyMs: number,
  concurrency: number,
): ScenarioFigures {
  const parallelMs = median(s.parallel.map((r) => r.wallMs));
  const sequentialMs = median(s.sequential.map((r) => r.wallMs));
  const seedBaselineMs = median(s.sequential.map((r, i) => r.wallMs + (s.seedReduceMs[i] ?? 0)));
  const rounds = Math.ceil(CHUNKS / concurrency);
  const reduces = s.scenario === "needle" ? 0 : 1;
  const sequential = medianRun(s.sequential);
  const overhead = overheadOf(medianRun(s.parallel), latencyMs, concurrency);
  return {
    scenario: s.scenario,
    parallelMs,
    sequentialMs,
    seedReduceMs: s.seedReduceMs.length > 0 ? median(s.seedReduceMs) : null,
    seedBaselineMs,
    seedRatio: parallelMs / seedBaselineMs,
    // The seed makes CHUNKS maps and one reduce in every scenario.
    seedBound: (rounds + reduces) / (CHUNKS + 1),
    boundText: `(ceil(${CHUNKS}/${concurrency})${reduces ? "+1" : ""})/(${CHUNKS}+1)`,
    ratio: parallelMs / sequentialMs,
    floorMs: overhead.modelMs,
    floorRatio: overhead.modelMs / sequentialMs,
    sameWorkBound: (rounds + reduces) / (CHUNKS + reduces),
    sequentialOverMs:
      sequential.wallMs - (sequential.mapCalls + sequential.reduceCalls) * latencyMs,
    overhead,
    cacheHitMs: median(s.cacheHitMs),
    cacheHitMaxMs: Math.max(...s.cacheHitMs),
    cacheNewRequests: s.cacheNewRequests,
  };
}

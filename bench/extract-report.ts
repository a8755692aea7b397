/** The extraction benchmark's tables and summary, from its figures (extract-figures.ts). */

import { type ScenarioFigures, type ScenarioRuns, TARGETS } from "./extract-figures.js";
import { CACHE_REPEATS, CHUNKS } from "./extract-measure.js";
import { fixed, ms, table, verdict } from "./report.js";

export interface ReportContext {
  readonly latencyMs: number;
  readonly concurrency: number;
  readonly repeats: number;
  readonly logBytes: number;
  readonly logLines: number;
  readonly contextWindow: number;
  readonly windowRange: [number, number];
}

const pct = (fraction: number) => `${fixed(fraction * 100)}%`;
const n = (value: number) => value.toLocaleString("en-US");
const below = (value: number, limit: number) => (value < limit ? "PASS" : "FAIL");

export function ratioTable(f: readonly ScenarioFigures[], c: ReportContext): string {
  return table(
    `MAP-REDUCE  ExtractionEngine.run(full-chunked), concurrency ${c.concurrency} vs concurrency 1 making exactly the same calls (median of ${c.repeats})`,
    [
      "scenario",
      "calls",
      "parallel",
      "sequential",
      "ratio",
      "floor (measured)",
      "floor ratio",
      "bound (latency)",
      "target",
      "result",
    ],
    f.map((r) => [
      r.scenario,
      r.scenario === "needle" ? `${CHUNKS} maps` : `${CHUNKS} maps + 1 reduce`,
      `${ms(r.parallelMs)} ms`,
      `${ms(r.sequentialMs)} ms`,
      fixed(r.ratio, 3),
      `${ms(r.floorMs)} ms`,
      fixed(r.floorRatio, 3),
      fixed(r.sameWorkBound, 3),
      `<= ${TARGETS.parallelVsSequentialRatio}`,
      verdict(r.ratio, TARGETS.parallelVsSequentialRatio) +
        (r.floorRatio > TARGETS.parallelVsSequentialRatio ? " (floor > target)" : ""),
    ]),
  );
}

export function sameWorkTable(f: readonly ScenarioFigures[]): string {
  return table(
    "AGAINST THE SEED  parallel vs the seed's baseline: the same maps one at a time, plus the reduce the seed always makes",
    [
      "scenario",
      "parallel",
      "sequential",
      "+ seed reduce",
      "seed baseline",
      "parallel / seed",
      "bound",
      "sequential - calls x latency",
    ],
    f.map((r) => [
      r.scenario,
      `${ms(r.parallelMs)} ms`,
      `${ms(r.sequentialMs)} ms`,
      r.seedReduceMs === null ? "(in the run)" : `${ms(r.seedReduceMs)} ms`,
      `${ms(r.seedBaselineMs)} ms`,
      fixed(r.seedRatio, 3),
      `${fixed(r.seedBound, 3)} = ${r.boundText}`,
      `${ms(r.sequentialOverMs)} ms`,
    ]),
  );
}

export function overheadTable(f: readonly ScenarioFigures[], c: ReportContext): string {
  const rows = table(
    `OVERHEAD  the median parallel run: wall time minus the model's time on the critical path (server-side)`,
    [
      "scenario",
      "wall",
      "model on path",
      "of which beyond latency",
      "spillway",
      "fraction",
      "target",
      "result",
      "ideal",
      "wall - ideal",
      "target",
      "result",
    ],
    f.map((r) => {
      const h = r.overhead;
      return [
        r.scenario,
        `${ms(h.wallMs)} ms`,
        `${ms(h.modelMs)} ms (${h.pathCalls} calls)`,
        `${ms(h.serverExtraMs)} ms`,
        `${ms(h.overheadMs)} ms`,
        pct(h.fraction),
        `< ${TARGETS.overheadFraction * 100}%`,
        below(h.fraction, TARGETS.overheadFraction),
        `${ms(h.idealMs)} ms`,
        `${ms(h.overIdealMs)} ms = ${pct(h.overIdealFraction)}`,
        `< ${TARGETS.overheadFraction * 100}%`,
        below(h.overIdealFraction, TARGETS.overheadFraction),
      ];
    }),
  );
  return `${rows}\n(ideal = ceil(${CHUNKS}/${c.concurrency}) x ${c.latencyMs} ms, + ${c.latencyMs} ms when the reduce runs)`;
}

export function whereTable(f: readonly ScenarioFigures[]): string {
  return table(
    "WHERE THE TIME GOES  the median parallel run (per call: mean/max)",
    [
      "scenario",
      "before 1st call",
      "after last call",
      "no call in flight",
      "server beyond latency",
      "client beyond server",
      "CPU engine",
      "CPU server",
    ],
    f.map((r) => {
      const h = r.overhead;
      return [
        r.scenario,
        `${ms(h.beforeFirstCallMs)} ms`,
        `${ms(h.afterLastCallMs)} ms`,
        `${ms(h.noCallInFlightMs)} ms`,
        `${ms(h.serverExtraMeanMs)}/${ms(h.serverExtraMaxMs)} ms`,
        `${ms(h.clientExcessMeanMs)}/${ms(h.clientExcessMaxMs)} ms`,
        `${ms(h.clientCpuMs)} ms`,
        `${ms(h.serverCpuMs)} ms`,
      ];
    }),
  );
}

export function cacheTable(f: readonly ScenarioFigures[]): string {
  return table(
    `CACHE HIT  the same query again on the same engine and store (median of ${CACHE_REPEATS})`,
    ["scenario", "median", "max", "new requests", "result"],
    f.map((r) => [
      r.scenario,
      `${ms(r.cacheHitMs)} ms`,
      `${ms(r.cacheHitMaxMs)} ms`,
      String(r.cacheNewRequests),
      r.cacheNewRequests === 0 ? "PASS" : "FAIL",
    ]),
  );
}

export interface Summary {
  readonly needle: ScenarioFigures;
  readonly all: ScenarioFigures;
  /** The worse scenario's. */
  readonly overheadFraction: number;
  readonly overIdealFraction: number;
}

export function summaryOf(needle: ScenarioFigures, all: ScenarioFigures): Summary {
  return {
    needle,
    all,
    overheadFraction: Math.max(needle.overhead.fraction, all.overhead.fraction),
    overIdealFraction: Math.max(needle.overhead.overIdealFraction, all.overhead.overIdealFraction),
  };
}

export function summaryTable(s: Summary): string {
  const ratioRow = (name: string, r: ScenarioFigures) => [
    name,
    fixed(r.ratio, 3),
    `floor ${fixed(r.floorRatio, 3)} (same work)`,
    `<= ${TARGETS.parallelVsSequentialRatio}`,
    verdict(r.ratio, TARGETS.parallelVsSequentialRatio),
  ];
  const newRequests = s.needle.cacheNewRequests + s.all.cacheNewRequests;
  return table(
    "SUMMARY",
    ["measure", "value", "reference", "target", "result"],
    [
      ratioRow("parallelVsSequentialRatio (needle)", s.needle),
      ratioRow("parallelVsSequentialRatioAllRelevant", s.all),
      [
        "overheadFraction (critical path, worse scenario)",
        pct(s.overheadFraction),
        "wall - model time on path",
        `< ${TARGETS.overheadFraction * 100}%`,
        below(s.overheadFraction, TARGETS.overheadFraction),
      ],
      [
        "overheadFractionVsIdeal (worse scenario)",
        pct(s.overIdealFraction),
        "wall - rounds x latency",
        `< ${TARGETS.overheadFraction * 100}%`,
        below(s.overIdealFraction, TARGETS.overheadFraction),
      ],
      [
        "cacheHitMs (needle)",
        `${ms(s.needle.cacheHitMs)} ms`,
        `${newRequests} new requests`,
        "0 requests",
        newRequests === 0 ? "PASS" : "FAIL",
      ],
    ],
  );
}

export function notes(s: Summary, c: ReportContext): string {
  return [
    "Method:",
    `- Model: the scripted OpenAI-compatible server in a child process (like a remote model), through the real AI SDK provider;`,
    `  ${c.latencyMs} ms injected per call. Its time per request is measured on the server, from arrival to the end of the response.`,
    `- Output: a ${n(Math.round(c.logBytes / 1024))} KiB log of ${n(c.logLines)} lines; contextWindow ${n(c.contextWindow)}, in the middle of the`,
    `  range ${n(c.windowRange[0])}..${n(c.windowRange[1])} for which the engine's own planner makes ${CHUNKS} chunks (probed through ExtractionEngine.run).`,
    `- Every measured run uses a fresh store (an empty extraction cache) and is checked: ${CHUNKS} chunks planned, one request per`,
    "  call, the answer right (needle: its line a verified snippet at its line number; all-relevant: 10 verified quotes).",
    "- The speed-up is judged against the same work: the engine at concurrency 1 making exactly the same calls, one at a time.",
    "- Floor (measured): the model's server-side time along the parallel run's critical path. No implementation making these",
    "  calls ends sooner; floor ratio = floor / sequential is the lowest the ratio could be in this run.",
    "- Against the seed (a baseline, not a floor): the seed reduces after every map; spillway skips the reduce when one chunk found",
    "  something. The seed baseline is the concurrency-1 run plus one reduce call measured right after it, through the same",
    "  provider and server, with the seed's reduce prompt over those 10 answers.",
    `- All-relevant: both sides make ${CHUNKS} maps + 1 reduce. Its floor ratio ${fixed(s.all.floorRatio, 3)} is over the ${TARGETS.parallelVsSequentialRatio} target at`,
    `  concurrency ${c.concurrency}: the reduce waits for every map, so no implementation making these calls can meet it.`,
    "- overheadFraction: wall time minus the model's (server-side) time along the critical path, the chain of calls that ended",
    "  last; what is left is spillway's: planning, reading chunks, the AI SDK and HTTP client, parsing, quote checks, cache writes.",
    "  wall - ideal also counts the scripted server's own time beyond the injected latency (its token counting of each prompt,",
    "  one request at a time on one thread) as overhead.",
  ].join("\n");
}

export function jsonSummary(
  s: Summary,
  c: ReportContext,
  runs: readonly ScenarioRuns[],
  totalMs: number,
): object {
  const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;
  const scenario = (f: ScenarioFigures, r: ScenarioRuns | undefined) => ({
    parallelMs: round(f.parallelMs),
    sequentialMs: round(f.sequentialMs),
    seedReduceMs: f.seedReduceMs === null ? null : round(f.seedReduceMs),
    ratio: round(f.ratio, 4),
    floorMs: round(f.floorMs),
    floorRatio: round(f.floorRatio, 4),
    sameWorkBound: round(f.sameWorkBound, 4),
    seedBaselineMs: round(f.seedBaselineMs),
    seedRatio: round(f.seedRatio, 4),
    seedBound: round(f.seedBound, 4),
    overhead: Object.fromEntries(
      Object.entries(f.overhead).map(([k, v]) => [k, round(v, /fraction/i.test(k) ? 4 : 1)]),
    ),
    cacheHitMs: round(f.cacheHitMs, 3),
    cacheNewRequests: f.cacheNewRequests,
    parallelRunsMs: r?.parallel.map((m) => round(m.wallMs)) ?? [],
    sequentialRunsMs: r?.sequential.map((m) => round(m.wallMs)) ?? [],
    seedReduceRunsMs: r?.seedReduceMs.map((v) => round(v)) ?? [],
    cacheHitRunsMs: r?.cacheHitMs.map((v) => round(v, 3)) ?? [],
  });
  const newRequests = s.needle.cacheNewRequests + s.all.cacheNewRequests;
  return {
    parallelVsSequentialRatio: round(s.needle.ratio, 4),
    parallelVsSequentialRatioAllRelevant: round(s.all.ratio, 4),
    overheadFraction: round(s.overheadFraction, 4),
    overheadFractionVsIdeal: round(s.overIdealFraction, 4),
    cacheHitMs: round(s.needle.cacheHitMs, 3),
    cacheHitMsAllRelevant: round(s.all.cacheHitMs, 3),
    cacheHitNewRequests: newRequests,
    floorRatioNeedle: round(s.needle.floorRatio, 4),
    floorRatioAllRelevant: round(s.all.floorRatio, 4),
    parallelVsSeedRatio: round(s.needle.seedRatio, 4),
    parallelVsSeedRatioAllRelevant: round(s.all.seedRatio, 4),
    chunks: CHUNKS,
    latencyMs: c.latencyMs,
    seedReduceMs: s.needle.seedReduceMs === null ? null : round(s.needle.seedReduceMs),
    concurrency: c.concurrency,
    repeats: c.repeats,
    contextWindow: c.contextWindow,
    logBytes: c.logBytes,
    targets: TARGETS,
    pass: {
      parallelVsSequentialRatio: s.needle.ratio <= TARGETS.parallelVsSequentialRatio,
      parallelVsSequentialRatioAllRelevant: s.all.ratio <= TARGETS.parallelVsSequentialRatio,
      overheadFraction: s.overheadFraction < TARGETS.overheadFraction,
      overheadFractionVsIdeal: s.overIdealFraction < TARGETS.overheadFraction,
      cacheHitNoRequests: newRequests === 0,
    },
    needle: scenario(
      s.needle,
      runs.find((r) => r.scenario === "needle"),
    ),
    allRelevant: scenario(
      s.all,
      runs.find((r) => r.scenario === "all-relevant"),
    ),
    totalSeconds: round(totalMs / 1000),
  };
}

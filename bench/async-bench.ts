/**
 * Async tools benchmark: the wall time of runAgent with async tools on against the
 * same work with `async: false`, measured in the same run, with the sync side played the way a
 * competent agent plays it.
 *
 *   npm run bench:async
 *   npm run bench:async -- --k 1,4,8 --duration-secs 2 --async-timeout 0.1 --repeats 3 --json
 *
 * Real pieces throughout: the AI SDK's openai-compatible provider over HTTP against the scripted
 * model server (in process), the test MCP server over stdio, a fresh SQLite store per session.
 * The scripted model decides every reply from what the request shows (tool results, declared
 * tools, the System Notice).
 *
 * Scenario 1, K independent slow jobs (K = 1, 4, 8), each `test__slow {seconds: D}`:
 * - "all in one turn": the competent way, in both modes. Sync runs them together, up to
 *   toolConcurrency (4) at once: about ceil(K/4)·D. Async can only add the asyncMaxRunning (4)
 *   background places: its floor is ceil(K/8)/ceil(K/4) (1.00 up to K = 4).
 * - "one per turn": turn i starts job i beside a fast echo, as an agent does when each next
 *   step comes from the last turn's result. Sync then waits for each job before the next turn
 *   (K·D); async answers the slow call with its id after asyncTimeoutSecs and goes on, so the
 *   jobs overlap. The honest comparison for this agent is against the competent sync run of
 *   the same jobs (all in one turn), reported beside the naive one.
 * After starting, the model waits (`wait_for_tool_output`) while the notice shows "### Running",
 * reads every async id raw, and reports; the report must hold every job's text or the
 * benchmark fails.
 *
 * Scenario 2, a sub-agent pair: turn 1 calls `agent__helper {task: "left", async: true}`, turn 2
 * "right" (`async` only when the schema offers it), then waits/reads and reports both; "+ echo"
 * adds a fast echo beside each helper call.
 *
 * Each scenario runs at the given asyncTimeoutSecs (default 0.1 s) and, for K = 4, at spillway's
 * default asyncTimeoutSecs (5 s) with jobs longer than it (D = 8 s; `--default-timeout-duration
 * 0` skips it). Tables go to stdout, progress to stderr; with --json the last stdout line is one
 * JSON object.
 */
import { rm } from "node:fs/promises";
import { type Options, parseOptions } from "./async-options.js";
import {
  batchScenario,
  benchRoot,
  jobsScenario,
  type Mode,
  pairScenario,
  type RunMeasure,
  type RunSettings,
  runOnce,
  type ScenarioSpec,
} from "./async-run.js";
import { fixed, median, table, verdict } from "./report.js";

/** The target: K = 4 jobs one per turn, async takes at most this fraction of the same agent's sync time. */
const TARGET_RATIO_K4 = 0.35;
/** spillway's defaults (src/config/defaults.ts): asyncMaxRunning, toolConcurrency, asyncTimeoutSecs. */
const DEFAULT_MAX_RUNNING = 4;
const DEFAULT_TOOL_CONCURRENCY = 4;
const DEFAULT_ASYNC_TIMEOUT_SECS = 5;

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const secs = (ms: number) => ms / 1000;

interface ScenarioResult {
  readonly spec: ScenarioSpec;
  readonly sync: RunMeasure[];
  readonly async: RunMeasure[];
}

interface Figures {
  readonly name: string;
  readonly jobs: number;
  readonly syncSecs: number;
  readonly asyncSecs: number;
  readonly ratio: number;
  /** The ratio of the times after setup (runAgent's call to its first turn). */
  readonly ratioAfterSetup: number;
  /** async can never beat one D: D / (jobs·D). */
  readonly floor: number;
  readonly setupSecs: number;
  readonly asyncCalls: number;
  readonly modelCalls: { readonly sync: number; readonly async: number };
}

/** async/sync can never beat this: one D against what sync needs for the same jobs. */
function floorOf(spec: ScenarioSpec, maxRunning: number): number {
  // All in one turn, sync runs toolConcurrency jobs at a time; async can add up to maxRunning
  // more in the background (a call that went async frees its place in the turn).
  if (spec.name.includes("all in one turn"))
    return (
      Math.ceil(spec.jobs / (DEFAULT_TOOL_CONCURRENCY + maxRunning)) /
      Math.ceil(spec.jobs / DEFAULT_TOOL_CONCURRENCY)
    );
  return 1 / spec.jobs;
}

function figuresOf(result: ScenarioResult, maxRunning: number): Figures {
  const syncMs = median(result.sync.map((r) => r.wallMs));
  const asyncMs = median(result.async.map((r) => r.wallMs));
  return {
    name: result.spec.name,
    jobs: result.spec.jobs,
    syncSecs: secs(syncMs),
    asyncSecs: secs(asyncMs),
    ratio: asyncMs / syncMs,
    ratioAfterSetup:
      median(result.async.map((r) => r.wallMs - r.setupMs)) /
      median(result.sync.map((r) => r.wallMs - r.setupMs)),
    floor: floorOf(result.spec, maxRunning),
    setupSecs: secs(median([...result.sync, ...result.async].map((r) => r.setupMs))),
    asyncCalls: median(result.async.map((r) => r.asyncCalls)),
    modelCalls: {
      sync: median(result.sync.map((r) => r.modelCalls)),
      async: median(result.async.map((r) => r.modelCalls)),
    },
  };
}

/** Sync and async runs of one scenario, alternating which goes first. */
async function runScenario(
  root: string,
  spec: ScenarioSpec,
  settings: RunSettings,
  repeats: number,
): Promise<ScenarioResult> {
  const result: ScenarioResult = { spec, sync: [], async: [] };
  for (let r = 0; r < repeats; r++) {
    // Alternate the order so a drift in machine speed does not favour one side.
    const order: Mode[] = r % 2 === 0 ? ["async", "sync"] : ["sync", "async"];
    for (const mode of order) {
      const run = await runOnce(root, spec, mode, settings);
      progress(
        `${spec.name}: run ${r + 1}/${repeats}, ${mode}: ${secs(run.wallMs).toFixed(2)} s ` +
          `(${run.modelCalls} model calls, ${run.asyncCalls} async)`,
      );
      result[mode].push(run);
    }
  }
  return result;
}

/** The key of a scenario in the JSON line: K4PerTurn, K4OneTurn, subagentPair, … */
function keyOf(f: Figures): string {
  if (f.name === "subagent pair") return "subagentPair";
  if (f.name === "subagent pair + echo") return "subagentPairEcho";
  return `K${f.jobs}${f.name.includes("all in one turn") ? "OneTurn" : "PerTurn"}`;
}

/**
 * The one-per-turn agent's async time against the competent sync run of the same jobs (all in
 * one turn), per K, with its floor: D against ceil(K / toolConcurrency)·D.
 */
interface Competent {
  readonly jobs: number;
  readonly asyncPerTurnSecs: number;
  readonly syncOneTurnSecs: number;
  readonly ratio: number;
  readonly floor: number;
}

function competentComparisons(figures: readonly Figures[]): Competent[] {
  return figures.flatMap((perTurn) => {
    if (!perTurn.name.includes("one per turn")) return [];
    const oneTurn = figures.find(
      (f) => f.jobs === perTurn.jobs && f.name.includes("all in one turn"),
    );
    if (!oneTurn) return [];
    return [
      {
        jobs: perTurn.jobs,
        asyncPerTurnSecs: perTurn.asyncSecs,
        syncOneTurnSecs: oneTurn.syncSecs,
        ratio: perTurn.asyncSecs / oneTurn.syncSecs,
        floor: 1 / Math.ceil(perTurn.jobs / DEFAULT_TOOL_CONCURRENCY),
      },
    ];
  });
}

interface Pass {
  readonly title: string;
  readonly durationSecs: number;
  readonly asyncTimeoutSecs: number;
  readonly figures: Figures[];
  readonly results: ScenarioResult[];
}

function resultTable(pass: Pass, o: Options): string {
  const rows = pass.figures.map((f) => {
    const target =
      keyOf(f) === "K4PerTurn" && pass.asyncTimeoutSecs === o.asyncTimeoutSecs
        ? `<= ${TARGET_RATIO_K4} ${verdict(f.ratio, TARGET_RATIO_K4)}`
        : "-";
    return [
      f.name,
      String(f.jobs),
      fixed(f.syncSecs),
      fixed(f.asyncSecs),
      fixed(f.ratio),
      fixed(f.floor),
      fixed(f.setupSecs),
      fixed(f.ratioAfterSetup),
      `${f.modelCalls.sync}/${f.modelCalls.async}`,
      String(f.asyncCalls),
      target,
    ];
  });
  const competent = competentComparisons(pass.figures).map((c) => [
    `K=${c.jobs}: async one per turn / sync all in one turn`,
    String(c.jobs),
    fixed(c.syncOneTurnSecs),
    fixed(c.asyncPerTurnSecs),
    fixed(c.ratio),
    fixed(c.floor),
  ]);
  return [
    table(
      `${pass.title}  D = ${pass.durationSecs} s per slow job, asyncTimeoutSecs ${pass.asyncTimeoutSecs} s, toolConcurrency ${DEFAULT_TOOL_CONCURRENCY}, ` +
        `asyncMaxRunning ${o.maxRunning ?? `${DEFAULT_MAX_RUNNING} (default)`}, median of ${o.repeats} run(s) per mode`,
      [
        "scenario",
        "jobs",
        "sync s",
        "async s",
        "async/sync",
        "floor",
        "setup s",
        "after setup",
        "model calls s/a",
        "async calls",
        "target",
      ],
      rows,
    ),
    competent.length > 0
      ? table(
          "AGAINST THE COMPETENT SYNC AGENT  the same jobs; sync starts them all in one turn",
          ["comparison", "jobs", "sync s", "async s", "async/sync", "floor"],
          competent,
        )
      : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

function notes(o: Options): string {
  const cap = o.maxRunning ?? DEFAULT_MAX_RUNNING;
  const lines = [
    "floor: what async/sync can never beat. All in one turn: ceil(K/(toolConcurrency+asyncMaxRunning)) / ceil(K/toolConcurrency) " +
      "(sync already runs toolConcurrency jobs together; async adds asyncMaxRunning in the background); " +
      "one per turn: 1/K (async costs at least one D, the naive sync agent K·D); against the competent sync agent: " +
      `1/ceil(K/${DEFAULT_TOOL_CONCURRENCY}) (sync all in one turn costs ceil(K/${DEFAULT_TOOL_CONCURRENCY})·D).`,
    "setup s: runAgent's call to its first turn (config, store, MCP server start), in both modes;" +
      " after setup: async/sync of the times after it (the target is on the whole wall time).",
    "async calls: calls of the top session that went on in the background.",
    `At most ${cap} tools run in the background at once (asyncMaxRunning): beyond that a slow call blocks as without async.`,
    "A slow call goes async only after asyncTimeoutSecs: at the default (5 s), every turn that starts a job waits 5 s " +
      "before the model goes on, so one-per-turn async costs about (K-1)·5 s + D.",
    "subagent pair: each parent turn calls only agent__helper with async: true, so every call of the turn went async and " +
      "the loop waits for one to settle before the next model call (D3-22). The + echo variant gives each turn real output.",
    "Independent jobs known up front gain nothing from async tools: parallel tool calls already overlap them. " +
      "Async tools pay off when the model has other work to do while a job runs (work that comes turn by turn).",
  ];
  return lines.map((l) => `- ${l}`).join("\n");
}

async function runPass(
  root: string,
  o: Options,
  title: string,
  durationSecs: number,
  asyncTimeoutSecs: number,
  k: readonly number[],
  pairs: boolean,
): Promise<Pass> {
  const settings: RunSettings = { asyncTimeoutSecs, maxRunning: o.maxRunning };
  const specs = [
    ...k.flatMap((n) => [batchScenario(n, durationSecs), jobsScenario(n, durationSecs)]),
    ...(pairs ? [pairScenario(durationSecs, false), pairScenario(durationSecs, true)] : []),
  ];
  const results: ScenarioResult[] = [];
  for (const spec of specs) results.push(await runScenario(root, spec, settings, o.repeats));
  return {
    title,
    durationSecs,
    asyncTimeoutSecs,
    figures: results.map((r) => figuresOf(r, o.maxRunning ?? DEFAULT_MAX_RUNNING)),
    results,
  };
}

function passJson(pass: Pass) {
  const ratios = Object.fromEntries(pass.figures.map((f) => [keyOf(f), f.ratio]));
  return {
    durationSecs: pass.durationSecs,
    asyncTimeoutSecs: pass.asyncTimeoutSecs,
    ratios,
    againstCompetentSync: competentComparisons(pass.figures),
    scenarios: pass.results.map((r, i) => ({
      ...pass.figures[i]!,
      key: keyOf(pass.figures[i]!),
      syncRunsSecs: r.sync.map((m) => secs(m.wallMs)),
      asyncRunsSecs: r.async.map((m) => secs(m.wallMs)),
    })),
  };
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const root = await benchRoot();
  try {
    // Warm-up (short jobs, not measured): tsx's compile of the MCP server, the AI SDK, the JIT.
    const warm: RunSettings = { asyncTimeoutSecs: o.asyncTimeoutSecs, maxRunning: o.maxRunning };
    for (const spec of [jobsScenario(1, 0.05), pairScenario(0.05, false)]) {
      for (const mode of ["async", "sync"] as const) {
        progress(`warm-up: ${spec.name}, ${mode}`);
        await runOnce(root, spec, mode, warm);
      }
    }
    const passes = [
      await runPass(root, o, "ASYNC TOOLS", o.durationSecs, o.asyncTimeoutSecs, o.k, true),
    ];
    if (o.defaultTimeoutDurationSecs > 0 && o.asyncTimeoutSecs !== DEFAULT_ASYNC_TIMEOUT_SECS)
      passes.push(
        await runPass(
          root,
          o,
          "AT THE DEFAULT asyncTimeoutSecs",
          o.defaultTimeoutDurationSecs,
          DEFAULT_ASYNC_TIMEOUT_SECS,
          [4],
          false,
        ),
      );
    const totalMs = performance.now() - started;
    const k4 = passes[0]!.figures.find((f) => keyOf(f) === "K4PerTurn");
    const out = [
      ...passes.map((pass) => resultTable(pass, o)),
      notes(o),
      k4
        ? `target: K=4 one per turn, async/sync ${fixed(k4.ratio)} <= ${TARGET_RATIO_K4}: ${verdict(k4.ratio, TARGET_RATIO_K4)} ` +
          "(the same agent in both modes; against the competent sync agent see the table above)"
        : "target: K=4 not run (--k without 4)",
      `(ran ${secs(totalMs).toFixed(0)} s)`,
    ];
    process.stdout.write(`${out.join("\n\n")}\n`);
    if (o.json) {
      const competentK4 = competentComparisons(passes[0]!.figures).find((c) => c.jobs === 4);
      const atDefault = passes[1] ? competentComparisons(passes[1].figures)[0] : undefined;
      const summary = {
        bench: "async",
        asyncVsSyncRatioK4: k4?.ratio ?? null,
        asyncVsCompetentSyncRatioK4: competentK4?.ratio ?? null,
        atDefaultTimeout: passes[1]
          ? {
              asyncVsSyncRatioK4:
                passes[1].figures.find((f) => keyOf(f) === "K4PerTurn")?.ratio ?? null,
              asyncVsCompetentSyncRatioK4: atDefault?.ratio ?? null,
            }
          : null,
        target: { asyncVsSyncRatioK4: TARGET_RATIO_K4 },
        pass: k4 ? k4.ratio <= TARGET_RATIO_K4 : null,
        asyncMaxRunning: o.maxRunning ?? DEFAULT_MAX_RUNNING,
        toolConcurrency: DEFAULT_TOOL_CONCURRENCY,
        repeats: o.repeats,
        passes: passes.map(passJson),
        totalSecs: secs(totalMs),
      };
      process.stdout.write(`${JSON.stringify(summary)}\n`);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();

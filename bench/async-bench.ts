/**
 * Async tools benchmark (seed 003): the wall time of runAgent with async tools on (a small
 * asyncTimeoutSecs) against the same sessions with `async: false`, measured in the same run.
 *
 *   npm run bench:async
 *   npm run bench:async -- --k 1,4,8 --duration-secs 2 --async-timeout 0.1 --repeats 3 --json
 *
 * Real pieces throughout: the AI SDK's openai-compatible provider over HTTP against the scripted
 * model server (in process), the test MCP server over stdio, a fresh SQLite store per session.
 * The scripted model decides every reply from what the request shows (tool results, declared
 * tools, the System Notice), so one policy drives both modes.
 *
 * Scenario 1, K slow jobs (K = 1, 4, 8): turn i (1..K) calls `test__slow {seconds: D, text:
 * "job i"}` together with a fast `test__echo`. The echo gives the turn real output, so the model
 * goes on at once (when every call of a turn went async the loop waits for one to settle before
 * calling the model again, D3-22). After K turns, if some slow result is an async id, the
 * model calls `wait_for_tool_output` while the notice shows "### Running", then
 * `get_tool_output` raw for every async id (one reply), then `agent__final_report` with every
 * job's text; the report must hold all K texts or the benchmark fails.
 *
 * Why the sync baseline serializes: the model needs each turn's results before it makes the
 * next call (that is what an agent turn is: the next step depends on what the last one showed).
 * With `async: false` a turn ends only when all of its calls have ended, the slow one included,
 * so K turns cost K·D back to back. With async tools on, the slow call is answered with its id
 * after asyncTimeoutSecs and keeps running in the background, so the K jobs overlap: roughly
 * setup + (K-1)·asyncTimeoutSecs + D + a few model round trips. Async can never beat one D, so
 * the floor of the ratio is D / (K·D) = 1/K. spillway runs at most asyncMaxRunning (default 4)
 * background tools at once: beyond that a slow call blocks as without async.
 *
 * Scenario 2, a sub-agent pair: the parent lists a helper agent; turn 1 calls `agent__helper
 * {task: "left", async: true}`, turn 2 the same with "right" (`async` only when the tool schema
 * offers it: with async off it does not), then waits/reads as above and reports both. Each
 * helper runs one slow job of D seconds and reports its text. The variant "+ echo" adds a fast
 * echo beside each helper call, like scenario 1.
 *
 * Tables go to stdout, progress to stderr; with --json the last stdout line is one JSON object.
 */
import { rm } from "node:fs/promises";
import {
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

/** The target: with K = 4 slow jobs, async takes at most this fraction of the sync time. */
const TARGET_RATIO_K4 = 0.35;
/** spillway's default asyncMaxRunning (src/config/defaults.ts), for the notes. */
const DEFAULT_MAX_RUNNING = 4;

interface Options {
  readonly json: boolean;
  readonly k: readonly number[];
  readonly durationSecs: number;
  readonly asyncTimeoutSecs: number;
  readonly repeats: number;
  readonly maxRunning: number | undefined;
}

const USAGE =
  "use --json, --k 1,4,8, --duration-secs S, --async-timeout S, --repeats N, --max-running N";

function parseOptions(argv: readonly string[]): Options {
  let json = false;
  let k: number[] = [1, 4, 8];
  let durationSecs = 2;
  let asyncTimeoutSecs = 0.1;
  let repeats = 1;
  let maxRunning: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") {
      json = true;
      continue;
    }
    const [flag, inline] = arg.split("=", 2) as [string, string | undefined];
    const take = () => {
      const text = inline ?? argv[++i];
      if (text === undefined) throw new Error(`${flag} wants a value (${USAGE})`);
      return text;
    };
    const number = (text: string, ok: (v: number) => boolean, wants: string) => {
      const value = Number(text);
      if (text.trim() === "" || !ok(value)) throw new Error(`${flag} wants ${wants}; got ${text}`);
      return value;
    };
    const whole =
      (min: number, max = Number.MAX_SAFE_INTEGER) =>
      (v: number) =>
        Number.isInteger(v) && v >= min && v <= max;
    switch (flag) {
      case "--k":
        k = take()
          .split(",")
          .map((part) => number(part, whole(1, 32), "whole numbers 1..32, comma-separated"));
        break;
      case "--duration-secs":
        durationSecs = number(take(), (v) => v > 0 && v <= 60, "seconds in (0, 60]");
        break;
      case "--async-timeout":
        asyncTimeoutSecs = number(take(), (v) => v >= 0 && v <= 60, "seconds in [0, 60]");
        break;
      case "--repeats":
        repeats = number(take(), whole(1), "a whole number >= 1");
        break;
      case "--max-running":
        maxRunning = number(take(), whole(1, 64), "a whole number 1..64");
        break;
      default:
        throw new Error(`unknown argument ${arg} (${USAGE})`);
    }
  }
  return { json, k: [...new Set(k)], durationSecs, asyncTimeoutSecs, repeats, maxRunning };
}

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

function figuresOf(result: ScenarioResult): Figures {
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
    floor: 1 / result.spec.jobs,
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

const ratioKey = (f: Figures, k: readonly number[]) =>
  f.name === "subagent pair"
    ? "subagentPair"
    : f.name === "subagent pair + echo"
      ? "subagentPairEcho"
      : k.includes(f.jobs)
        ? `K${f.jobs}`
        : f.name;

function resultTable(figures: readonly Figures[], o: Options): string {
  const rows = figures.map((f) => {
    const target =
      f.name === "slow jobs K=4"
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
  return table(
    `ASYNC TOOLS  D = ${o.durationSecs} s per slow job, asyncTimeoutSecs ${o.asyncTimeoutSecs} s, ` +
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
  );
}

function notes(figures: readonly Figures[], o: Options): string {
  const cap = o.maxRunning ?? DEFAULT_MAX_RUNNING;
  const lines = [
    "floor: D / (jobs·D) = 1/jobs, the ratio if async cost exactly one D (it cannot cost less).",
    "setup s: runAgent's call to its first turn (config, store, MCP server start), in both modes;" +
      " after setup: async/sync of the times after it (the target is on the whole wall time).",
    `async model: about setup + (jobs-1)·${o.asyncTimeoutSecs} s + ${o.durationSecs} s + model round trips; ` +
      `sync: setup + jobs·${o.durationSecs} s.`,
    "async calls: calls of the top session that went on in the background.",
  ];
  if (figures.some((f) => f.name.startsWith("slow jobs") && f.jobs > cap))
    lines.push(
      `At most ${cap} tools run in the background at once (asyncMaxRunning): beyond that a slow ` +
        "call blocks as without async until it ends, then the next ones go async again.",
    );
  lines.push(
    "subagent pair: each parent turn calls only agent__helper with async: true, so every call " +
      "of the turn went async and the loop waits for one to settle before the next model call " +
      "(D3-22): helper left settles before the parent starts helper right. The + echo " +
      "variant gives each turn real output, so the parent goes on at once.",
  );
  return lines.map((l) => `- ${l}`).join("\n");
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const root = await benchRoot();
  const settings: RunSettings = { asyncTimeoutSecs: o.asyncTimeoutSecs, maxRunning: o.maxRunning };
  try {
    // Warm-up (short jobs, not measured): tsx's compile of the MCP server, the AI SDK, the JIT.
    for (const spec of [jobsScenario(1, 0.05), pairScenario(0.05, false)]) {
      for (const mode of ["async", "sync"] as const) {
        progress(`warm-up: ${spec.name}, ${mode}`);
        await runOnce(root, spec, mode, settings);
      }
    }
    const specs = [
      ...o.k.map((k) => jobsScenario(k, o.durationSecs)),
      pairScenario(o.durationSecs, false),
      pairScenario(o.durationSecs, true),
    ];
    const results: ScenarioResult[] = [];
    for (const spec of specs) results.push(await runScenario(root, spec, settings, o.repeats));
    const figures = results.map(figuresOf);
    const totalMs = performance.now() - started;
    const k4 = figures.find((f) => f.name === "slow jobs K=4");
    const out = [
      resultTable(figures, o),
      notes(figures, o),
      k4
        ? `target: K=4 async/sync ${fixed(k4.ratio)} <= ${TARGET_RATIO_K4}: ${verdict(k4.ratio, TARGET_RATIO_K4)}`
        : "target: K=4 not run (--k without 4)",
      `(ran ${secs(totalMs).toFixed(0)} s)`,
    ];
    process.stdout.write(`${out.join("\n\n")}\n`);
    if (o.json) {
      const ratios: Record<string, number | null> = { asyncVsSyncRatioK4: null };
      for (const f of figures) ratios[`asyncVsSyncRatio${capitalized(ratioKey(f, o.k))}`] = f.ratio;
      const summary = {
        bench: "async",
        ...ratios,
        target: { asyncVsSyncRatioK4: TARGET_RATIO_K4 },
        pass: k4 ? k4.ratio <= TARGET_RATIO_K4 : null,
        durationSecs: o.durationSecs,
        asyncTimeoutSecs: o.asyncTimeoutSecs,
        asyncMaxRunning: o.maxRunning ?? DEFAULT_MAX_RUNNING,
        repeats: o.repeats,
        scenarios: results.map((r, i) => ({
          ...figures[i]!,
          key: ratioKey(figures[i]!, o.k),
          syncRunsSecs: r.sync.map((m) => secs(m.wallMs)),
          asyncRunsSecs: r.async.map((m) => secs(m.wallMs)),
        })),
        totalSecs: secs(totalMs),
      };
      process.stdout.write(`${JSON.stringify(summary)}\n`);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const capitalized = (key: string) => key.charAt(0).toUpperCase() + key.slice(1);

await main();

/**
 * Extraction benchmark: spillway's full-chunked map-reduce (ExtractionEngine.run, concurrency 4)
 * against exactly the same calls made one after another (concurrency 1, measured in the same
 * run), with a real floor measured in the parallel run (the model's time on its critical
 * path); beside it, the seed's baseline (the same maps one at a time plus the reduce the seed
 * always makes); the engine's overhead beyond model time, and the result cache.
 *
 *   npm run bench:extract
 *   npm run bench:extract -- --latency-ms 300 --repeats 3 --log-kb 1024 --json
 *
 * The scripted model server injects a fixed latency per call and runs in a child process, like
 * a remote model. The log's size and the extraction model's contextWindow make the engine's own
 * chunk planner cut exactly 10 chunks. Every measured run uses a fresh store, so no cache hides
 * work. Two scenarios: the needle in one chunk (spillway skips the reduce, the seed does not),
 * and every chunk relevant (both reduce).
 *
 * Tables go to stdout, progress to stderr; with --json the last stdout line is one JSON object.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_EXTRACTION } from "../src/extraction/settings.js";
import { figuresOf, type ScenarioRuns } from "./extract-figures.js";
import {
  type BenchEnv,
  CHUNKS,
  dropStore,
  freshStore,
  measureCacheHits,
  measureRun,
  measureSeedReduce,
  pickContextWindow,
} from "./extract-measure.js";
import { startModelServer, targetOf } from "./extract-model-process.js";
import { buildLog, queryOf, type Scenario } from "./extract-policy.js";
import {
  cacheTable,
  jsonSummary,
  notes,
  overheadTable,
  type ReportContext,
  ratioTable,
  sameWorkTable,
  summaryOf,
  summaryTable,
  whereTable,
} from "./extract-report.js";

const SCENARIOS: readonly Scenario[] = ["needle", "all-relevant"];

interface Options {
  readonly json: boolean;
  readonly latencyMs: number;
  readonly concurrency: number;
  readonly repeats: number;
  readonly logKb: number;
}

const NUMERIC_FLAGS = {
  "--latency-ms": "latencyMs",
  "--concurrency": "concurrency",
  "--repeats": "repeats",
  "--log-kb": "logKb",
} as const;

function parseOptions(argv: readonly string[]): Options {
  const options = {
    json: false,
    latencyMs: 300,
    concurrency: DEFAULT_EXTRACTION.concurrency,
    repeats: 3,
    logKb: 1024,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") {
      options.json = true;
      continue;
    }
    const [flag, inline] = arg.split("=", 2) as [string, string | undefined];
    const key = NUMERIC_FLAGS[flag as keyof typeof NUMERIC_FLAGS] as
      | (typeof NUMERIC_FLAGS)[keyof typeof NUMERIC_FLAGS]
      | undefined;
    if (key === undefined) {
      throw new Error(
        `unknown argument ${arg} (use --json, --latency-ms N, --concurrency N, --repeats N, --log-kb N)`,
      );
    }
    const text = inline ?? argv[++i];
    const value = Number(text);
    const minimum = key === "latencyMs" ? 0 : key === "logKb" ? 16 : 1;
    if (!Number.isInteger(value) || value < minimum) {
      throw new Error(`${flag} wants a whole number >= ${minimum}; got ${text}`);
    }
    options[key] = value;
  }
  return options;
}

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** Parallel and sequential runs of one scenario, alternating which goes first. */
async function runScenario(env: BenchEnv, scenario: Scenario, o: Options): Promise<ScenarioRuns> {
  const runs = {
    scenario,
    parallel: [] as ScenarioRuns["parallel"],
    sequential: [] as ScenarioRuns["sequential"],
    seedReduceMs: [] as number[],
    cacheHitMs: [] as number[],
    cacheNewRequests: 0,
  };
  for (let r = 0; r < o.repeats; r++) {
    // Alternate the order so a drift in machine speed does not favour one side.
    const order = r % 2 === 0 ? [o.concurrency, 1] : [1, o.concurrency];
    for (const concurrency of order) {
      progress(`${scenario}: run ${r + 1}/${o.repeats}, concurrency ${concurrency}`);
      const parallel = concurrency === o.concurrency;
      const run = await measureRun(env, scenario, concurrency, {
        ...(parallel && r === 0
          ? {
              after: async (engine, kept) => {
                const hits = await measureCacheHits(env, engine, kept, scenario);
                runs.cacheHitMs.push(...hits.times);
                runs.cacheNewRequests += hits.newRequests;
              },
            }
          : {}),
      });
      if (parallel) runs.parallel.push(run);
      else {
        runs.sequential.push(run);
        if (scenario === "needle") runs.seedReduceMs.push(await measureSeedReduce(env, run));
      }
    }
  }
  return runs;
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  if (o.concurrency === 1) throw new Error("--concurrency must be over 1 (1 is the floor)");
  const started = performance.now();
  const root = await mkdtemp(join(tmpdir(), "spillway-extract-bench-"));
  progress("starting the scripted model server (child process)");
  const server = await startModelServer(o.latencyMs);
  try {
    const log = buildLog(o.logKb * 1024);
    const probe = await freshStore(root, log.text);
    let picked: Awaited<ReturnType<typeof pickContextWindow>>;
    try {
      picked = await pickContextWindow(
        probe,
        SCENARIOS.flatMap((s) => [queryOf(s), queryOf(s, true)]),
      );
    } finally {
      await dropStore(probe);
    }
    progress(`contextWindow ${picked.contextWindow}: the engine plans ${CHUNKS} chunks`);
    const env: BenchEnv = {
      root,
      server,
      log,
      target: targetOf(server.baseURL, picked.contextWindow),
    };
    // Warm-up, without injected latency: the tokenizer, the AI SDK, HTTP connections, the JIT.
    for (const scenario of SCENARIOS) {
      for (const concurrency of [o.concurrency, 1]) {
        progress(`warm-up: ${scenario}, concurrency ${concurrency}`);
        await measureRun(env, scenario, concurrency, { warmUp: true });
      }
    }
    const runs: ScenarioRuns[] = [];
    for (const scenario of SCENARIOS) runs.push(await runScenario(env, scenario, o));
    const [needle, all] = runs.map((s) => figuresOf(s, o.latencyMs, o.concurrency));
    const summary = summaryOf(needle!, all!);
    const context: ReportContext = {
      latencyMs: o.latencyMs,
      concurrency: o.concurrency,
      repeats: o.repeats,
      logBytes: Buffer.byteLength(log.text),
      logLines: log.text.split("\n").length - 1,
      contextWindow: picked.contextWindow,
      windowRange: picked.range,
    };
    const totalMs = performance.now() - started;
    const figures = [summary.needle, summary.all];
    const out = [
      `EXTRACTION  ${CHUNKS} chunks (planned by the engine, checked in every run), ${o.latencyMs} ms per model call`,
      ratioTable(figures, context),
      sameWorkTable(figures),
      overheadTable(figures, context),
      whereTable(figures),
      cacheTable(figures),
      summaryTable(summary),
      notes(summary, context),
      `(ran ${(totalMs / 1000).toFixed(0)} s)`,
    ];
    process.stdout.write(`${out.join("\n\n")}\n`);
    if (o.json) {
      process.stdout.write(`${JSON.stringify(jsonSummary(summary, context, runs, totalMs))}\n`);
    }
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();

/**
 * `npm run eval:live`: the live benchmark. One real model plays spillway and the peers on tasks
 * drawn from a fresh seed (printed; `--seed` to repeat or continue a run, `--dev` for the
 * development seed), each episode kept as it finishes; the report and the figures go to
 * eval/report-live/. With --json the last stdout line is one JSON object with every policy's
 * figures.
 *
 *   npm run eval:live -- --tasks 30 --json
 *   npm run eval:live -- --seed 418263 --tasks 30            # continue (or repeat) that run
 *   npm run eval:live -- --dev --tasks 6 --policies spillway # iterate on the development seed
 *   npm run eval:live -- --seed 418263 --ablate taskFocus --policies spillway
 *   npm run eval:live -- --tasks 120 --kind cross-field --policies spillway  # one kind's tasks
 *   npm run eval:live -- --tasks 2000 --kind pattern --shape test-output      # one shape's too
 */
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { GUIDANCE_SWITCHES } from "../src/config/guidance.js";
import { type CliArgs, cliArgs } from "./cli-args.js";
import { figuresOf, groupBy } from "./live/figures.js";
import { writeLiveReport } from "./live/report.js";
import {
  aimedAt,
  DEFAULT_LIVE_POLICIES,
  LIVE_CONTEXT_WINDOW,
  LIVE_POLICIES,
  type LivePolicy,
  liveReportDir,
  runLive,
  variantOf,
} from "./live/run.js";
import { DEVELOPMENT_SEED, freshSeed } from "./tasks/draw.js";
import { QUESTION_KINDS, type QuestionKind, SHAPES, type ShapeName } from "./tasks/types.js";

/** The model eval:live plays by default: the local test model (`npm run model:fetch`). */
export const DEFAULT_LIVE_MODEL = "local/qwen2.5-coder-1.5b-instruct-q4_k_m";
const DEFAULT_LIVE_LABEL = "Qwen2.5-Coder 1.5B Instruct Q4_K_M (local, greedy)";

const USAGE =
  "usage: npm run eval:live -- [--tasks N] [--seed N | --dev] [--policies a,b] [--ablate NAME[,NAME]] [--only A-B] [--kind K[,K]] [--shape S[,S]] [--show-outcomes] [--no-replay] [--model REF] [--label TEXT] [--context-window TOKENS] [--chars N] [--out DIR] [--work DIR] [--json]";

const cli = cliArgs(USAGE);
/** Annotated, so that the compiler knows it does not return. */
const fail: CliArgs["fail"] = cli.fail;
const { wholeNumber, help } = cli;

interface Args {
  model: string;
  label: string | undefined;
  tasks: number;
  seed: number | undefined;
  dev: boolean;
  /** Progress lines say right or wrong (always with --dev). */
  showOutcomes: boolean;
  replay: boolean;
  policies: LivePolicy[];
  ablate: string[];
  only: { from: number; to: number } | undefined;
  /** Play only the drawn tasks of these question kinds (chosen before play, by the draw). */
  kinds: QuestionKind[] | undefined;
  /** Play only the drawn tasks about files of these shapes (chosen before play, by the draw). */
  shapes: ShapeName[] | undefined;
  window: number;
  chars: number | undefined;
  out: string | undefined;
  work: string | undefined;
  json: boolean;
}

export function parseLiveArgs(argv: readonly string[]): Args {
  const args: Args = {
    model: process.env.SPILLWAY_LIVE_MODEL || DEFAULT_LIVE_MODEL,
    label: undefined,
    tasks: 30,
    seed: undefined,
    dev: false,
    showOutcomes: false,
    replay: true,
    policies: [...DEFAULT_LIVE_POLICIES],
    ablate: [],
    only: undefined,
    kinds: undefined,
    shapes: undefined,
    window: LIVE_CONTEXT_WINDOW,
    chars: undefined,
    out: undefined,
    work: undefined,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === "--model") args.model = value();
    else if (flag === "--label") args.label = value();
    else if (flag === "--tasks") args.tasks = wholeNumber(flag, value(), 1);
    else if (flag === "--seed") args.seed = wholeNumber(flag, value(), 1);
    else if (flag === "--dev") args.dev = true;
    else if (flag === "--show-outcomes") args.showOutcomes = true;
    else if (flag === "--no-replay") args.replay = false;
    else if (flag === "--policies") {
      const list = value().split(",");
      const bad = list.filter((p) => !LIVE_POLICIES.includes(p as LivePolicy));
      if (bad.length > 0)
        fail(`--policies: unknown ${bad.join(", ")}; valid: ${LIVE_POLICIES.join(", ")}`);
      args.policies = list as LivePolicy[];
    } else if (flag === "--ablate") {
      const list = value().split(",");
      const bad = list.filter((name) => !(GUIDANCE_SWITCHES as readonly string[]).includes(name));
      if (bad.length > 0)
        fail(`--ablate: unknown ${bad.join(", ")}; valid: ${GUIDANCE_SWITCHES.join(", ")}`);
      args.ablate.push(...list);
    } else if (flag === "--only") {
      const match = /^(\d+)-(\d+)$/.exec(value());
      if (!match || Number(match[1]) < 1 || Number(match[2]) < Number(match[1]))
        fail("--only needs a range of task numbers, e.g. 1-15");
      args.only = { from: Number(match[1]), to: Number(match[2]) };
    } else if (flag === "--kind") {
      const list = value().split(",");
      const bad = list.filter((kind) => !(QUESTION_KINDS as readonly string[]).includes(kind));
      if (bad.length > 0)
        fail(`--kind: unknown ${bad.join(", ")}; valid: ${QUESTION_KINDS.join(", ")}`);
      args.kinds = list as QuestionKind[];
    } else if (flag === "--shape") {
      const list = value().split(",");
      const bad = list.filter((shape) => !(SHAPES as readonly string[]).includes(shape));
      if (bad.length > 0) fail(`--shape: unknown ${bad.join(", ")}; valid: ${SHAPES.join(", ")}`);
      args.shapes = list as ShapeName[];
    } else if (flag === "--context-window") args.window = wholeNumber(flag, value(), 2048);
    else if (flag === "--chars") args.chars = wholeNumber(flag, value(), 1000);
    else if (flag === "--out") args.out = resolve(value());
    else if (flag === "--work") args.work = resolve(value());
    else if (flag === "--json") args.json = true;
    else if (flag === "--help" || flag === "-h") help();
    else fail(`unknown option ${flag}`);
  }
  if (args.dev && args.seed !== undefined)
    fail(`--dev and --seed are exclusive: --dev is --seed ${DEVELOPMENT_SEED}`);
  return args;
}

async function main(): Promise<void> {
  const args = parseLiveArgs(process.argv.slice(2));
  const fresh = args.seed === undefined && !args.dev;
  const seed = args.dev ? DEVELOPMENT_SEED : (args.seed ?? freshSeed());
  const variant = variantOf(args.ablate);
  const out = args.out ?? liveReportDir(variant);
  const work = args.work ?? resolve(".cache/eval-live", String(seed));
  const modelLabel =
    args.label ?? (args.model === DEFAULT_LIVE_MODEL ? DEFAULT_LIVE_LABEL : args.model);
  process.stderr.write(
    `eval:live: seed ${seed}${fresh ? " (fresh)" : args.dev ? " (development)" : ""}; continue this run with --seed ${seed}\n`,
  );
  const load = loadavg()[0]!.toFixed(1);
  const run = await runLive({
    model: args.model,
    seed,
    count: args.tasks,
    policies: args.policies,
    ablate: args.ablate,
    window: args.window,
    out,
    workDir: work,
    ...(args.chars ? { chars: args.chars } : {}),
    ...(args.only ? { only: args.only } : {}),
    ...(args.kinds ? { kinds: args.kinds } : {}),
    ...(args.shapes ? { shapes: args.shapes } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
    // A development seed's outcomes are there to be looked at; a fresh seed's wait for its report.
    showOutcomes: args.showOutcomes || args.dev,
    replay: args.replay,
  });
  // Figures compare policies on the same tasks: those every policy has played.
  const played = run.episodes.filter((e) => args.policies.includes(e.policy as LivePolicy));
  const ran = played.filter((e) =>
    args.policies.every((p) => played.some((o) => o.taskId === e.taskId && o.policy === p)),
  );
  const command = `npm run eval:live -- --seed ${seed} --tasks ${args.tasks} --policies ${args.policies.join(",")}${args.ablate.length > 0 ? ` --ablate ${args.ablate.join(",")}` : ""}${args.kinds ? ` --kind ${args.kinds.join(",")}` : ""}${args.shapes ? ` --shape ${args.shapes.join(",")}` : ""}`;
  const aimed = args.kinds !== undefined || args.shapes !== undefined;
  const aim = {
    ...(args.kinds ? { kinds: args.kinds } : {}),
    ...(args.shapes ? { shapes: args.shapes } : {}),
  };
  const reportPath = await writeLiveReport({
    episodes: ran,
    seed,
    fresh: !args.dev && seed !== DEVELOPMENT_SEED,
    tasks: new Set(ran.map((e) => e.taskId)).size,
    // The seed's tasks of the kinds and shapes aimed at, whatever `--only` played of them.
    seedTasks: aimed ? run.tasks.filter(aimedAt(aim)).length : args.tasks,
    ...(aimed ? { aimedAt: { ...aim, drawn: args.tasks } } : {}),
    modelLabel,
    scripted: false,
    window: args.window,
    machine: `${cpus().length} cores, load average ${load} at the start`,
    seconds: run.seconds,
    command,
    variant,
    out,
  });
  const figures = Object.fromEntries(
    [...groupBy(ran, (e) => e.policy)].map(([p, list]) => [p, figuresOf(list)]),
  );
  const lines = Object.entries(figures).map(
    ([p, f]) =>
      `  ${p.padEnd(12)} recall ${f.right}/${f.episodes} (${Math.round(f.recallLow * 100)}–${Math.round(f.recallHigh * 100)}%) · invented ${Math.round(f.inventedRate * 100)}% · median tokens per right answer ${f.medianTokensPerRightAnswer ?? "–"}`,
  );
  process.stdout.write(
    `eval:live seed ${seed}: ${ran.length} episodes · report ${reportPath}\n${lines.join("\n")}\n`,
  );
  if (args.json) {
    const policies = Object.fromEntries(
      Object.entries(figures).map(([p, f]) => [
        p,
        {
          recall: f.recall,
          recallLow: f.recallLow,
          recallHigh: f.recallHigh,
          inventedRate: f.inventedRate,
          retrievalBeforeAnswerRate: f.retrievalBeforeAnswerRate,
          medianTokensPerRightAnswer: f.medianTokensPerRightAnswer,
          medianSecondsPerTask: f.medianSecondsPerTask,
        },
      ]),
    );
    const shapes = SHAPES.filter((s) => run.tasks.some((t) => t.shape === s));
    process.stdout.write(
      `${JSON.stringify({ seed, fresh, tasks: run.tasks.length, shapes, model: args.model, variant, contextWindow: args.window, seconds: Math.round(run.seconds), policies })}\n`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  });
}

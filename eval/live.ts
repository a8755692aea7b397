/**
 * `npm run eval:live`: one real model plays spillway and the peer policies on the same tasks
 * (eval/live-run.ts), and the report goes to eval/report-live/ (eval/live-report.ts). The model
 * is the local default unless `--model` (or SPILLWAY_LIVE_MODEL) names another; with --json the
 * last stdout line is one JSON object with every policy's figures.
 *
 *   npm run eval:live
 *   npm run eval:live -- --policies spillway,paging-4000 --tasks 3 --json
 *   npm run eval:live -- --spillway-settings '{"async":false}' --out /tmp/live-handle
 */
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { POLICIES, type PolicyName } from "./episode.js";
import { liveFigures, writeLiveReport } from "./live-report.js";
import {
  LIVE_CONTEXT_WINDOW,
  LIVE_DEFAULT_TASKS,
  LIVE_POLICIES,
  LIVE_TASKS,
  runLiveEval,
  saveEpisodes,
} from "./live-run.js";

/** The model eval:live plays by default: the local test model (`npm run model:fetch`). */
export const DEFAULT_LIVE_MODEL = "local/qwen2.5-coder-1.5b-instruct-q4_k_m";

const USAGE =
  "usage: npm run eval:live -- [--model REF] [--label TEXT] [--policies a,b] [--tasks N] [--context-window TOKENS] [--seed N] [--spillway-settings JSON] [--out DIR] [--json]";

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

interface LiveArgs {
  model: string;
  label: string | undefined;
  policies: PolicyName[];
  tasks: number;
  contextWindow: number;
  seed: number;
  settings: Record<string, unknown> | undefined;
  out: string;
  json: boolean;
}

function parse(argv: readonly string[]): LiveArgs {
  const args: LiveArgs = {
    model: process.env.SPILLWAY_LIVE_MODEL || DEFAULT_LIVE_MODEL,
    label: undefined,
    policies: [...LIVE_POLICIES],
    tasks: LIVE_DEFAULT_TASKS,
    contextWindow: LIVE_CONTEXT_WINDOW,
    seed: 1,
    settings: undefined,
    out: resolve(import.meta.dirname, "report-live"),
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === "--model") args.model = value();
    else if (flag === "--label") args.label = value();
    else if (flag === "--policies") {
      const list = value().split(",");
      const bad = list.filter((p) => !POLICIES.includes(p as PolicyName));
      if (bad.length > 0)
        fail(`--policies: unknown ${bad.join(", ")}; valid: ${POLICIES.join(", ")}`);
      args.policies = list as PolicyName[];
    } else if (flag === "--tasks") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > LIVE_TASKS.length)
        fail(`--tasks needs a whole number 1..${LIVE_TASKS.length}`);
      args.tasks = n;
    } else if (flag === "--context-window") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 2048)
        fail(`--context-window needs a whole number of tokens, at least 2048`);
      args.contextWindow = n;
    } else if (flag === "--seed") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) fail("--seed needs a whole number, at least 1");
      args.seed = n;
    } else if (flag === "--spillway-settings") {
      const text = value();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        fail(`--spillway-settings: not JSON: ${text}`);
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        fail("--spillway-settings needs a JSON object, e.g. '{\"async\":false}'");
      args.settings = parsed as Record<string, unknown>;
    } else if (flag === "--out") args.out = resolve(value());
    else if (flag === "--json") args.json = true;
    else if (flag === "--help" || flag === "-h") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else fail(`unknown option ${flag}`);
  }
  return args;
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const label = args.label ?? args.model;
  const load = loadavg()[0]!.toFixed(1);
  const { episodes, seconds } = await runLiveEval({
    model: args.model,
    modelLabel: label,
    out: args.out,
    policies: args.policies,
    tasks: LIVE_TASKS.slice(0, args.tasks),
    contextWindow: args.contextWindow,
    seed: args.seed,
    ...(args.settings ? { spillwaySettings: args.settings } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
    progress: (line) => process.stderr.write(`${line}\n`),
    onEpisode: (_e, all) => saveEpisodes(args.out, all),
  });
  const machine = `${cpus().length} cores, load average ${load} at the start (a shared machine)`;
  const reportPath = await writeLiveReport({
    episodes,
    model: args.model,
    modelLabel: label,
    scripted: false,
    seconds,
    out: args.out,
    machine,
    contextWindow: args.contextWindow,
    seed: args.seed,
    ...(args.settings ? { spillwaySettings: args.settings } : {}),
  });
  await saveEpisodes(args.out, episodes);
  const figures = liveFigures(episodes, args.model);
  const lines = Object.entries(figures).map(
    ([p, f]) =>
      `  ${p.padEnd(20)} recall ${(f.recall * 100).toFixed(0)}% · retrieved first ${f.retrievalBeforeAnswerRate === null ? "–" : `${(f.retrievalBeforeAnswerRate * 100).toFixed(0)}%`} · ` +
      `invented ${(f.inventedRate * 100).toFixed(0)}% · median input tokens per right answer ${f.medianTokensPerRightAnswer ?? "–"}`,
  );
  process.stdout.write(
    `${[`eval:live ${label}: ${episodes.length} episodes in ${Math.round(seconds)} s · report ${reportPath}`, ...lines].join("\n")}\n`,
  );
  if (args.json)
    process.stdout.write(
      `${JSON.stringify({
        evalLive: args.model,
        model: args.model,
        modelLabel: label,
        tasks: new Set(episodes.map((e) => e.taskId)).size,
        seconds,
        machine,
        contextWindow: args.contextWindow,
        seed: args.seed,
        policies: figures,
      })}\n`,
    );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}

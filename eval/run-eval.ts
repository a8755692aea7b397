/**
 * Runs the evaluation: every policy on every task of every workload, then the report. The
 * library entry point (`npm run eval` is eval/main.ts around it).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadTokenizer } from "../src/core/tokens.js";
import { runPagingPolicy, runViewPolicy } from "./baselines.js";
import { renderCharts } from "./charts.js";
import { type Episode, POLICIES, type PolicyName } from "./episode.js";
import { prepare } from "./prepared.js";
import { writeReport } from "./report.js";
import { runSpillPolicy } from "./spill-to-file.js";
import { type AgentState, spillwayResponder } from "./spillway-agent.js";
import { startSpillwayEnv } from "./spillway-env.js";
import { runSpillwayPolicy } from "./spillway-policy.js";
import { type Summary, summarize } from "./summary.js";
import { generateWorkload, KINDS, type Kind, SIZES, type SizeLabel } from "./workload.js";

export interface EvalOptions {
  readonly kinds?: readonly Kind[];
  readonly sizes?: readonly SizeLabel[];
  readonly policies?: readonly PolicyName[];
  /** Where the report goes (README.md, PNG charts, episodes.json). */
  readonly out: string;
  readonly seed?: number;
  /** Progress lines (stderr in the CLI). */
  readonly log?: (line: string) => void;
  /** Whether to render the PNG charts (the test skips nothing; a caller may). */
  readonly charts?: boolean;
}

export interface EvalResult {
  readonly episodes: Episode[];
  readonly summary: Summary;
  readonly seconds: number;
  readonly reportPath: string;
}

const SINGLE_VIEW: readonly PolicyName[] = [
  "raw",
  "codex-head-tail",
  "openhands-head",
  "seed-50-50",
  "claude-mcp-25k",
];

/** Seeds differ per workload but are fixed by the run's seed. */
function seedOf(seed: number, kind: Kind, size: SizeLabel): number {
  return seed * 1000 + KINDS.indexOf(kind) * 10 + SIZES.findIndex((s) => s.label === size);
}

/**
 * Runs the evaluation and writes its report.
 *
 * @example
 * const { summary } = await runEval({ out: "eval/report", sizes: ["50KB", "500KB"] });
 * console.log(summary.spillwayRecall, summary.bestTruncationRecall);
 */
export async function runEval(options: EvalOptions): Promise<EvalResult> {
  const started = performance.now();
  const kinds = options.kinds ?? KINDS;
  const sizes = options.sizes ?? SIZES.map((s) => s.label);
  const policies = options.policies ?? POLICIES;
  const seed = options.seed ?? 1;
  const log = options.log ?? (() => {});
  const tokenizer = await loadTokenizer("o200k_base");
  const count = (text: string) => tokenizer.count(text);
  const state: AgentState = { tasks: new Map(), records: new Map() };
  const env = await startSpillwayEnv(spillwayResponder(state));
  const episodes: Episode[] = [];
  try {
    for (const size of sizes) {
      for (const kind of kinds) {
        const t0 = performance.now();
        const workload = generateWorkload(kind, size, seedOf(seed, kind, size));
        const prepared = await prepare(workload, count);
        const found: Episode[] = [];
        for (const policy of policies) {
          if (policy === "spillway" || policy === "spillway-extract")
            found.push(...(await runSpillwayPolicy(env, state, prepared, policy)));
          else if (policy === "paging-4000") found.push(...runPagingPolicy(prepared));
          else if (policy === "spill-to-file")
            found.push(...(await runSpillPolicy(prepared, join(env.dir, "spill"))));
          else if (SINGLE_VIEW.includes(policy)) found.push(...runViewPolicy(policy, prepared));
        }
        episodes.push(...found);
        const spillway = found.filter((e) => e.policy === "spillway");
        log(
          `${workload.id.padEnd(17)} ${workload.tasks.length} tasks · ${prepared.outputTokens.toLocaleString("en-US")} tokens · ` +
            `spillway ${spillway.filter((e) => e.correct).length}/${spillway.length} · ${((performance.now() - t0) / 1000).toFixed(1)} s`,
        );
      }
    }
  } finally {
    await env.close();
  }
  const summary = summarize(episodes, sizes);
  await mkdir(options.out, { recursive: true });
  const charts = options.charts === false ? [] : await renderCharts(episodes, options.out);
  const seconds = (performance.now() - started) / 1000;
  await writeFile(join(options.out, "episodes.json"), `${JSON.stringify(episodes, null, 1)}\n`);
  const reportPath = await writeReport({
    episodes,
    summary,
    charts,
    out: options.out,
    kinds,
    sizes,
    seed,
    seconds,
  });
  return { episodes, summary, seconds, reportPath };
}

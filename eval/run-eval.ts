/**
 * Runs the evaluation: every policy on every task of every workload, then the report. The
 * library entry point (`npm run eval` is eval/main.ts around it).
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { GuidanceSwitch } from "../src/config/guidance.js";
import { loadTokenizer } from "../src/core/tokens.js";
import { renderCharts } from "./charts.js";
import { type Episode, POLICIES, type PolicyName } from "./episode.js";
import { type PeerPolicy, runPeerPolicy } from "./peers.js";
import { prepare } from "./prepared.js";
import { writeReport } from "./report.js";
import { startSpillwayEnv } from "./spillway-env.js";
import { runSpillwayPolicy, spillwayResponder } from "./spillway-policy.js";
import { type Summary, summarize } from "./summary.js";
import { generateWorkload, KINDS, type Kind, SIZES, type SizeLabel } from "./workload.js";

/** Who plays the agents in `npm run eval`: blind scripts, never a real model. */
export const SCRIPTED_MODEL = "scripted (blind stand-in, not a real model)";

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
  /** Guidance behaviours switched off for spillway's sessions (an ablation). */
  readonly ablate?: readonly GuidanceSwitch[];
}

export interface EvalResult {
  readonly episodes: Episode[];
  readonly summary: Summary;
  readonly seconds: number;
  readonly reportPath: string;
}

/** Seeds differ per workload but are fixed by the run's seed. */
export function seedOf(seed: number, kind: Kind, size: SizeLabel): number {
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
  const env = await startSpillwayEnv(spillwayResponder(), options.ablate ?? []);
  const episodes: Episode[] = [];
  try {
    for (const size of sizes) {
      for (const kind of kinds) {
        const t0 = performance.now();
        const workload = generateWorkload(kind, size, seedOf(seed, kind, size));
        const prepared = await prepare(workload, count);
        const spillDir = join(env.dir, "spill");
        const found: Episode[] = [];
        for (const policy of policies) {
          if (policy === "spillway" || policy === "spillway-extract")
            found.push(...(await runSpillwayPolicy(env, prepared, policy)));
          else found.push(...(await runPeerPolicy(policy as PeerPolicy, prepared, spillDir)));
        }
        await rm(spillDir, { recursive: true, force: true });
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
  const summary = summarize(episodes, sizes, SCRIPTED_MODEL);
  await mkdir(options.out, { recursive: true });
  const charts = options.charts === false ? [] : await renderCharts(episodes, options.out);
  const seconds = (performance.now() - started) / 1000;
  await writeFile(join(options.out, "episodes.json"), `${JSON.stringify(episodes, null, 2)}\n`);
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

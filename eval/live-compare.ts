/**
 * `npm run eval:live:compare`: an ablation against the default run of the same seed, task by
 * task (eval/live/compare.ts). Both runs must have been played first:
 *
 *   npm run eval:live -- --seed S --tasks 30 --policies spillway
 *   npm run eval:live -- --seed S --tasks 30 --policies spillway --ablate taskFocus
 *   npm run eval:live:compare -- --seed S --ablate taskFocus
 *
 * `--out` is the default run's report directory (eval/report-live/), the ablation's below it.
 * A switch since removed is still compared where its run is recorded there, so the commands that
 * reproduce the figures behind a removal keep working.
 * With --json the last stdout line is one JSON object.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { GUIDANCE_SWITCHES } from "../src/config/guidance.js";
import { type CliArgs, cliArgs } from "./cli-args.js";
import { compareRuns, renderComparison } from "./live/compare.js";
import { loadEpisodes } from "./live/episode.js";
import { episodesFileOf, liveReportDir, variantOf } from "./live/run.js";

const USAGE =
  "usage: npm run eval:live:compare -- --seed N --ablate NAME[,NAME] [--policy spillway] [--out DIR] [--json]";

const cli = cliArgs(USAGE);
/** Annotated, so that the compiler knows it does not return. */
const fail: CliArgs["fail"] = cli.fail;
const { wholeNumber, help } = cli;

function parse(argv: readonly string[]) {
  let seed: number | undefined;
  let ablate: string[] = [];
  let policy = "spillway";
  let json = false;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === "--seed") {
      seed = wholeNumber(flag, value(), 0);
    } else if (flag === "--ablate") {
      ablate = value().split(",").filter(Boolean);
    } else if (flag === "--policy") policy = value();
    else if (flag === "--out") out = value();
    else if (flag === "--json") json = true;
    else if (flag === "--help" || flag === "-h") help();
    else fail(`unknown option ${flag}`);
  }
  if (seed === undefined) fail("--seed is required: the seed both runs played");
  if (ablate.length === 0) fail("--ablate is required: the switches the other run turned off");
  return { seed, ablate, policy, json, out };
}

/**
 * The ablations of `seed` recorded under `root`, as `--ablate` takes them: liveReportDir names
 * `ablate:a,b` `ablate-a-b`, and no switch name holds a "-".
 */
function recordedAblations(root: string, seed: number): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name.startsWith("ablate-"))
    .filter((d) => existsSync(episodesFileOf(join(root, d.name), seed)))
    .map((d) => d.name.slice("ablate-".length).replaceAll("-", ","));
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const variant = variantOf(args.ablate);
  const root = liveReportDir("default", args.out);
  const withPath = episodesFileOf(root, args.seed);
  const withoutPath = episodesFileOf(liveReportDir(variant, args.out), args.seed);
  // A current switch, or a removed one whose run of this seed is recorded.
  const unknown = existsSync(withoutPath)
    ? []
    : args.ablate.filter((a) => !(GUIDANCE_SWITCHES as readonly string[]).includes(a));
  if (unknown.length > 0) {
    const recorded = recordedAblations(root, args.seed);
    fail(
      `--ablate: unknown ${unknown.join(", ")}; valid: ${GUIDANCE_SWITCHES.join(", ")}${recorded.length > 0 ? `, or a run recorded for seed ${args.seed}: ${recorded.join(", ")}` : ""}`,
    );
  }
  const [withBehaviour, withoutBehaviour] = await Promise.all([
    loadEpisodes(withPath),
    loadEpisodes(withoutPath),
  ]);
  const paired = compareRuns(withBehaviour, withoutBehaviour, args.policy);
  if (paired.tasks === 0)
    fail(
      `no task of seed ${args.seed} was played by ${args.policy} in both ${withPath} and ${withoutPath}`,
    );
  const behaviour = args.ablate.join(" and ");
  process.stdout.write(
    `seed ${args.seed}, ${args.policy}, ${paired.tasks} tasks played with and without ${behaviour}\n\n`,
  );
  process.stdout.write(`${renderComparison(paired, behaviour).join("\n")}\n`);
  if (args.json)
    process.stdout.write(
      `${JSON.stringify({ seed: args.seed, variant, policy: args.policy, ...paired })}\n`,
    );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

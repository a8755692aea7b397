/**
 * `npm run eval`: the deterministic evaluation of spillway against the policies peers use
 * (eval/README.md). Progress on stderr; the headline figures on stdout; with --json the last
 * stdout line is one JSON object.
 *
 *   npm run eval                     # full: 7 kinds × 50 KB, 500 KB, 5 MB, 50 MB → eval/report/
 *   npm run eval -- --quick          # 50 KB and 500 KB → eval/report-quick/
 *   npm run eval -- --kinds log,csv --sizes 5MB --json
 *   npm run eval -- --quick --seed 418263 --ablate taskRecord   # spillway with one behaviour off
 */
import { join, resolve } from "node:path";
import { GUIDANCE_SWITCHES, type GuidanceSwitch } from "../src/config/guidance.js";
import { type CliArgs, cliArgs } from "./cli-args.js";
import { POLICIES, type PolicyName } from "./episode.js";
import { runEval } from "./run-eval.js";
import { KINDS, type Kind, SIZES, type SizeLabel } from "./workload.js";

const USAGE =
  "usage: npm run eval -- [--quick] [--json] [--kinds a,b] [--sizes 50KB,500KB,5MB,50MB] [--policies a,b] [--seed N] [--ablate NAME[,NAME]] [--out DIR]";

const cli = cliArgs(USAGE);
/** Annotated, so that the compiler knows it does not return. */
const fail: CliArgs["fail"] = cli.fail;
const { wholeNumber, help } = cli;

function list<T extends string>(value: string | undefined, valid: readonly T[], flag: string): T[] {
  if (!value) fail(`${flag} needs a value`);
  const items = value.split(",").map((s) => s.trim());
  const bad = items.filter((s) => !valid.includes(s as T));
  if (bad.length > 0) fail(`${flag}: unknown ${bad.join(", ")}; valid: ${valid.join(", ")}`);
  return items as T[];
}

function parse(argv: readonly string[]) {
  let quick = false;
  let json = false;
  let kinds: Kind[] | undefined;
  let sizes: SizeLabel[] | undefined;
  let policies: PolicyName[] | undefined;
  let seed = 1;
  let out: string | undefined;
  let ablate: GuidanceSwitch[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => argv[++i];
    if (flag === "--quick") quick = true;
    else if (flag === "--json") json = true;
    else if (flag === "--kinds") kinds = list(value(), KINDS, flag);
    else if (flag === "--sizes")
      sizes = list(
        value(),
        SIZES.map((s) => s.label),
        flag,
      );
    else if (flag === "--policies") policies = list(value(), POLICIES, flag);
    else if (flag === "--seed") {
      seed = wholeNumber(flag, value(), 0);
    } else if (flag === "--ablate") ablate = list(value(), GUIDANCE_SWITCHES, flag);
    else if (flag === "--out") out = value() ?? fail("--out needs a directory");
    else if (flag === "--help" || flag === "-h") help();
    else fail(`unknown option ${flag}`);
  }
  const root = resolve(import.meta.dirname);
  return {
    json,
    kinds,
    sizes: sizes ?? (quick ? (["50KB", "500KB"] as SizeLabel[]) : undefined),
    policies,
    seed,
    ablate,
    out: out ? resolve(out) : join(root, quick ? "report-quick" : "report"),
  };
}

const options = parse(process.argv.slice(2));
const result = await runEval({
  out: options.out,
  seed: options.seed,
  ...(options.kinds ? { kinds: options.kinds } : {}),
  ...(options.sizes ? { sizes: options.sizes } : {}),
  ...(options.policies ? { policies: options.policies } : {}),
  ablate: options.ablate,
  log: (line) => process.stderr.write(`${line}\n`),
});
const s = result.summary;
const pct = (x: number | null) =>
  x === null || Number.isNaN(x)
    ? "–"
    : x > 0 && x < 0.001
      ? `${(x * 100).toPrecision(2)}%`
      : `${(x * 100).toFixed(1)}%`;
const int = (x: number | null) =>
  x === null || Number.isNaN(x) ? "–" : Math.round(x).toLocaleString("en-US");
const lines = [
  `episodes ${s.episodes} (${s.tasks} tasks) in ${result.seconds.toFixed(0)} s · report ${result.reportPath}`,
  `blind scripted agents (not a real model), scored from each run's final report${options.ablate.length > 0 ? `; spillway with ${options.ablate.join(", ")} off` : ""}:`,
  ...POLICIES.filter((p) => s.policies[p]).map((p) => {
    const f = s.policies[p]!;
    return (
      `  ${p.padEnd(20)} recall ${pct(f.recall).padStart(6)} · retrieved first ${pct(f.retrievalBeforeAnswerRate).padStart(6)} · ` +
      `invented ${pct(f.inventedRate)} · median tokens sent per task ${int(f.medianTokensPerTask)}, per right answer ${int(f.medianTokensPerRightAnswer)}`
    );
  }),
  `spillway: lossless ${s.spillwayLossless ?? "not run"}; at ${s.largestSize} a median of ${int(s.spillwayMedianTokensAtLargest)} tokens sent per task = ` +
    `${pct(s.spillwayMedianShareOfOutputAtLargest)} of the output (target <= 1%: ${s.targets.tokensAtLargestAtMost1PctOfOutput ? "PASS" : "FAIL"})`,
  `paired with paging (tasks both answered right): ${s.paired.tasks} tasks, spillway ${int(s.paired.spillwayMedian)} vs paging ${int(s.paired.pagingMedian)} ` +
    `(median ratio ${s.paired.medianRatio.toFixed(2)}); at ${s.largestSize}: ${s.pairedAtLargest.tasks} tasks, spillway ${int(s.pairedAtLargest.spillwayMedian)} ` +
    `vs paging ${int(s.pairedAtLargest.pagingMedian)} (target <= 1/10: ${s.targets.pairedAtLargestAtMostTenthOfPaging ? "PASS" : "FAIL"})`,
  `best peer: ${s.bestPeer.policy ?? "none"} ${pct(s.bestPeer.recall)}; best truncation: ${s.bestTruncationPolicy} ${pct(s.bestTruncationRecall)}`,
];
process.stdout.write(`${lines.join("\n")}\n`);
if (options.json)
  process.stdout.write(
    `${JSON.stringify({ eval: "scripted", seconds: result.seconds, ablate: options.ablate, ...s })}\n`,
  );

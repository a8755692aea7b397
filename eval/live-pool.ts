/**
 * `npm run eval:live:pool`: every live run kept in the report directory, pooled for one policy,
 * to show which question kinds and shapes hold its recall back (eval/live/pool.ts), and paired
 * by task with every peer that played the same tasks (eval/live/pool-peers.ts):
 *
 *   npm run eval:live:pool -- --policy spillway --cells 12
 *
 * `--out` is the report directory (eval/report-live/); only its default runs are pooled.
 * With --json the last stdout line is one JSON object.
 */
import { existsSync } from "node:fs";
import { type CliArgs, cliArgs } from "./cli-args.js";
import { loadRunEpisodes, poolOf, renderPool } from "./live/pool.js";
import { peerPairings, renderPeerPairings } from "./live/pool-peers.js";
import { LIVE_POLICIES } from "./live/run.js";

const USAGE =
  "usage: npm run eval:live:pool -- [--policy spillway] [--cells N] [--out DIR] [--json]";

const cli = cliArgs(USAGE);
/** Annotated, so that the compiler knows it does not return. */
const fail: CliArgs["fail"] = cli.fail;
const { wholeNumber, help } = cli;

function parse(argv: readonly string[]) {
  let policy = "spillway";
  let cells = 12;
  let out = "eval/report-live";
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === "--policy") policy = value();
    else if (flag === "--cells") {
      cells = wholeNumber(flag, value(), 1);
    } else if (flag === "--out") out = value();
    else if (flag === "--json") json = true;
    else if (flag === "--help" || flag === "-h") help();
    else fail(`unknown option ${flag}`);
  }
  if (!(LIVE_POLICIES as readonly string[]).includes(policy))
    fail(`--policy: unknown ${policy}; valid: ${LIVE_POLICIES.join(", ")}`);
  if (!existsSync(out)) fail(`--out: no directory ${out}`);
  return { policy, cells, out, json };
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const episodes = await loadRunEpisodes(args.out);
  const pool = poolOf(episodes, args.policy);
  if (pool.total.episodes === 0)
    fail(`no default run of ${args.policy} is kept in ${args.out} (episodes-SEED.jsonl)`);
  const peers = peerPairings(episodes, args.policy);
  const paired = renderPeerPairings(args.policy, peers);
  const text = [...renderPool(pool, args.cells), ...(paired.length > 0 ? ["", ...paired] : [])];
  process.stdout.write(`${text.join("\n")}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify({ ...pool, peers })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

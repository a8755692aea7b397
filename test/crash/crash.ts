/**
 * The crash harness as a script: 50 SIGKILLs during large ingests and 50 during running
 * sessions (each resumed), then the checks of crash-harness.ts.
 *
 *   npm run crash
 *   npm run crash -- --ingest 50 --sessions 50 --seed 1 --json
 */
import { runCrashes } from "./crash-harness.js";

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const started = performance.now();
const summary = await runCrashes({
  ingestRounds: option("ingest", 50),
  sessionRounds: option("sessions", 50),
  seed: option("seed", 1),
  maxMb: option("max-mb", 20),
  log: (line) => process.stderr.write(`${line}\n`),
});
const seconds = (performance.now() - started) / 1000;
const ok =
  summary.lost === 0 &&
  summary.partial === 0 &&
  summary.resumeFailures === 0 &&
  summary.tempFilesAfterGc === 0;
process.stdout.write(
  `${[
    `kills: ${summary.ingestKills} during ingests, ${summary.sessionKills} during sessions (${seconds.toFixed(0)} s)`,
    `committed outputs checked after kills: ${summary.committedChecked}, lost: ${summary.lost}`,
    `ready records verified (SHA-256): ${summary.readyVerified}, partial or dangling: ${summary.partial}`,
    `sessions resumed to completion: ${summary.resumed} of ${summary.sessionKills} (failures ${summary.resumeFailures})`,
    `temp files left by kills: ${summary.tempFilesBeforeGc} before store gc, ${summary.tempFilesAfterGc} after`,
    ...summary.problems.map((problem) => `PROBLEM ${problem}`),
    ok ? "PASS" : "FAIL",
  ].join("\n")}\n`,
);
if (process.argv.includes("--json"))
  process.stdout.write(`${JSON.stringify({ ...summary, seconds, pass: ok })}\n`);
process.exitCode = ok ? 0 : 1;

// Starts `spillway serve` (or, with --floor, a Node process that prints one line and waits),
// waits for its listening line on stdout, stops it with SIGTERM and exits: time it as a whole
// process to measure start-up. --npx starts it as `npx spillway serve`, as a user would.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const floor = process.argv.includes("--floor");
const npx = process.argv.includes("--npx");
const home = mkdtempSync(join(tmpdir(), "spillway-startup-"));
const args = ["--home", home, "--json", "serve", "--port", "0"];
const [command, argv] = floor
  ? [
      process.execPath,
      [
        "-e",
        "console.log('{}'); process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000)",
      ],
    ]
  : npx
    ? ["npx", ["--no-install", "spillway", ...args]]
    : [process.execPath, [join(import.meta.dirname, "../dist/cli/main.js"), ...args]];
const started = performance.now();
const child = spawn(command, argv, { stdio: ["ignore", "pipe", "inherit"] });
createInterface({ input: child.stdout }).once("line", () => {
  process.stderr.write(`listening after ${(performance.now() - started).toFixed(0)} ms\n`);
  child.kill("SIGTERM");
});
child.once("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

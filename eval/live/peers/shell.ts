/**
 * A real shell for the peers' own command tools (Claude Code's Bash, Codex's shell): bash in
 * the project, a clean environment, a timeout, stdout and stderr together, at most 1 MiB kept
 * (Codex keeps the first 1 MiB of a command's output; each product then applies its own limits).
 */
import { spawn } from "node:child_process";

const MAX_CAPTURE_BYTES = 1024 * 1024;
const TIMEOUT_MS = 60_000;

export interface ShellRun {
  readonly output: string;
  /** The exit code, or null when a signal ended it. */
  readonly code: number | null;
  readonly seconds: number;
}

/**
 * Runs one command with `bash -c` in `cwd`.
 *
 * @example
 * const run = await runShell("grep -n ERROR data/01-app.log | head", "/tmp/run/project");
 */
export function runShell(command: string, cwd: string): Promise<ShellRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", command], {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C.UTF-8", HOME: cwd },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: Buffer) => {
      if (size < MAX_CAPTURE_BYTES) chunks.push(chunk.subarray(0, MAX_CAPTURE_BYTES - size));
      size += chunk.length;
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({
        output: Buffer.concat(chunks).toString("utf8"),
        code,
        seconds: (performance.now() - started) / 1000,
      });
    });
    child.on("error", (error) =>
      resolve({ output: `bash: ${error.message}`, code: 127, seconds: 0 }),
    );
  });
}

/**
 * A real shell for the peers' command tools (Claude Code's Bash, Codex's shell, Goose's shell):
 * bash in a directory, a clean environment, a timeout, stdout and stderr together, at most
 * `captureBytes` kept. Each product then applies its own limits to what it shows.
 */
import { spawn } from "node:child_process";

export interface ShellRun {
  /** What the command printed, at most `captureBytes` of it. */
  readonly output: string;
  /** Bytes it printed in all (more than `output` holds when the capture was full). */
  readonly totalBytes: number;
  /** The exit code, or null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly seconds: number;
}

export interface ShellLimits {
  readonly captureBytes: number;
  readonly timeoutMs: number;
}

/**
 * Runs one command with `bash -c` in `cwd`.
 *
 * @example
 * const run = await runShell("grep -n ERROR data/01-app.log | head", "/tmp/run/project", { captureBytes: 1 << 20, timeoutMs: 60_000 });
 */
export function runShell(command: string, cwd: string, limits: ShellLimits): Promise<ShellRun> {
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
      if (size < limits.captureBytes) chunks.push(chunk.subarray(0, limits.captureBytes - size));
      size += chunk.length;
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => child.kill("SIGKILL"), limits.timeoutMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        output: Buffer.concat(chunks).toString("utf8"),
        totalBytes: size,
        code,
        signal,
        seconds: (performance.now() - started) / 1000,
      });
    });
    child.on("error", (error) =>
      resolve({
        output: `bash: ${error.message}`,
        totalBytes: 0,
        code: 127,
        signal: null,
        seconds: 0,
      }),
    );
  });
}

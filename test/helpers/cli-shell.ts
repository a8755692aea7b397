/**
 * Runs the built `spillway` binary through `sh -c`, for end-to-end tests that need shell
 * redirections (stdin from a directory, a closed stdin). Build it first with ensureBuilt().
 */
import { spawn } from "node:child_process";
import { BIN } from "./built-cli.js";

export interface ShellRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Quotes one word for sh. */
export function shq(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Runs `sh -c "exec node BIN <args> <redirections>"`, so a test can give the binary stdin
 * from a directory, a closed stdin, and so on.
 */
export function runShell(args: readonly string[], redirections = ""): Promise<ShellRun> {
  const command = `exec ${shq(process.execPath)} ${shq(BIN)} ${args.map(shq).join(" ")} ${redirections}`;
  return new Promise((done, fail) => {
    const child = spawn("sh", ["-c", command], { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", fail);
    child.on("close", (code, signal) =>
      done({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

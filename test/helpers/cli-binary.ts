/**
 * Runs the built `spillway` binary (dist/cli/main.js) for end-to-end tests, rebuilding it
 * first when a source file is newer (as after an edit; `npm test` builds before testing).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
export const BIN = join(ROOT, "dist/cli/main.js");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/ when it is older than src/. */
export function ensureBuilt(): void {
  const built = existsSync(BIN) ? statSync(BIN).mtimeMs : 0;
  if (built >= newestSource(join(ROOT, "src"))) return;
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
    {
      cwd: ROOT,
      stdio: "inherit",
    },
  );
}

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

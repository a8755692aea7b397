/**
 * Running the BUILT CLI (`node dist/cli/main.js`) from end-to-end tests: builds dist when a
 * source file is newer or was deleted, and runs the binary in a temp home with no model configured.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
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

/** What tsc writes for one source module, by the extension it replaces `.ts` with. */
const EMITTED = [".js", ".js.map", ".d.ts", ".d.ts.map"];

/**
 * The files tsc wrote into dist for sources that no longer exist (the inspector's files, which
 * vite writes, aside): tsc never removes them, and a package or CLI test would find them.
 */
function orphanedOutputs(dir = join(ROOT, "dist"), src = join(ROOT, "src")): string[] {
  if (!existsSync(dir)) return [];
  const orphans: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(ROOT, "dist/inspector"))
        orphans.push(...orphanedOutputs(path, join(src, entry.name)));
      continue;
    }
    const ext = EMITTED.find((e) => entry.name.endsWith(e));
    if (!ext) continue;
    const stem = entry.name.slice(0, -ext.length);
    const sources = [".ts", ".tsx", ".mts"].map((e) => join(src, stem + e));
    if (!sources.some((source) => existsSync(source))) orphans.push(path);
  }
  return orphans;
}

/** True while the build holding `lock` may still be running: its process lives, or it just began. */
function lockHeld(lock: string): boolean {
  const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
  // No build takes a quarter of an hour: such a lock is a dead build's whose pid was reused.
  if (since === undefined || Date.now() - since > 15 * 60_000) return false;
  let pid = 0;
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    // Not written yet (the builder is between mkdir and writing it), or the lock is gone.
  }
  if (!Number.isInteger(pid) || pid <= 0) return Date.now() - since < 10_000;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Builds dist when a source file is newer, or a compiled module's source is gone (its outputs
 * are removed first). One build at a time across test files: a lock
 * directory in the temp dir holding the builder's pid. While it is held, nobody runs the CLI (tsc
 * writes dist/cli/main.js before the modules it imports, so a fresh-looking binary can still be
 * half built), and a lock whose process is gone is a crashed build's and is taken over, however
 * long a build takes on a loaded machine.
 */
export async function ensureBuilt(): Promise<void> {
  const lock = join(
    tmpdir(),
    `spillway-build-lock-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}`,
  );
  const wait = () => new Promise((done) => setTimeout(done, 200));
  for (;;) {
    if (lockHeld(lock)) {
      await wait();
      continue;
    }
    if (existsSync(lock)) {
      await rm(lock, { recursive: true, force: true }); // a crashed build's
      continue;
    }
    const built = existsSync(BIN) ? statSync(BIN).mtimeMs : 0;
    const orphans = orphanedOutputs();
    if (built >= newestSource(join(ROOT, "src")) && orphans.length === 0) return;
    try {
      await mkdir(lock);
    } catch {
      await wait();
      continue;
    }
    try {
      writeFileSync(join(lock, "pid"), String(process.pid));
      for (const orphan of orphans) await rm(orphan, { force: true });
      execFileSync(
        process.execPath,
        [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
        { cwd: ROOT, stdio: "inherit" },
      );
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
    return;
  }
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  /** stdout as the bytes written (an exported binary output). */
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
  readonly ms: number;
}

export interface CliOptions {
  readonly cwd: string;
  readonly home: string;
  readonly input?: string | Buffer;
  /** Called with the child once it is spawned (e.g. to send it a signal). */
  readonly onSpawn?: (child: ChildProcess, stderr: () => string) => void;
}

/** The environment without a configured model, home or provider keys. */
export const CLI_ENV = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) =>
      !["SPILLWAY_MODEL", "SPILLWAY_HOME", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"].includes(key),
  ),
);

/** Runs the built CLI with `--home` and `args`; resolves with its exit code and output. */
export function runCli(args: readonly string[], options: CliOptions): Promise<CliRun> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, "--home", options.home, ...args], {
      cwd: options.cwd,
      env: CLI_ENV,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", fail);
    child.on("close", (code) => {
      const stdoutBytes = Buffer.concat(out);
      done({
        code,
        stdout: stdoutBytes.toString("utf8"),
        stdoutBytes,
        stderr: Buffer.concat(err).toString("utf8"),
        ms: Date.now() - started,
      });
    });
    options.onSpawn?.(child, () => Buffer.concat(err).toString("utf8"));
    child.stdin.end(options.input);
  });
}

/**
 * The `spillway` binary run from the `outputs` commands' end-to-end tests: each test file gets
 * its own temporary --home and working directory (made before its tests, removed after), and the
 * binary is built first when a source file is newer.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { type CliRun, ensureBuilt, runCli } from "./built-cli.js";

/** One run of the binary: its exit code, stdout (as text and as bytes) and stderr. */
export type Run = CliRun;

export interface OutputsCli {
  /** The --home of this file's runs (set once its `beforeAll` ran). */
  readonly home: () => string;
  /** Runs the binary with the given arguments and stdin. */
  run(args: string[], input?: string | Buffer): Promise<Run>;
  /** Runs it and expects exit 0 with no error line. */
  ok(args: string[], input?: string | Buffer): Promise<Run>;
  /** Writes a file in the working directory, stores it with `outputs put`, returns its id. */
  putFile(name: string, content: string | Buffer, ...flags: string[]): Promise<string>;
}

/**
 * A temp home and working directory for this test file's CLI runs.
 *
 * @example
 * const { ok, putFile } = outputsCli();
 * it("slices", async () => { const id = await putFile("a.log", "x\n"); await ok(["outputs", "slice", id]); });
 */
export function outputsCli(): OutputsCli {
  let home = "";
  let work = "";
  beforeAll(async () => {
    await ensureBuilt();
    home = await mkdtemp(join(tmpdir(), "spillway-cli-home-"));
    work = await mkdtemp(join(tmpdir(), "spillway-cli-work-"));
  }, 120_000);
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });
  const run = (args: string[], input?: string | Buffer): Promise<Run> =>
    runCli(args, { cwd: work, home, ...(input !== undefined ? { input } : {}) });
  const ok = async (args: string[], input?: string | Buffer): Promise<Run> => {
    const result = await run(args, input);
    expect(result.stderr.includes("error "), result.stderr).toBe(false);
    expect(result.code).toBe(0);
    return result;
  };
  const putFile = async (name: string, content: string | Buffer, ...flags: string[]) => {
    await writeFile(join(work, name), content);
    const { stdout } = await ok(["outputs", "put", name, ...flags]);
    return stdout.trim();
  };
  return { home: () => home, run, ok, putFile };
}

export const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** 200 numbered lines with multi-byte characters and a few planted words. */
export const LINES = Array.from({ length: 200 }, (_, i) => {
  const n = i + 1;
  if (n === 42) return "line 42 ERROR disk full on /var — café ☕";
  if (n === 150) return "line 150 error: retry later 😀";
  if (n === 151) return "line 151 Error again";
  return `line ${n} ok ${"ä".repeat(n % 7)}`;
});
export const TEXT = `${LINES.join("\n")}\n`;

/**
 * A `spillway serve` worker on a shared store, as its own process (the built CLI), killed with
 * SIGKILL after the test if it still runs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { BIN, CLI_ENV } from "./built-cli.js";
import { onCleanup, tempDir } from "./temp-store.js";

export interface ServeWorker {
  readonly url: string;
  readonly child: ChildProcess;
  /** What it printed on stderr so far. */
  stderr(): string;
}

/**
 * Starts `spillway --home <new temp dir> --store <store> --json serve --port 0 …serveArgs` in
 * `cwd`; resolves once it listens.
 *
 * @example
 * const worker = await startServeWorker(url, fixture.dir, ["--lease-ttl", "5"]);
 */
export async function startServeWorker(
  store: string,
  cwd: string,
  serveArgs: readonly string[] = [],
): Promise<ServeWorker> {
  const home = await tempDir("spillway-worker-");
  const child = spawn(
    process.execPath,
    [BIN, "--home", home, "--store", store, "--json", "serve", "--port", "0", ...serveArgs],
    { cwd, env: CLI_ENV, stdio: ["ignore", "pipe", "pipe"] },
  );
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n").find((l) => l.includes('"listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}${stdout}`)));
  });
  return { url, child, stderr: () => stderr };
}

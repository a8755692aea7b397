/**
 * The serve benchmark's fixture: one large generated log output (default 1 GB; the same
 * generator as the test MCP server's) in a store under
 * .bench-fixtures/serve/, made once and reused, with a needle near its end; and the server in a
 * child process (`node dist/cli/main.js serve`), so load and server do not share a process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import { generateOutputBlocks } from "../src/core/synthetic/generate.js";
import { openSqliteOutputStore } from "../src/store/index.js";
import { PROJECT_ROOT } from "./fixtures.js";

export const BENCH_SESSION = "bench-serve";
export const NEEDLE = "NEEDLE-SERVE-BENCH-7f3a";

const markerSchema = z.object({ id: z.string(), bytes: z.number(), sha256: z.string() });
export type BigOutput = z.infer<typeof markerSchema> & { readonly home: string };

/** The stored output of `mb` megabytes, made on first use. */
export async function bigOutput(mb: number, log: (line: string) => void): Promise<BigOutput> {
  const home = join(PROJECT_ROOT, ".bench-fixtures", "serve", `${mb}mb-v2`);
  const markerPath = join(home, "fixture.json");
  try {
    const marker = markerSchema.parse(JSON.parse(await readFile(markerPath, "utf8")));
    return { ...marker, home };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(home, { recursive: true });
  log(`making the ${mb} MB fixture in ${home} (once)…`);
  const store = await openSqliteOutputStore({ home, maxOutputBytes: (mb + 16) * 1024 * 1024 });
  try {
    const record = await store.put(
      { sessionId: BENCH_SESSION, toolName: "bench__read_log", toolArgs: JSON.stringify({ mb }) },
      (async function* () {
        yield* generateOutputBlocks(
          { bytes: mb * 1024 * 1024, kind: "log", needle: NEEDLE, needleAt: 0.97, seed: 7 },
          { byteLength: 0, needleByteOffset: undefined, needleLine: undefined },
        );
      })(),
    );
    const marker = { id: record.id, bytes: record.byteSize ?? 0, sha256: record.sha256 ?? "" };
    await writeFile(markerPath, JSON.stringify(marker));
    return { ...marker, home };
  } finally {
    await store.close();
  }
}

export interface ServerChild {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** `spillway serve` in a child process on a free port. */
export async function startServerChild(
  home: string,
  extra: readonly string[] = [],
): Promise<ServerChild> {
  const child = spawn(
    process.execPath,
    [
      join(PROJECT_ROOT, "dist/cli/main.js"),
      "--home",
      home,
      "--json",
      "serve",
      "--port",
      "0",
      ...extra,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) =>
      reject(new Error(`spillway serve exited with ${code} before listening`)),
    );
    lines.once("line", (line) =>
      resolve(z.object({ url: z.string() }).parse(JSON.parse(line)).url),
    );
  });
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

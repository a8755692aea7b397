/**
 * The serve benchmark's fixture: one large log output (default 1 GB) in a store under
 * .bench-fixtures/serve/, made once and reused, with a needle near its end; and the server in a
 * child process (`node dist/cli/main.js serve`), so load and server do not share a process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import { Rng } from "../src/core/rng.js";
import { openSqliteOutputStore } from "../src/store/index.js";
import { PROJECT_ROOT } from "./fixtures.js";

export const BENCH_SESSION = "bench-serve";
export const NEEDLE = "NEEDLE-SERVE-BENCH-7f3a";

const markerSchema = z.object({ id: z.string(), bytes: z.number(), sha256: z.string() });
export type BigOutput = z.infer<typeof markerSchema> & { readonly home: string };

const SERVICES = ["api-gateway", "auth-svc", "payment-svc", "search-svc", "inventory-svc"];
const MESSAGES = [
  "request completed",
  "cache hit",
  "token refreshed",
  "slow query",
  "retrying upstream call",
];

/** Log lines totalling about `bytes`, the needle at 97%. */
async function* logLines(bytes: number): AsyncGenerator<string> {
  const rng = new Rng(7);
  const needleAt = Math.floor(bytes * 0.97);
  let written = 0;
  let planted = false;
  let n = 0;
  while (written < bytes) {
    let chunk = "";
    while (chunk.length < 1 << 20 && written + chunk.length < bytes) {
      n++;
      const service = SERVICES[rng.int(SERVICES.length)];
      const message = MESSAGES[rng.int(MESSAGES.length)];
      chunk += `2026-03-14T08:${String(Math.floor(n / 60000) % 60).padStart(2, "0")}:00.${String(n % 1000).padStart(3, "0")}Z INFO [${service}] request_id=req_${n.toString(16)} msg="${message}" duration_ms=${rng.int(250)}\n`;
      if (!planted && written + chunk.length >= needleAt) {
        chunk += `2026-03-14T09:26:00.000Z ERROR [payment-svc] ${NEEDLE} upstream refused the charge\n`;
        planted = true;
      }
    }
    written += chunk.length;
    yield chunk;
  }
}

/** The stored output of `mb` megabytes, made on first use. */
export async function bigOutput(mb: number, log: (line: string) => void): Promise<BigOutput> {
  const home = join(PROJECT_ROOT, ".bench-fixtures", "serve", `${mb}mb`);
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
      logLines(mb * 1024 * 1024),
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

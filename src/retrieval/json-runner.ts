/**
 * Runs a json-mode task in a worker thread with a heap limit and a deadline: the memory bound
 * and time bound that a regular expression gets (regex-runner.ts), for JSON parsing and
 * JSONPath evaluation, whose cost a query can blow up (`$..*` on a 40 MB array) or stall (a
 * catastrophic regex inside a filter).
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { SpillwayError } from "../core/errors.js";
import { FairQueue, type RetrievalJob } from "./fair-queue.js";
import type { JsonTask, JsonTaskResult } from "./json-evaluate.js";

/** Default deadline of one json-mode read (parsing included). */
export const DEFAULT_JSON_TIMEOUT_MS = 30_000;
/** Default heap limit of the worker that parses and queries, in MiB. */
export const DEFAULT_JSON_MEMORY_MB = 2048;

/**
 * JSON workers running at once in this process: each may hold its document several times over
 * (up to its heap limit), so they are few, shared fairly between lanes (tenants).
 */
export const jsonSlots = new FairQueue({ slots: 2 });

export interface JsonLimits {
  readonly timeoutMs: number;
  readonly maxMemoryMb: number;
  /** For error messages. */
  readonly outputId: string;
  readonly query?: string;
}

const TS_SOURCE = import.meta.url.endsWith(".ts");

/** The worker: the compiled module, or (running from TypeScript sources, in tests) via tsx. */
function startWorker(limits: JsonLimits): Worker {
  const resourceLimits = {
    maxOldGenerationSizeMb: limits.maxMemoryMb,
    maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(limits.maxMemoryMb / 16))),
    stackSizeMb: 4,
  };
  if (!TS_SOURCE) {
    return new Worker(new URL("./json-worker.js", import.meta.url), { resourceLimits });
  }
  const require = createRequire(import.meta.url);
  const file = fileURLToPath(new URL("./json-worker.ts", import.meta.url));
  const source = `require(${JSON.stringify(require.resolve("tsx/cjs"))}); require(${JSON.stringify(file)});`;
  return new Worker(source, { eval: true, resourceLimits });
}

function narrower(): string {
  return (
    "Query a narrower path (e.g. $.items[0:100].id instead of $..id), outline the document first, " +
    "or search it as text with grep."
  );
}

function timeout(limits: JsonLimits): SpillwayError {
  return new SpillwayError(
    "QUERY_TIMEOUT",
    `JSON ${limits.query === undefined ? "outline" : `query ${JSON.stringify(limits.query)}`} of output "${limits.outputId}" took longer than ${limits.timeoutMs} ms and was stopped. ${narrower()}`,
    {
      outputId: limits.outputId,
      ...(limits.query !== undefined ? { query: limits.query } : {}),
      timeoutMs: limits.timeoutMs,
      modes: ["grep", "slice", "page"],
    },
    { fault: "model" },
  );
}

/**
 * QUERY_TOO_COSTLY: the query needed more memory (or stack) than json mode may use. `advice`
 * replaces the default "query a narrower path" when that cannot help.
 */
export function tooCostly(limits: JsonLimits, reason: string, advice = narrower()): SpillwayError {
  return new SpillwayError(
    "QUERY_TOO_COSTLY",
    `JSON ${limits.query === undefined ? "outline" : `query ${JSON.stringify(limits.query)}`} of output "${limits.outputId}" was stopped: ${reason}. ${advice}`,
    {
      outputId: limits.outputId,
      ...(limits.query !== undefined ? { query: limits.query } : {}),
      reason,
      maxMemoryMb: limits.maxMemoryMb,
      modes: ["grep", "slice", "page"],
    },
    { fault: "model" },
  );
}

/** A standalone copy of the bytes, or the bytes themselves when they own their buffer. */
function transferable(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return bytes;
  return new Uint8Array(bytes);
}

/**
 * Parses `bytes` and runs `task` in a fresh worker; the bytes are moved (not copied) there.
 * Rejects with QUERY_TIMEOUT at the deadline and QUERY_TOO_COSTLY when the worker's heap
 * limit is reached; the worker is always gone when this settles.
 */
export function runJsonTask(
  bytes: Uint8Array,
  kind: "json" | "ndjson",
  task: JsonTask,
  limits: JsonLimits,
  run: { readonly leftMs?: number; readonly signal?: AbortSignal | undefined } = {},
): Promise<JsonTaskResult> {
  const worker = startWorker(limits);
  return new Promise<JsonTaskResult>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(timeout(limits))),
      run.leftMs ?? limits.timeoutMs,
    );
    const onAbort = () => finish(() => reject(jsonAborted(limits)));
    run.signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (result: JsonTaskResult) => finish(() => resolve(result)));
    worker.once("error", (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? tooCostly(
                limits,
                `it needed more than the ${limits.maxMemoryMb} MiB json mode may use (maxMemoryMb)`,
              )
            : error,
        ),
      ),
    );
    worker.once("exit", (code) =>
      finish(() => reject(tooCostly(limits, `the worker stopped (exit code ${code})`))),
    );
    const payload = transferable(bytes);
    worker.postMessage({ bytes: payload, kind, task }, [payload.buffer as ArrayBuffer]);
  });
}

/** ABORTED: the caller went away before the JSON read finished. */
function jsonAborted(limits: JsonLimits): SpillwayError {
  return new SpillwayError(
    "ABORTED",
    `The JSON read of output "${limits.outputId}" was stopped: its caller went away.`,
    { outputId: limits.outputId },
    { fault: "user" },
  );
}

/**
 * {@link runJsonTask} once one of the process's JSON slots is free, in the job's lane's turn.
 * The bytes are read only then (a waiting read holds no document in memory); the deadline
 * counts from the call, waiting included (QUERY_TIMEOUT); an aborted job stops, waiting or
 * running (ABORTED).
 */
export async function runQueuedJsonTask(
  read: () => Promise<Uint8Array>,
  kind: "json" | "ndjson",
  task: JsonTask,
  job: RetrievalJob,
  limits: JsonLimits,
): Promise<JsonTaskResult> {
  const deadline = Date.now() + limits.timeoutMs;
  const release = await jsonSlots.acquire({
    ...job,
    deadline,
    expired: () => timeout(limits),
    aborted: () => jsonAborted(limits),
  });
  try {
    const bytes = await read();
    const left = deadline - Date.now();
    if (left <= 0) throw timeout(limits);
    if (job.signal?.aborted) throw jsonAborted(limits);
    return await runJsonTask(bytes, kind, task, limits, { leftMs: left, signal: job.signal });
  } finally {
    release();
  }
}

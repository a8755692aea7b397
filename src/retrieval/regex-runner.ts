import { Worker } from "node:worker_threads";
import { SpillwayError } from "../core/errors.js";
import { FairQueue, type RetrievalJob } from "./fair-queue.js";

/**
 * Finds the first match of a regular expression in each line of `text`, as if each line
 * (split on "\n" only) were matched alone: a match never spans lines, `^` and `$` are the
 * line's start and end. Returns flat pairs [index, length, index, length, …], at most
 * `max` pairs.
 *
 * This function is also the body of the worker that runs model-supplied patterns, so it must
 * stay self-contained: no imports, no outer variables.
 */
export function scanLines(text: string, pattern: string, flags: string, max: number): number[] {
  const found: number[] = [];
  const all = new RegExp(pattern, `${flags}gm`);
  const oneLine = new RegExp(pattern, flags.replace("g", ""));
  let from = 0;
  while (from < text.length && found.length < 2 * max) {
    all.lastIndex = from;
    const match = all.exec(text);
    if (match === null) break;
    // After a final "\n" there is no further line in this text.
    if (match.index === text.length && text.charCodeAt(text.length - 1) === 10) break;
    const lineStart = text.lastIndexOf("\n", match.index - 1) + 1;
    let lineEnd = text.indexOf("\n", match.index);
    if (lineEnd === -1) lineEnd = text.length;
    // The whole-text match only proposes a line (with the m flag, ^ and $ also match at "\r"
    // and a match may cross a line end): the line alone decides, as grep would.
    const inLine = oneLine.exec(text.slice(lineStart, lineEnd));
    if (inLine !== null) found.push(lineStart + inLine.index, inLine[0].length);
    if (lineEnd >= text.length) break;
    from = lineEnd + 1;
  }
  return found;
}

/**
 * The first match starting at or after `from` in `text`, a window of one long line (it holds
 * no "\n"): [index, length], or [] when there is none. Characters before `from` are context
 * (for lookbehinds); `^` matches only at index 0, `$` only at the window's end (the caller
 * knows whether that is the line's end). Self-contained, like {@link scanLines}.
 */
export function scanWindow(text: string, pattern: string, flags: string, from: number): number[] {
  const regex = new RegExp(pattern, `${flags.replace("g", "")}g`);
  regex.lastIndex = from;
  const match = regex.exec(text);
  return match === null ? [] : [match.index, match[0].length];
}

/** Compiles a pattern to check its syntax; INVALID_PATTERN with the engine's reason. */
export function checkPattern(pattern: string, flags: string): void {
  try {
    new RegExp(pattern, `${flags}gm`);
  } catch (error) {
    throw new SpillwayError(
      "INVALID_PATTERN",
      `Invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}. ` +
        "Use JavaScript regular expression syntax, or set regex=false for a literal search.",
      { pattern, reason: (error as Error).message },
      { fault: "model" },
    );
  }
}

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const scanLines = ${scanLines.toString()};
const scanWindow = ${scanWindow.toString()};
parentPort.on("message", (request) => {
  try {
    const found = request.from === undefined
      ? scanLines(request.text, request.pattern, request.flags, request.max)
      : scanWindow(request.text, request.pattern, request.flags, request.from);
    parentPort.postMessage({ ok: true, found });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error && error.message || error) });
  }
});
`;

/** PATTERN_TIMEOUT: the search ran out of its deadline (a silent "no match" is never given). */
export function patternTimeout(pattern: string, remainingMs: number): SpillwayError {
  return new SpillwayError(
    "PATTERN_TIMEOUT",
    `Pattern ${JSON.stringify(pattern)} ran out of its deadline${remainingMs > 0 ? ` (${remainingMs} ms left for this part)` : ""} and was stopped ` +
      "before the search finished (likely catastrophic backtracking, or a very large output). " +
      "Simplify it, anchor it, search for a literal, or raise timeoutMs.",
    { pattern, ...(remainingMs > 0 ? { timeoutMs: remainingMs } : {}) },
    { fault: "model" },
  );
}

type WorkerReply = { ok: true; found: number[] } | { ok: false; error: string };

/** A new scan worker; it never keeps the process alive. */
function spawn(): Worker {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  worker.unref();
  return worker;
}

/** ABORTED: the caller went away (e.g. the HTTP client closed the request); the scan stopped. */
export function scanAborted(pattern: string): SpillwayError {
  return new SpillwayError(
    "ABORTED",
    `The search for ${JSON.stringify(pattern)} was stopped: its caller went away.`,
    { pattern },
    { fault: "user" },
  );
}

export interface RegexPoolOptions {
  /** Worker threads (default 2). */
  readonly workers?: number;
  /** Workers one lane (tenant) may hold at once (default: workers - 1, at least 1). */
  readonly perLane?: number;
}

interface ScanTask {
  readonly text: string;
  readonly pattern: string;
  readonly flags: string;
  readonly max: number;
  readonly from: number | undefined;
}

/**
 * Worker threads that run model-supplied patterns with a deadline, shared fairly between lanes
 * (tenants) through a {@link FairQueue}: a catastrophic pattern (e.g. `(a+)+$`) cannot hang the
 * process, and one tenant's patterns cannot hold every worker while another's wait. A worker
 * whose scan runs out of time, or whose caller went away, is terminated and replaced on next
 * use (SW-4 in docs/architecture.md).
 */
export class RegexPool {
  private readonly queue: FairQueue;
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  private closed = false;

  constructor(options: RegexPoolOptions = {}) {
    const workers = options.workers ?? 2;
    this.queue = new FairQueue({
      slots: workers,
      ...(options.perLane !== undefined ? { perLane: options.perLane } : {}),
    });
  }

  /** Worker threads alive now (idle or busy). */
  get threads(): number {
    return this.idle.length + this.busy.size;
  }

  /** Workers stopped mid-scan (deadline passed, or the caller went away). */
  get stopped(): number {
    return this.stoppedCount;
  }

  private stoppedCount = 0;

  /**
   * Runs one scan for `job`, waiting for a worker in its lane's turn. The deadline (`timeoutMs`
   * from now) counts the wait too: PATTERN_TIMEOUT when it passes; ABORTED when the job's
   * signal aborts, waiting or running.
   */
  async run(task: ScanTask, timeoutMs: number, job: RetrievalJob = {}): Promise<number[]> {
    const arrived = Date.now();
    const deadline = arrived + timeoutMs;
    if (timeoutMs <= 0) throw patternTimeout(task.pattern, 0);
    const release = await this.queue.acquire({
      ...job,
      deadline,
      expired: () => patternTimeout(task.pattern, timeoutMs),
      aborted: () => scanAborted(task.pattern),
    });
    try {
      const left = deadline - Date.now();
      if (left <= 0) throw patternTimeout(task.pattern, timeoutMs);
      return await this.runOn(this.worker(), task, left, timeoutMs, job.signal);
    } finally {
      release();
    }
  }

  private worker(): Worker {
    // The longest idle first: a replacement just spawned may still be starting.
    const worker = this.idle.shift() ?? spawn();
    this.busy.add(worker);
    return worker;
  }

  /**
   * Back to the idle list, or terminated when it may still be scanning; a terminated worker is
   * replaced at once, so the next scan (often another tenant's) does not wait for a thread to
   * start.
   */
  private done(worker: Worker, healthy: boolean): void {
    this.busy.delete(worker);
    if (healthy && !this.closed) {
      this.idle.push(worker);
      return;
    }
    void worker.terminate();
    this.stoppedCount++;
    if (!this.closed) this.idle.push(spawn());
  }

  private runOn(
    worker: Worker,
    task: ScanTask,
    leftMs: number,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<number[]> {
    return new Promise<number[]>((resolve, reject) => {
      const finish = (healthy: boolean, outcome: () => void) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        signal?.removeEventListener("abort", onAbort);
        this.done(worker, healthy);
        outcome();
      };
      const timer = setTimeout(
        () => finish(false, () => reject(patternTimeout(task.pattern, timeoutMs))),
        leftMs,
      );
      const failed = (reason: string, fault: "model" | "internal", cause?: unknown) =>
        new SpillwayError(
          "INVALID_PATTERN",
          `Pattern ${JSON.stringify(task.pattern)} failed: ${reason}`,
          { pattern: task.pattern, reason },
          { fault, cause },
        );
      const onMessage = (reply: WorkerReply) =>
        finish(true, () =>
          reply.ok ? resolve(reply.found) : reject(failed(reply.error, "model")),
        );
      const onError = (error: Error) =>
        finish(false, () => reject(failed(error.message, "internal", error)));
      const onAbort = () => finish(false, () => reject(scanAborted(task.pattern)));
      worker.on("message", onMessage);
      worker.on("error", onError);
      signal?.addEventListener("abort", onAbort, { once: true });
      worker.postMessage(task);
    });
  }

  /** Stops every worker (tests and shutdown); scans still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle, ...this.busy];
    this.idle.length = 0;
    await Promise.all(all.map((worker) => worker.terminate()));
  }
}

/**
 * The scans of one caller over a {@link RegexPool}: grep calls {@link RegexRunner.scan}; the
 * runner says which lane the scans are charged to and which signal stops them.
 */
export class RegexRunner {
  constructor(
    private readonly pool: RegexPool = new RegexPool(),
    private readonly job: RetrievalJob = {},
  ) {}

  /**
   * {@link scanLines} on `text` (at most `max` matches), or with `window` {@link scanWindow}
   * from `window.from`; PATTERN_TIMEOUT `timeoutMs` after the call (waiting for a worker
   * included), ABORTED when the job's signal aborts.
   */
  scan(
    text: string,
    pattern: string,
    flags: string,
    max: number,
    timeoutMs: number,
    window?: { readonly from: number },
  ): Promise<number[]> {
    return this.pool.run({ text, pattern, flags, max, from: window?.from }, timeoutMs, this.job);
  }

  /** A runner over the same pool whose scans belong to `job` (a tenant's lane, a request's signal). */
  forJob(job: RetrievalJob): RegexRunner {
    return new RegexRunner(this.pool, job);
  }

  /** Stops the pool's workers (tests and shutdown). */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The process-wide runner used by grep. */
export const sharedRegexRunner = new RegexRunner(new RegexPool());

import { Worker } from "node:worker_threads";
import { SpillwayError } from "../core/errors.js";

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

/**
 * Runs model-supplied patterns in a worker thread with a deadline: a catastrophic pattern
 * (e.g. `(a+)+$`) cannot hang the process. On timeout the worker is terminated and replaced
 * on next use. Requests run one at a time.
 */
export class RegexRunner {
  private worker: Worker | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * {@link scanLines} on `text` (at most `max` matches), or with `window` {@link scanWindow}
   * from `window.from`; PATTERN_TIMEOUT after `timeoutMs`.
   */
  scan(
    text: string,
    pattern: string,
    flags: string,
    max: number,
    timeoutMs: number,
    window?: { readonly from: number },
  ): Promise<number[]> {
    const run = this.queue.then(() =>
      this.runOne(text, pattern, flags, max, timeoutMs, window?.from),
    );
    // The caller gets `run` and its error; the queue only needs to know it settled.
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private runOne(
    text: string,
    pattern: string,
    flags: string,
    max: number,
    timeoutMs: number,
    from: number | undefined,
  ): Promise<number[]> {
    if (timeoutMs <= 0) return Promise.reject(patternTimeout(pattern, 0));
    if (!this.worker) {
      this.worker = new Worker(WORKER_SOURCE, { eval: true });
      this.worker.unref();
    }
    const worker = this.worker;
    return new Promise<number[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.worker = undefined;
        void worker.terminate();
        reject(patternTimeout(pattern, timeoutMs));
      }, timeoutMs);
      const failed = (reason: string, fault: "model" | "internal", cause?: unknown) =>
        new SpillwayError(
          "INVALID_PATTERN",
          `Pattern ${JSON.stringify(pattern)} failed: ${reason}`,
          { pattern, reason },
          { fault, cause },
        );
      const onMessage = (reply: WorkerReply) => {
        cleanup();
        if (reply.ok) resolve(reply.found);
        else reject(failed(reply.error, "model"));
      };
      const onError = (error: Error) => {
        cleanup();
        this.worker = undefined;
        reject(failed(error.message, "internal", error));
      };
      const cleanup = () => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.postMessage({ text, pattern, flags, max, from });
    });
  }

  /** Stops the worker (tests and shutdown). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}

/** The process-wide runner used by grep. */
export const sharedRegexRunner = new RegexRunner();

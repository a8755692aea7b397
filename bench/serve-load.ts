/** Timed HTTP work for the serve benchmark: sequential latencies, and an open-loop load at a fixed rate. */
import { type Agent, request } from "node:http";
import { performance } from "node:perf_hooks";

/** Latency of `count` sequential calls, ms each. */
export async function sequential(
  count: number,
  call: (i: number) => Promise<void>,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call(i);
    out.push(performance.now() - start);
  }
  return out;
}

export interface LoadResult {
  readonly sent: number;
  readonly ok: number;
  readonly errors: number;
  readonly seconds: number;
  readonly achievedRps: number;
  /** Latency of each request, ms, measured from when it was due (no coordinated omission). */
  readonly latencies: number[];
  /** The first failure, as text (status or error), when any. */
  readonly firstError: string | null;
}

/**
 * Sends `rps` requests a second for `seconds`, each at its due time whatever the earlier ones
 * are doing (open loop), and waits for all of them.
 */
export async function openLoop(
  rps: number,
  seconds: number,
  call: (i: number) => Promise<true | string>,
): Promise<LoadResult> {
  const total = Math.round(rps * seconds);
  let firstError: string | null = null;
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - start) / 1000) * rps) + 1);
    for (; sent < due; sent++) {
      const dueAt = start + (sent / rps) * 1000;
      const index = sent;
      pending.push(
        call(index).then(
          (good) => {
            latencies.push(performance.now() - dueAt);
            if (good === true) ok++;
            else {
              errors++;
              firstError ??= good;
            }
          },
          (error: unknown) => {
            latencies.push(performance.now() - dueAt);
            errors++;
            firstError ??=
              error instanceof Error
                ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}`
                : String(error);
          },
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  return { sent, ok, errors, seconds: elapsed, achievedRps: ok / elapsed, latencies, firstError };
}

/**
 * GET with a keep-alive agent that holds at most `maxSockets` connections (as a real client
 * pool does), answering true on 2xx or a text saying what failed.
 */
export function pooledGet(agent: Agent): (url: string) => Promise<true | string> {
  return (url) =>
    new Promise((resolve) => {
      const req = request(url, { agent }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () =>
          resolve(
            (res.statusCode ?? 0) < 300 ? true : `HTTP ${res.statusCode} ${body.slice(0, 200)}`,
          ),
        );
      });
      req.on("error", (error) => resolve(`${error.message}`));
      req.end();
    });
}

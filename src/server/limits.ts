/**
 * Limits: request bodies (413 past the configured size, counted while streaming, so a lying
 * or absent Content-Length changes nothing; 408 when a body stops moving) and request rates per
 * tenant (429 with Retry-After).
 */
import type { ReadableStreamReadResult } from "node:stream/web";
import type { Context } from "hono";
import type { Clock } from "../core/clock.js";
import { HttpProblem } from "./problem.js";

function tooLarge(limit: number, what: string): HttpProblem {
  return new HttpProblem(
    413,
    "PAYLOAD_TOO_LARGE",
    `The ${what} is larger than this server accepts (${limit} bytes); the limit is set by ${what === "output body" ? "--max-output-bytes" : "--max-json-bytes"}.`,
    { limit },
  );
}

function declaredTooLarge(c: Context, limit: number, what: string): void {
  const declared = Number(c.req.header("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit, what);
}

/** Default time a request body may stop moving before it is dropped (`--upload-idle-timeout`). */
export const DEFAULT_BODY_IDLE_MS = 30_000;
/** A body "moves" when it brings at least this many bytes per idle window (a trickle does not). */
export const MIN_BYTES_PER_WINDOW = 1024;

/** 408: the body stopped arriving, or trickles too slowly to ever end. */
function stalled(idleMs: number): HttpProblem {
  return new HttpProblem(
    408,
    "REQUEST_TIMEOUT",
    `The request body stopped arriving: fewer than ${MIN_BYTES_PER_WINDOW} bytes in ${idleMs} ms (the limit is set by --upload-idle-timeout); nothing was stored.`,
    { idleMs, minBytes: MIN_BYTES_PER_WINDOW },
    { connection: "close" },
  );
}

/** The client went away mid-body: not an error of the server, and never logged as one. */
export function clientAborted(): HttpProblem {
  return new HttpProblem(
    400,
    "CLIENT_ABORTED",
    "The client closed the connection before the request body ended; nothing was stored.",
  );
}

/**
 * Watches a body's progress: every `idleMs`, the window must have brought
 * {@link MIN_BYTES_PER_WINDOW} bytes, or `stalled` rejects with 408.
 */
class BodyWatchdog {
  readonly stalled: Promise<never>;
  private bytes = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(idleMs: number) {
    let fail: (error: HttpProblem) => void = () => {};
    this.stalled = new Promise<never>((_, reject) => {
      fail = reject;
    });
    this.stalled.catch(() => {}); // it is raced against each read; nobody may await it in between
    this.timer = setInterval(() => {
      if (this.bytes < MIN_BYTES_PER_WINDOW) {
        clearInterval(this.timer);
        fail(stalled(idleMs));
      }
      this.bytes = 0;
    }, idleMs);
    this.timer.unref();
  }

  progress(bytes: number): void {
    this.bytes += bytes;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface BodyLimits {
  /** Most bytes accepted (413 past it). */
  readonly maxBytes: number;
  /** The window in which a body must move, ms (408 past it; default 30000). */
  readonly idleMs?: number;
  readonly what?: string;
}

/**
 * The request body as a stream of byte chunks, failing with 413 once more than `maxBytes`
 * arrived and with 408 when it stops moving (or trickles) for `idleMs`; a client that goes
 * away mid-body is CLIENT_ABORTED. Nothing is buffered beyond one chunk.
 */
export async function* limitedBody(c: Context, limits: BodyLimits): AsyncGenerator<Uint8Array> {
  const what = limits.what ?? "output body";
  declaredTooLarge(c, limits.maxBytes, what);
  const body = c.req.raw.body;
  if (!body) return;
  const watchdog = new BodyWatchdog(limits.idleMs ?? DEFAULT_BODY_IDLE_MS);
  const reader = body.getReader();
  let total = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await Promise.race([reader.read(), watchdog.stalled]);
      } catch (error) {
        if (error instanceof HttpProblem) throw error;
        throw c.req.raw.signal.aborted || isConnectionLoss(error) ? clientAborted() : error;
      }
      if (next.done) return;
      total += next.value.byteLength;
      watchdog.progress(next.value.byteLength);
      if (total > limits.maxBytes) throw tooLarge(limits.maxBytes, what);
      yield next.value;
    }
  } finally {
    watchdog.stop();
    // Unread bytes are the server adapter's to drain or drop; a read still pending settles there.
    reader.releaseLock();
  }
}

/** Errors of a request body whose connection closed before its end. */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ECONNRESET" || code === "ERR_STREAM_PREMATURE_CLOSE" || code === "EPIPE";
}

/** A whole (small) body as text, at most `limit` bytes, dropped when it stops moving for `idleMs`. */
export async function limitedText(c: Context, limit: number, idleMs?: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  const limits = { maxBytes: limit, what: "JSON body", ...(idleMs ? { idleMs } : {}) };
  for await (const chunk of limitedBody(c, limits)) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A token bucket per key: `rate` requests a second, bursts of `burst`. `rate` 0 turns it off.
 *
 * @example
 * const limiter = new RateLimiter(100, 200, Date.now);
 * limiter.take("alice"); // throws HttpProblem 429 when alice is over her rate
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {}

  take(key: string): void {
    if (this.rate <= 0) return;
    const now = this.clock();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) {
      const wait = Math.ceil((1 - bucket.tokens) / this.rate);
      throw new HttpProblem(
        429,
        "RATE_LIMITED",
        `Too many requests: this server allows ${this.rate} a second (bursts of ${this.burst}); retry in ${wait} s.`,
        { rate: this.rate, burst: this.burst, retryAfterSeconds: wait },
        { "retry-after": String(wait) },
      );
    }
    bucket.tokens -= 1;
  }
}

/**
 * Limits: request bodies (413 past the configured size, counted while streaming, so a lying
 * or absent Content-Length changes nothing) and request rates per tenant (429 with
 * Retry-After).
 */
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

/**
 * The request body as a stream of byte chunks, failing with 413 once more than `limit` bytes
 * arrived. Nothing is buffered beyond one chunk.
 */
export async function* limitedBody(
  c: Context,
  limit: number,
  what = "output body",
): AsyncGenerator<Uint8Array> {
  declaredTooLarge(c, limit, what);
  const body = c.req.raw.body;
  if (!body) return;
  let total = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > limit) throw tooLarge(limit, what);
    yield chunk;
  }
}

/** A whole (small) body as text, at most `limit` bytes. */
export async function limitedText(c: Context, limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of limitedBody(c, limit, "JSON body")) chunks.push(chunk);
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

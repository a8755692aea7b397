/**
 * The example's "log service": today's checkout log, 30 MB, the same every run. Ordinary
 * traffic, some warnings, and one incident in the middle that explains the failed checkouts.
 */

const SERVICES = ["checkout", "cart", "inventory", "payments", "shipping"] as const;
const ROUTES = ["/api/cart", "/api/checkout", "/api/items", "/api/shipping/quote", "/api/session"];

/** A small deterministic PRNG (mulberry32), so the log is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The planted incident (the app does not tell the model; the model has to find it). */
export const INCIDENT =
  "ERROR payments: charge failed for order ord_48213: upstream card processor returned 502 (circuit breaker OPEN after 5 failures) request_id=req_9c41e7";

/**
 * Today's log of the checkout system, about `bytes` long.
 *
 * @example
 * const log = checkoutLog(30 * 1024 * 1024);
 */
export function checkoutLog(bytes = 30 * 1024 * 1024): string {
  const next = random(20_260_101);
  const lines: string[] = [];
  let size = 0;
  let planted = false;
  let time = Date.UTC(2026, 0, 15, 6, 0, 0);
  while (size < bytes) {
    time += Math.floor(next() * 40);
    const stamp = new Date(time).toISOString();
    let line: string;
    if (!planted && size >= bytes / 2) {
      line = `${stamp} ${INCIDENT}`;
      planted = true;
    } else {
      const service = SERVICES[Math.floor(next() * SERVICES.length)]!;
      const route = ROUTES[Math.floor(next() * ROUTES.length)]!;
      const ms = Math.floor(next() * 400);
      const roll = next();
      line =
        roll < 0.002
          ? `${stamp} WARN ${service}: slow response ${route} took ${ms + 900}ms`
          : `${stamp} INFO ${service}: ${roll < 0.5 ? "GET" : "POST"} ${route} 200 ${ms}ms request_id=req_${Math.floor(next() * 0xffffff).toString(16)}`;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Deterministic demo content: a realistic multi-service application log of any size, built a
 * block at a time (never whole in memory), with one incident planted in the middle; and a
 * JSON API response of a few hundred kB.
 */
import { seededRandom } from "../core/rng.js";

/** The text of the planted incident, unique in the log. */
export const INCIDENT_MESSAGE = "connection pool exhausted (max=50)";
const START_MS = Date.UTC(2026, 2, 14, 8, 0, 0);
const BLOCK_BYTES = 1024 * 1024;

/** Where the incident landed, filled in while the log is generated. */
export interface PlantedIncident {
  line: number;
  text: string;
  requestId: string;
}

const PATHS = ["/v1/orders", "/v1/orders/{id}", "/v1/cart", "/v1/products/{id}", "/v1/search"];
const METHODS = ["GET", "GET", "GET", "POST", "PUT"];

/** Formats timestamps quickly: the ISO prefix changes once a second. */
class Clock {
  private second = -1;
  private prefix = "";
  now = START_MS;

  stamp(): string {
    const second = Math.floor(this.now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.prefix = new Date(second * 1000).toISOString().slice(0, 20);
    }
    return `${this.prefix}${String(this.now % 1000).padStart(3, "0")}Z`;
  }
}

function makeLine(random: () => number, time: string, requestId: string): string {
  const pick = random();
  const n = Math.floor(random() * 90_000) + 10_000;
  const ms = Math.floor(random() * 120) + 3;
  if (pick < 0.45) {
    const path = PATHS[n % PATHS.length]!.replace("{id}", String(n));
    const method = METHODS[n % METHODS.length]!;
    const status = random() < 0.02 ? 404 : 200;
    return `${time} INFO [api-gateway] request_id=${requestId} method=${method} path=${path} status=${status} duration_ms=${ms}\n`;
  }
  if (pick < 0.65) {
    return `${time} DEBUG [inventory-svc] request_id=${requestId} msg="cache hit" key=sku:${n} ttl_s=300\n`;
  }
  if (pick < 0.8) {
    return `${time} INFO [payment-svc] request_id=${requestId} msg="charge authorized" amount_cents=${n % 20_000} currency=EUR pool_in_use=${n % 31}\n`;
  }
  if (pick < 0.9) {
    return `${time} INFO [auth-svc] request_id=${requestId} msg="token refreshed" user_id=u_${n}\n`;
  }
  if (pick < 0.97) {
    return `${time} INFO [notification-svc] request_id=${requestId} msg="email queued" template=order_confirmation order_id=ord_${n}\n`;
  }
  return `${time} WARN [search-svc] request_id=${requestId} msg="slow query" index=products duration_ms=${ms * 15}\n`;
}

/** The incident: pool pressure builds, the pool runs out, the gateway answers 503. */
function incidentLines(clock: Clock, requestId: string): string[] {
  const lines: string[] = [];
  const at = (step: number) => {
    clock.now += step;
    return clock.stamp();
  };
  lines.push(
    `${at(41)} WARN [payment-svc] request_id=req_3b9e10c4d2a7 msg="connection pool nearly exhausted" in_use=47 max=50\n`,
  );
  lines.push(
    `${at(87)} WARN [payment-svc] request_id=req_3b9e10c4d2a8 msg="slow checkout" wait_ms=1870\n`,
  );
  lines.push(
    `${at(118)} ERROR [payment-svc] request_id=${requestId} msg="${INCIDENT_MESSAGE}" waiting=217 pool=pg-primary\n`,
  );
  lines.push(
    `${at(2)} ERROR [api-gateway] request_id=${requestId} method=POST path=/v1/checkout status=503 upstream=payment-svc duration_ms=5003\n`,
  );
  return lines;
}

/**
 * Yields a log of about `totalBytes` bytes (whole lines; ASCII) as 1 MiB buffers. The incident
 * is planted at the first line boundary past the middle; `planted` says where.
 */
export async function* generateLog(
  totalBytes: number,
  planted: PlantedIncident,
  seed = 20260314,
): AsyncGenerator<Buffer> {
  const random = seededRandom(seed);
  const clock = new Clock();
  let bytes = 0;
  let lines = 0;
  let block: string[] = [];
  let blockBytes = 0;
  const push = (line: string) => {
    block.push(line);
    blockBytes += line.length;
    bytes += line.length;
    lines++;
  };
  while (bytes < totalBytes) {
    if (planted.line === 0 && bytes >= totalBytes / 2) {
      for (const line of incidentLines(clock, planted.requestId)) {
        push(line);
        if (line.includes(INCIDENT_MESSAGE)) {
          planted.line = lines;
          planted.text = line.slice(0, -1);
        }
      }
      continue;
    }
    clock.now += Math.floor(random() * 19);
    const id = Math.floor(random() * 0xffffffff)
      .toString(16)
      .padStart(8, "0");
    push(
      makeLine(random, clock.stamp(), `req_${id}${(lines & 0xfff).toString(16).padStart(3, "0")}`),
    );
    if (blockBytes >= BLOCK_BYTES) {
      yield Buffer.from(block.join(""), "latin1");
      block = [];
      blockBytes = 0;
    }
  }
  if (block.length > 0) yield Buffer.from(block.join(""), "latin1");
}

/** A JSON API response: a page of orders with nested customers and items, plus metadata. */
export function generateOrdersResponse(count: number, seed = 7): string {
  const random = seededRandom(seed);
  const statuses = ["paid", "paid", "paid", "shipped", "shipped", "pending", "refunded"];
  const countries = ["DE", "FR", "NL", "US", "GB", "ES", "IT", "PL"];
  const orders = Array.from({ length: count }, (_, i) => {
    const failed = random() < 0.03;
    const items = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
      sku: `sku-${10_000 + Math.floor(random() * 90_000)}`,
      qty: 1 + Math.floor(random() * 3),
      unit_cents: 199 + Math.floor(random() * 9_800),
    }));
    return {
      id: `ord_${String(100_000 + i)}`,
      status: failed ? "failed" : statuses[Math.floor(random() * statuses.length)],
      customer: {
        id: `c_${Math.floor(random() * 50_000)}`,
        country: countries[Math.floor(random() * countries.length)],
      },
      items,
      total_cents: items.reduce((sum, item) => sum + item.qty * item.unit_cents, 0),
      currency: "EUR",
      created_at: new Date(START_MS + i * 1_337).toISOString(),
      ...(failed ? { failure: { code: "card_declined", retryable: random() < 0.5 } } : {}),
    };
  });
  return JSON.stringify({
    data: { orders },
    pagination: { limit: count, next_cursor: "eyJvZmZzZXQiOjIwMDB9", has_more: true },
    meta: { request_id: "req_91f0c2aa7e13", took_ms: 182, api_version: "2026-01-15" },
  });
}

/**
 * Seeded tool outputs for the live scenarios. Each holds one fact the prompt asks about but
 * never states (an incident id, a tracking code, a token on a given line, …): the model can
 * only answer by retrieving it.
 */
import { createHash } from "node:crypto";

/** A deterministic stream of hex tokens from a seed and a label. */
export function token(seed: number, label: string, length = 8): string {
  return createHash("sha256").update(`${seed}:${label}`).digest("hex").slice(0, length);
}

const SERVICES = ["search-svc", "cart-svc", "auth-svc", "inventory-svc", "gateway"];
const MESSAGES = [
  "request ok",
  "cache hit",
  "slow query",
  "retrying upstream",
  "session refreshed",
];

/** A log of `lines` lines with one ERROR line (holding `incident=INC-…`) at fraction `at`. */
export function incidentLog(
  seed: number,
  lines: number,
  at: number,
): { text: string; answer: string; line: number } {
  const answer = `INC-${token(seed, "incident", 6).toUpperCase()}`;
  const target = Math.min(lines, Math.max(1, Math.round(lines * at)));
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    const t = new Date(Date.UTC(2026, 2, 14, 8, 0, i)).toISOString();
    if (i === target) {
      out.push(
        `${t} ERROR [payment-svc] request_id=req_${token(seed, `r${i}`)} msg="card processor rejected the batch" incident=${answer}`,
      );
      continue;
    }
    const level = i % 17 === 0 ? "WARN" : "INFO";
    const service = SERVICES[(i * 7 + seed) % SERVICES.length];
    const message = MESSAGES[(i * 3 + seed) % MESSAGES.length];
    out.push(
      `${t} ${level} [${service}] request_id=req_${token(seed, `r${i}`)} msg="${message}" latency_ms=${(i * 37 + seed) % 900}`,
    );
  }
  return { text: `${out.join("\n")}\n`, answer, line: target };
}

/** Orders as JSON (pretty or on one line); `order` is the id asked about, `answer` its tracking code. */
export function ordersJson(
  seed: number,
  count: number,
  pretty: boolean,
): { text: string; order: string; answer: string } {
  const orders = Array.from({ length: count }, (_, i) => ({
    id: `ord_${1000 + i}`,
    status: ["shipped", "pending", "delivered", "returned"][(i + seed) % 4],
    carrier: ["ups", "dhl", "fedex"][(i * 5 + seed) % 3],
    tracking: `TRK-${token(seed, `o${i}`, 10).toUpperCase()}`,
    total_cents: ((i + 3) * 1297 + seed) % 100_000,
  }));
  const pick = orders[Math.floor(count * 0.6)]!;
  const text = JSON.stringify({ orders }, null, pretty ? 2 : undefined);
  return { text, order: pick.id, answer: pick.tracking };
}

/** Numbered lines, each with its own token; `answer` is the token on line `line`. */
export function numberedLines(
  seed: number,
  lines: number,
  line: number,
): { text: string; answer: string } {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++)
    out.push(`record ${i}: checksum=${token(seed, `l${i}`, 12)} shard=${i % 8}`);
  return { text: `${out.join("\n")}\n`, answer: token(seed, `l${line}`, 12) };
}

/** A report whose header (line 8, after the synopsis) states the build id; the rest is filler. */
export function buildReport(seed: number, lines: number): { text: string; answer: string } {
  const answer = `build-${token(seed, "build", 10)}`;
  const out = [
    "BUILD REPORT",
    "============",
    "pipeline: release",
    "trigger: scheduled",
    "runner: ci-07",
    "",
    "Summary",
    `build_id: ${answer}`,
    "",
  ];
  for (let i = 1; out.length < lines; i++)
    out.push(`step ${i}: compile module-${i % 40} ok in ${(i * 13 + seed) % 500} ms`);
  return { text: `${out.join("\n")}\n`, answer };
}

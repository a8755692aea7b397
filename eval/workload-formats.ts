/**
 * The seven kinds of generated tool output: for each, its filler records, how a needle record
 * looks, how the records join, and the question that names a needle. workload.ts lays them out
 * to a size and places the needles.
 */
import type { Rng } from "../src/core/rng.js";
import type { Kind, Position } from "./workload.js";

export const BASE32 = "abcdefghjkmnpqrstvwxyz0123456789";
export const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
export const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ";

export const chars = (rng: Rng, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[rng.int(alphabet.length)]).join("");

/** What a needle record needs: its cue and its answer. */
export interface Needle {
  readonly position: Position;
  readonly cue: string;
  readonly answer: string;
}

/** One kind's content: filler records, needle records, and how they join. */
export interface Format {
  readonly header: string;
  readonly footer: string;
  readonly separator: string;
  filler(rng: Rng, index: number): string;
  needle(rng: Rng, needle: Needle, index: number): string;
  /** Records that end the output (the log's final error and shutdown), before the last one. */
  tail?(rng: Rng, needle: Needle, index: number): string[];
  /** The question for a position needle (the cue names the record). */
  question(needle: Needle): string;
}

const SERVICES = ["api-gateway", "checkout", "payment-svc", "search-svc", "auth", "inventory"];
const LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
const WORDS =
  "the service request handler retries upstream latency cache budget queue worker shard replica snapshot index token session order payment invoice refund ledger audit region cluster deploy release rollback metric alert threshold window".split(
    " ",
  );
const CJK =
  "日本語のテキストと中文内容混合在一起服务请求处理重试缓存队列订单支付退款审计区域集群部署发布回滚指标告警阈值窗口".split(
    "",
  );
const EMOJI = ["✅", "🚀", "🔥", "📦", "⚠️", "🧪", "🌏", "💳"];

function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[rng.int(WORDS.length)]!);
  const text = out.join(" ");
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** A near miss of the TXN pattern (5 digits, or lower-case letters), sometimes. */
function txnDecoy(rng: Rng): string {
  return rng.chance(0.5)
    ? `TXN-${rng.range(10000, 99999)}-${chars(rng, LETTERS, 4)}`
    : `TXN-${rng.range(1000, 9999)}-${chars(rng, LETTERS, 4).toLowerCase()}`;
}

function timestamp(index: number): string {
  const ms = Date.UTC(2026, 2, 14, 8, 0, 0) + index * 37;
  return new Date(ms).toISOString();
}

function refundQuestion(needle: Needle): string {
  return `What is the refund reference recorded for event ${needle.cue}?`;
}

const logFormat: Format = {
  header: "",
  footer: "",
  separator: "\n",
  filler: (rng, i) => {
    const level = LEVELS[rng.int(LEVELS.length)]!;
    const extra = rng.chance(0.02) ? ` txn=${txnDecoy(rng)}` : "";
    return `${timestamp(i)} ${level} [${SERVICES[rng.int(SERVICES.length)]}] request_id=req_${chars(rng, BASE32, 10)} path=/v1/${WORDS[rng.int(WORDS.length)]} status=${level === "ERROR" ? 500 : 200} duration_ms=${rng.range(1, 900)}${extra} msg="${sentence(rng, rng.range(3, 9))}"`;
  },
  needle: (rng, needle, i) =>
    needle.position === "regex-only"
      ? `${timestamp(i)} WARN [payment-svc] request_id=req_${chars(rng, BASE32, 10)} settlement mismatch txn=${needle.answer} msg="manual review queued"`
      : `${timestamp(i)} WARN [billing] event=${needle.cue} refund_ref=${needle.answer} msg="refund issued after dispute"`,
  tail: (rng, needle, i) => [
    `${timestamp(i)} ERROR [checkout] fatal: payment gateway timeout code=${needle.answer} request_id=req_${chars(rng, BASE32, 10)}`,
    `${timestamp(i + 1)} INFO [main] draining connections`,
    `${timestamp(i + 2)} INFO [main] shutdown complete`,
  ],
  question: refundQuestion,
};

interface Order {
  id: string;
  created: string;
  customer: { id: string; tier: string; region: string };
  items: { sku: string; qty: number; price: number }[];
  payment: { method: string; auth: { network: string; code: string } };
  note: string;
}

function order(
  rng: Rng,
  i: number,
  over: Partial<{ id: string; code: string; note: string }> = {},
): Order {
  return {
    id: over.id ?? `ord_${chars(rng, BASE32, 8)}`,
    created: timestamp(i),
    customer: {
      id: `usr_${chars(rng, BASE32, 8)}`,
      tier: rng.pick(["free", "pro", "team"]),
      region: rng.pick(["eu-west", "us-east", "ap-south"]),
    },
    items: Array.from({ length: rng.range(1, 3) }, () => ({
      sku: `sku_${chars(rng, BASE32, 6)}`,
      qty: rng.range(1, 5),
      price: rng.range(100, 99_999) / 100,
    })),
    payment: {
      method: rng.pick(["card", "wallet", "bank"]),
      auth: {
        network: rng.pick(["visa", "mc", "amex"]),
        code: over.code ?? chars(rng, UPPER, 6).toLowerCase(),
      },
    },
    note: over.note ?? (rng.chance(0.02) ? `ref ${txnDecoy(rng)}` : sentence(rng, rng.range(2, 6))),
  };
}

function jsonNeedle(rng: Rng, needle: Needle, i: number): Order {
  if (needle.position === "nested-json")
    return order(rng, i, { id: needle.cue, code: needle.answer });
  if (needle.position === "regex-only")
    return order(rng, i, { note: `settlement mismatch ${needle.answer}` });
  return order(rng, i, {
    id: needle.cue,
    note: `refund_ref ${needle.answer} issued after dispute`,
  });
}

function jsonQuestion(needle: Needle): string {
  return `What is the refund reference in the note of order ${needle.cue}?`;
}

/** Pretty JSON: an API response `{"orders": [...]}` with 2-space indentation. */
const prettyIndent = (value: unknown) =>
  JSON.stringify(value, null, 2)
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");

const jsonPrettyFormat: Format = {
  header: '{\n  "object": "list",\n  "orders": [\n',
  footer: '\n  ],\n  "has_more": false\n}\n',
  separator: ",\n",
  filler: (rng, i) => prettyIndent(order(rng, i)),
  needle: (rng, needle, i) => prettyIndent(jsonNeedle(rng, needle, i)),
  question: jsonQuestion,
};

const jsonMinFormat: Format = {
  header: '{"object":"list","orders":[',
  footer: '],"has_more":false}',
  separator: ",",
  filler: (rng, i) => JSON.stringify(order(rng, i)),
  needle: (rng, needle, i) => JSON.stringify(jsonNeedle(rng, needle, i)),
  question: jsonQuestion,
};

const csvFormat: Format = {
  header: "timestamp,request_id,user_id,event,amount,currency,status,note\n",
  footer: "\n",
  separator: "\n",
  filler: (rng, i) =>
    `${timestamp(i)},req_${chars(rng, BASE32, 10)},usr_${chars(rng, BASE32, 8)},evt_${chars(rng, BASE32, 9)},${rng.range(100, 99_999) / 100},${rng.pick(["EUR", "USD", "JPY"])},${rng.pick(["ok", "ok", "declined"])},"${rng.chance(0.02) ? txnDecoy(rng) : sentence(rng, rng.range(2, 6))}"`,
  needle: (rng, needle, i) =>
    needle.position === "regex-only"
      ? `${timestamp(i)},req_${chars(rng, BASE32, 10)},usr_${chars(rng, BASE32, 8)},evt_${chars(rng, BASE32, 9)},0,EUR,review,"settlement mismatch ${needle.answer}"`
      : `${timestamp(i)},req_${chars(rng, BASE32, 10)},usr_${chars(rng, BASE32, 8)},${needle.cue},0,EUR,refunded,"refund_ref=${needle.answer}"`,
  question: (needle) =>
    `What is the refund reference in the note of the row for event ${needle.cue}?`,
};

const markdownFormat: Format = {
  header: "# Incident handbook\n\n",
  footer: "\n",
  separator: "\n",
  filler: (rng, i) => {
    switch (i % 9) {
      case 0:
        return `\n## ${sentence(rng, 3).slice(0, -1)}\n`;
      case 3:
        return `- ${sentence(rng, rng.range(4, 10))}`;
      case 5:
        return `| ${WORDS[rng.int(WORDS.length)]} | ${rng.range(1, 999)} ms | ${rng.chance(0.1) ? txnDecoy(rng) : "ok"} |`;
      case 7:
        return `<div class="note"><p>${sentence(rng, rng.range(5, 12))}</p></div>`;
      default:
        return sentence(rng, rng.range(8, 24));
    }
  },
  needle: (_rng, needle) =>
    needle.position === "regex-only"
      ? `<p>The settlement mismatch was traced to ${needle.answer} during the audit.</p>`
      : `For event ${needle.cue} the refund reference is ${needle.answer}; keep it for the ledger.`,
  question: refundQuestion,
};

const codeFormat: Format = {
  header: '// Generated service code\nimport { ledger } from "./ledger";\n\n',
  footer: "\n",
  separator: "\n",
  filler: (rng, i) => {
    const name = `${WORDS[rng.int(WORDS.length)]}${WORDS[rng.int(WORDS.length)]!.replace(/^./, (c) => c.toUpperCase())}${i}`;
    switch (i % 6) {
      case 0:
        return `export async function ${name}(input: Request): Promise<Response> {`;
      case 1:
        return `  const value = await ledger.read("${WORDS[rng.int(WORDS.length)]}", ${rng.range(1, 999)});`;
      case 2:
        return `  // ${sentence(rng, rng.range(4, 10))}${rng.chance(0.05) ? ` see ${txnDecoy(rng)}` : ""}`;
      case 3:
        return `  if (value.status !== ${rng.range(200, 599)}) throw new Error("${sentence(rng, 3)}");`;
      case 4:
        return "  return Response.json(value);";
      default:
        return "}\n";
    }
  },
  needle: (_rng, needle) =>
    needle.position === "regex-only"
      ? `const SETTLEMENT_MISMATCH = "${needle.answer}"; // manual review`
      : `export const REFUND_REFERENCE = "${needle.answer}"; // event ${needle.cue}`,
  question: (needle) => `Which refund reference constant is defined for event ${needle.cue}?`,
};

const cjkFormat: Format = {
  header: "",
  footer: "\n",
  separator: "\n",
  filler: (rng) => {
    const parts: string[] = [];
    for (let k = rng.range(12, 40); k > 0; k--) parts.push(CJK[rng.int(CJK.length)]!);
    if (rng.chance(0.3)) parts.push(EMOJI[rng.int(EMOJI.length)]!);
    if (rng.chance(0.02)) parts.push(` ${txnDecoy(rng)}`);
    return parts.join("");
  },
  needle: (_rng, needle) =>
    needle.position === "regex-only"
      ? `结算不一致 ${needle.answer} 需要人工审核 ⚠️`
      : `事件 ${needle.cue} 的退款编号是 ${needle.answer} ✅`,
  question: refundQuestion,
};

export const FORMATS: Record<Kind, Format> = {
  log: logFormat,
  "json-pretty": jsonPrettyFormat,
  "json-min": jsonMinFormat,
  csv: csvFormat,
  markdown: markdownFormat,
  code: codeFormat,
  cjk: cjkFormat,
};

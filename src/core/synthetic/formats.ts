/**
 * The content formats of synthetic outputs: how a record, the needle's record and the final
 * filler look for each kind. The one content generator of spillway: tests (spillway/testing),
 * benchmarks and the demo all draw on these.
 */
import { pick } from "../rng.js";

/** How one kind of generated output is laid out. */
export interface ContentFormat {
  header: string;
  /** Between two records ("" for line formats, whose records end with "\n"). */
  separator: string;
  footer: string;
  /** The next regular record. */
  record(): string;
  /** The record that carries the needle. */
  needle(needle: string): string;
  /** The smallest `pad` size this format can fill exactly. */
  minPad: number;
  /** Filler of exactly `bytes` UTF-8 bytes (>= minPad) placed before the footer, keeping the format valid. */
  pad(bytes: number): string;
}

const START_MS = Date.UTC(2026, 2, 14, 8, 0, 0);
const SERVICES = ["api-gateway", "payment-svc", "inventory-svc", "auth-svc", "search-svc"];
const MESSAGES = [
  "request completed",
  "cache hit",
  "charge authorized",
  "token refreshed",
  "email queued",
  "slow query",
  "retrying upstream call",
];
const WORDS = (
  "the of and to in is that for it as with was on be at by this had not are but from or have " +
  "an they which one you were her all she there would their we him been has when who will more " +
  "no if out so said what up its about into than them can only other new some could time these " +
  "two may then do first any my now such like our over man me even most made after also did many"
).split(" ");
const CJK_PHRASES = [
  "系统日志已更新",
  "数据处理完成",
  "用户请求已接收",
  "ユーザー登録が完了しました",
  "エラーが発生しました",
  "서버 응답 시간",
  "缓存命中率上升",
  "注文を確認してください",
];
const EMOJI = ["🚀", "✅", "⚠️", "📦", "🔥", "🌊", "🧪"];
const REGIONS = ["eu-west-1", "us-east-1", "ap-south-1", "sa-east-1"];
const STATUSES = ["shipped", "pending", "cancelled", "returned"];

/** Timestamps that advance a few ms a record; the ISO prefix is rebuilt once a second. */
function clock(random: () => number): () => string {
  let now = START_MS;
  let second = -1;
  let prefix = "";
  return () => {
    now += 1 + Math.floor(random() * 40);
    const s = Math.floor(now / 1000);
    if (s !== second) {
      second = s;
      prefix = new Date(s * 1000).toISOString().slice(0, 20);
    }
    return `${prefix}${String(now % 1000).padStart(3, "0")}Z`;
  };
}

/** A pool of `size` seeded strings to pick from: cheaper than building each one anew. */
function pool(size: number, make: () => string): string[] {
  return Array.from({ length: size }, make);
}

function words(random: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) out.push(pick(random, WORDS));
  return out.join(" ");
}

/** ASCII filler of exactly `length` characters (no quotes, commas or backslashes). */
function asciiFiller(random: () => number, length: number): string {
  let text = "";
  while (text.length < length) text += `${pick(random, WORDS)} `;
  return text.slice(0, length);
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function logFormat(random: () => number): ContentFormat {
  const now = clock(random);
  const prefix = () => `${now()} INFO [${pick(random, SERVICES)}] msg="`;
  return {
    header: "",
    separator: "",
    footer: "",
    record() {
      const r = random();
      const level = r < 0.7 ? "INFO" : r < 0.9 ? "DEBUG" : r < 0.98 ? "WARN" : "ERROR";
      const id = Math.floor(random() * 0xffffffff)
        .toString(16)
        .padStart(8, "0");
      const ms = 1 + Math.floor(random() * 250);
      return `${now()} ${level} [${pick(random, SERVICES)}] request_id=req_${id} msg="${pick(random, MESSAGES)}" duration_ms=${ms}\n`;
    },
    needle: (needle) => `${needle}\n`,
    minPad: 64,
    pad(bytes) {
      const head = prefix();
      return `${head}${asciiFiller(random, bytes - head.length - 2)}"\n`;
    },
  };
}

function jsonFormat(random: () => number): ContentFormat {
  const now = clock(random);
  let id = 0;
  const recordWith = (level: string, message: string) => {
    id += 1;
    const status = level === "ERROR" ? 500 : random() < 0.05 ? 404 : 200;
    return (
      `  {\n    "id": ${id},\n    "timestamp": "${now()}",\n    "service": "${pick(random, SERVICES)}",\n` +
      `    "level": "${level}",\n    "status": ${status},\n    "latency_ms": ${1 + Math.floor(random() * 250)},\n` +
      `    "message": ${JSON.stringify(message)},\n    "tags": [\n      "${pick(random, REGIONS)}",\n      "${random() < 0.5 ? "canary" : "stable"}"\n    ]\n  }`
    );
  };
  return {
    header: "[\n",
    separator: ",\n",
    footer: "\n]\n",
    record: () => recordWith(random() < 0.9 ? "INFO" : "WARN", pick(random, MESSAGES)),
    needle: (needle) => recordWith("ERROR", needle),
    minPad: 0,
    pad: (bytes) => " ".repeat(bytes),
  };
}

function csvFormat(random: () => number): ContentFormat {
  const now = clock(random);
  let id = 0;
  const notes = pool(256, () =>
    random() < 0.2 ? csvField(`${words(random, 3)}, ${words(random, 2)}`) : words(random, 4),
  );
  const row = (fields: string[]) => `${fields.join(",")}\n`;
  const prefix = () => {
    id += 1;
    return [
      String(id),
      now(),
      pick(random, REGIONS),
      `sku-${Math.floor(random() * 90_000) + 10_000}`,
    ];
  };
  return {
    header: "id,timestamp,region,sku,quantity,unit_price_cents,status,note\n",
    separator: "",
    footer: "",
    record() {
      const note = pick(random, notes);
      const quantity = String(1 + Math.floor(random() * 20));
      const price = String(99 + Math.floor(random() * 20_000));
      return row([...prefix(), quantity, price, pick(random, STATUSES), note]);
    },
    needle: (needle) => row([...prefix(), "0", "0", "flagged", csvField(needle)]),
    minPad: 80,
    pad(bytes) {
      const head = `${prefix().join(",")},1,100,pending,`;
      return `${head}${asciiFiller(random, bytes - head.length - 1)}\n`;
    },
  };
}

function cjkFormat(random: () => number): ContentFormat {
  return {
    header: "",
    separator: "",
    footer: "",
    record() {
      const parts: string[] = [];
      const count = 2 + Math.floor(random() * 4);
      for (let i = 0; i < count; i += 1) parts.push(pick(random, CJK_PHRASES));
      return `${parts.join("，")} ${pick(random, EMOJI)} #${Math.floor(random() * 10_000)}。\n`;
    },
    needle: (needle) => `${needle}\n`,
    minPad: 1,
    pad(bytes) {
      // "数" is 3 UTF-8 bytes; ASCII dots fill what three-byte characters cannot.
      const wide = Math.floor((bytes - 1) / 3);
      return `${"数".repeat(wide)}${".".repeat(bytes - 1 - wide * 3)}\n`;
    },
  };
}

function textFormat(random: () => number): ContentFormat {
  const sentences = pool(512, () => {
    const sentence = words(random, 8 + Math.floor(random() * 10));
    return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
  });
  return {
    header: "",
    separator: "",
    footer: "",
    record() {
      if (random() < 0.08) return "\n";
      const count = 1 + Math.floor(random() * 3);
      const line: string[] = [];
      for (let i = 0; i < count; i += 1) line.push(pick(random, sentences));
      return `${line.join(" ")}\n`;
    },
    needle: (needle) => `${needle}\n`,
    minPad: 1,
    pad: (bytes) => `${asciiFiller(random, bytes - 1)}\n`,
  };
}

/** Minified JSON on one line: `{"records":[{…},{…}]}` (lines far too long to show whole). */
function jsonMinFormat(random: () => number): ContentFormat {
  const now = clock(random);
  let id = 0;
  const recordWith = (level: string, message: string) => {
    id += 1;
    return JSON.stringify({
      id,
      timestamp: now(),
      service: pick(random, SERVICES),
      level,
      status: level === "ERROR" ? 500 : 200,
      order: {
        sku: `sku-${Math.floor(random() * 90_000) + 10_000}`,
        quantity: 1 + Math.floor(random() * 9),
        region: pick(random, REGIONS),
      },
      message,
    });
  };
  return {
    header: '{"records":[',
    separator: ",",
    footer: "]}",
    record: () => recordWith(random() < 0.9 ? "INFO" : "WARN", pick(random, MESSAGES)),
    needle: (needle) => recordWith("ERROR", needle),
    minPad: 0,
    pad: (bytes) => " ".repeat(bytes),
  };
}

const NOUNS = ["order", "user", "invoice", "session", "cart", "token", "report", "queue"];
const TYPES = ["string", "number", "boolean", "Date", "Uint8Array", "Record<string, unknown>"];

/** TypeScript source: interfaces and loader functions; the needle is a logged message. */
function codeFormat(random: () => number): ContentFormat {
  let n = 0;
  const cap = (word: string) => word[0]!.toUpperCase() + word.slice(1);
  const block = (message: string) => {
    n += 1;
    const noun = pick(random, NOUNS);
    const name = `${cap(noun)}${cap(pick(random, WORDS))}${n}`;
    const fields = Array.from(
      { length: 2 + Math.floor(random() * 5) },
      (_, k) => `  readonly ${pick(random, WORDS)}${k}: ${pick(random, TYPES)};`,
    );
    return (
      `/** A ${noun} as the ${pick(random, SERVICES)} service sees it. */\n` +
      `export interface ${name} {\n${fields.join("\n")}\n}\n\n` +
      `export async function load${name}(id: string): Promise<${name} | null> {\n` +
      `  const response = await fetch(\`/api/v1/${noun}s/\${encodeURIComponent(id)}\`);\n` +
      `  if (!response.ok) logger.warn(${JSON.stringify(message)}, { id });\n` +
      `  return response.ok ? ((await response.json()) as ${name}) : null;\n}\n\n`
    );
  };
  return {
    header: 'import { logger } from "./runtime.js";\n\n',
    separator: "",
    footer: "",
    record: () => block(pick(random, MESSAGES)),
    needle: (needle) => block(needle),
    minPad: 4,
    pad: (bytes) => `// ${asciiFiller(random, bytes - 4)}\n`,
  };
}

/** The format factory of each synthetic kind. */
export const FORMATS = {
  log: logFormat,
  json: jsonFormat,
  "json-min": jsonMinFormat,
  csv: csvFormat,
  cjk: cjkFormat,
  text: textFormat,
  code: codeFormat,
} as const satisfies Record<string, (random: () => number) => ContentFormat>;

/**
 * Record generators for the benchmark fixtures. Each kind yields its file as a header, a run
 * of records (each with its own leading separator), one record holding the needle, a padding
 * record of an exact byte size (so every fixture has exactly its nominal size) and a footer.
 */
import type { Rng } from "../src/core/rng.js";

/** A rare literal planted once near the middle of every fixture. */
export const NEEDLE = "NEEDLE-7f3a9c";

export interface ContentGenerator {
  readonly header: string;
  readonly footer: string;
  /** The smallest padding record `pad` can make, in bytes. */
  readonly minPad: number;
  /** The i-th record (i >= 0), with its leading separator when i > 0. */
  record(i: number): string;
  /** A record (i > 0) that holds the needle once. */
  needle(i: number): string;
  /** A record (i > 0) of exactly `bytes` UTF-8 bytes (bytes >= minPad). */
  pad(i: number, bytes: number): string;
}

const FILLER = "padding so the fixture has its exact nominal size ";

/** prefix + ASCII filler + suffix, exactly `bytes` UTF-8 bytes long. */
function padTo(prefix: string, suffix: string, bytes: number): string {
  const room = bytes - Buffer.byteLength(prefix) - Buffer.byteLength(suffix);
  if (room < 0) throw new RangeError(`padding of ${bytes} bytes is too small`);
  return prefix + FILLER.repeat(Math.ceil(room / FILLER.length)).slice(0, room) + suffix;
}

const BASE_TIME = Date.UTC(2026, 0, 5, 8, 0, 0);
const SERVICES = ["api-gateway", "orders", "billing", "auth", "search", "inventory", "mailer"];
const METHODS = ["GET", "GET", "GET", "POST", "PUT", "DELETE", "PATCH"];
const PATHS = ["/api/v1/orders", "/api/v1/users", "/api/v2/search", "/healthz", "/api/v1/cart"];
const MESSAGES = [
  "request completed",
  "cache miss, loading from database",
  "retrying upstream call",
  "slow query detected",
  "connection pool exhausted, waiting",
  "token refreshed",
  "payload validated",
];
const WORDS = ["alpha", "bravo", "delta", "echo", "gamma", "kilo", "lima", "nova", "omega", "zulu"];

function uuid(rng: Rng): string {
  const h = rng.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

function logGenerator(rng: Rng): ContentGenerator {
  let time = BASE_TIME;
  const stamp = () => {
    time += rng.int(40);
    return new Date(time).toISOString();
  };
  const line = (level: string, service: string, body: string) =>
    `${stamp()} ${level.padEnd(5)} [${service}] req=${uuid(rng)} ${body}\n`;
  return {
    header: "",
    footer: "",
    minPad: 120,
    record() {
      const r = rng.float();
      const level = r < 0.7 ? "INFO" : r < 0.85 ? "DEBUG" : r < 0.96 ? "WARN" : "ERROR";
      const service = rng.pick(SERVICES);
      const body =
        `user=u_${rng.int(100_000)} method=${rng.pick(METHODS)} path=${rng.pick(PATHS)}/` +
        `${rng.int(10_000)} status=${level === "ERROR" ? 500 : 200} dur=${rng.int(2000)}ms ` +
        `msg="${rng.pick(MESSAGES)}"`;
      let text = line(level, service, body);
      if (level === "ERROR" && rng.chance(0.5)) {
        text += `java.lang.IllegalStateException: ${rng.pick(MESSAGES)}\n`;
        for (let k = rng.range(3, 8); k > 0; k--) {
          text += `    at com.example.${service.replace("-", "")}.${rng.pick(WORDS)}(Handler.java:${rng.int(900)})\n`;
        }
      }
      return text;
    },
    needle: () => line("ERROR", "billing", `msg="invariant broken: ${NEEDLE} ledger mismatch"`),
    pad: (_i, bytes) => padTo(`${stamp()} DEBUG [bench] pad="`, `"\n`, bytes),
  };
}

function jsonRecord(rng: Rng, id: number): Record<string, unknown> {
  const items = Array.from({ length: rng.range(1, 4) }, () => ({
    sku: `SKU-${rng.hex(6).toUpperCase()}`,
    qty: rng.range(1, 9),
    price: Number((rng.int(100_000) / 100).toFixed(2)),
  }));
  return {
    id,
    uuid: uuid(rng),
    createdAt: new Date(BASE_TIME + id * 1000).toISOString(),
    user: {
      id: `u_${rng.int(100_000)}`,
      name: `${rng.pick(WORDS)} ${rng.pick(WORDS)}`,
      email: `${rng.pick(WORDS)}.${rng.int(1000)}@example.com`,
      roles: rng.chance(0.2) ? ["admin", "user"] : ["user"],
    },
    order: { items, currency: rng.pick(["EUR", "USD", "JPY"]), status: rng.pick(MESSAGES) },
    tags: Array.from({ length: rng.int(4) }, () => rng.pick(WORDS)),
    active: rng.chance(0.8),
    score: rng.int(1000) / 10,
  };
}

function indent(text: string, by: string): string {
  return by + text.replaceAll("\n", `\n${by}`);
}

function jsonGenerator(rng: Rng, pretty: boolean): ContentGenerator {
  const meta = { source: "spillway-bench", version: 1, generatedAt: "2026-01-05T08:00:00.000Z" };
  const show = (value: unknown) =>
    pretty ? indent(JSON.stringify(value, null, 2), "    ") : JSON.stringify(value);
  const sep = pretty ? ",\n" : ",";
  const metaText = pretty ? indent(JSON.stringify(meta, null, 2), "  ").trimStart() : "";
  return {
    header: pretty
      ? `{\n  "meta": ${metaText},\n  "records": [\n`
      : `{"meta":${JSON.stringify(meta)},"records":[`,
    footer: pretty ? "\n  ]\n}\n" : "]}",
    minPad: 80,
    record: (i) => (i > 0 ? sep : "") + show(jsonRecord(rng, i)),
    needle: (i) => sep + show({ ...jsonRecord(rng, i), note: `audit ${NEEDLE} flagged` }),
    pad: (i, bytes) => {
      const [prefix, suffix] = pretty
        ? [`${sep}    {\n      "id": ${i},\n      "pad": "`, `"\n    }`]
        : [`${sep}{"id":${i},"pad":"`, `"}`];
      return padTo(prefix, suffix, bytes);
    },
  };
}

function csvGenerator(rng: Rng): ContentGenerator {
  const row = (i: number, note: string) =>
    `${i},${new Date(BASE_TIME + i * 997).toISOString()},u_${rng.int(100_000)},` +
    `${rng.pick(WORDS)} ${rng.pick(WORDS)},${rng.pick(WORDS)}${rng.int(1000)}@example.com,` +
    `${rng.pick(["DE", "FR", "JP", "US", "BR", "IN"])},${(rng.int(1_000_000) / 100).toFixed(2)},` +
    `${rng.pick(["EUR", "USD", "JPY"])},${rng.pick(["paid", "refunded", "pending"])},${note}\n`;
  return {
    header: "id,timestamp,user_id,name,email,country,amount,currency,status,note\n",
    footer: "",
    minPad: 160,
    record: (i) => row(i, rng.chance(0.3) ? `"${rng.pick(MESSAGES)}, ${rng.pick(WORDS)}"` : ""),
    needle: (i) => row(i, `"${NEEDLE}"`),
    pad: (i, bytes) => {
      const head = row(i, "");
      return padTo(`${head.slice(0, -1)}"`, `"\n`, bytes);
    },
  };
}

const ZH = ["我们", "今天", "服务器", "数据库", "连接", "超时", "用户", "请求", "处理", "完成"];
const ZH2 = ["错误", "日志", "配置", "文件", "系统", "网络", "缓存", "更新", "版本", "部署"];
const JA = ["こんにちは", "データ", "サーバー", "エラーが発生しました", "接続", "処理中", "完了"];
const JA2 = ["ファイル", "設定", "ユーザー", "東京", "会議", "確認してください", "キャッシュ"];
const PUNCT = ["，", "。", "、", "！", "？", "：", "「", "」"];
const EMOJI = ["🎉", "👩‍💻", "🚀", "😀", "🔥", "✅", "👍🏽", "🇯🇵", "💡", "📦", "⚠️", "🐛", "🍣"];
const CJK_VOCAB = [...ZH, ...ZH2, ...JA, ...JA2];

function cjkGenerator(rng: Rng): ContentGenerator {
  const sentence = () => {
    let text = "";
    for (let k = rng.range(6, 30); k > 0; k--) {
      const r = rng.float();
      if (r < 0.7) text += rng.pick(CJK_VOCAB);
      else if (r < 0.82) text += rng.pick(PUNCT);
      else if (r < 0.92) text += rng.pick(EMOJI);
      else text += ` ${rng.pick(WORDS)}_${rng.int(1000)} `;
    }
    return text;
  };
  const clock = (i: number) => {
    const s = i % 86_400;
    const two = (n: number) => String(n).padStart(2, "0");
    return `[${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}]`;
  };
  return {
    header: "",
    footer: "",
    minPad: 64,
    record: (i) => `${clock(i)} ${sentence()}。\n`,
    needle: (i) => `${clock(i)} ${sentence()} ${NEEDLE} 🎉 ${sentence()}\n`,
    pad: (i, bytes) => padTo(`${clock(i)} `, "\n", bytes),
  };
}

const TYPES = ["string", "number", "boolean", "Date", "Uint8Array", "Record<string, unknown>"];
const NOUNS = ["order", "user", "invoice", "session", "cart", "token", "report", "queue"];

function codeGenerator(rng: Rng): ContentGenerator {
  const cap = (word: string) => word[0]!.toUpperCase() + word.slice(1);
  const block = (i: number, extra: string) => {
    const noun = rng.pick(NOUNS);
    const name = `${cap(noun)}${cap(rng.pick(WORDS))}${i}`;
    const fields = Array.from(
      { length: rng.range(2, 6) },
      (_, k) => `  readonly ${rng.pick(WORDS)}${k}: ${rng.pick(TYPES)};`,
    );
    return (
      `/** A ${noun} as the ${rng.pick(SERVICES)} service sees it. */\n` +
      `export interface ${name} {\n${fields.join("\n")}\n}\n\n` +
      `export async function load${name}(id: string, retries = ${rng.range(1, 5)}): Promise<${name} | null> {\n` +
      `  for (let attempt = 0; attempt < retries; attempt++) {\n` +
      `    const cached = cache.get(\`${noun}:\${id}\`);\n` +
      `    if (cached !== undefined) return cached as ${name};\n` +
      `    try {\n` +
      `      const response = await fetch(\`/api/v1/${noun}s/\${encodeURIComponent(id)}\`);\n` +
      `      if (response.status === ${rng.pick([404, 410])}) return null;\n` +
      `      return (await response.json()) as ${name};\n` +
      `    } catch (error) {\n` +
      `      logger.warn("${rng.pick(MESSAGES)}${extra}", { id, attempt, error });\n` +
      `    }\n  }\n  throw new Error(\`cannot load ${noun} \${id}\`);\n}\n\n`
    );
  };
  return {
    header: 'import { cache, logger } from "./runtime.js";\n\n',
    footer: "",
    minPad: 16,
    record: (i) => block(i, ""),
    needle: (i) => block(i, ` ${NEEDLE}`),
    pad: (_i, bytes) => padTo("// ", "\n", bytes),
  };
}

export const FIXTURE_KINDS = ["log", "json-pretty", "json-min", "csv", "cjk"] as const;
export type FixtureKind = (typeof FIXTURE_KINDS)[number] | "code";

export function generatorFor(kind: FixtureKind, rng: Rng): ContentGenerator {
  switch (kind) {
    case "log":
      return logGenerator(rng);
    case "json-pretty":
      return jsonGenerator(rng, true);
    case "json-min":
      return jsonGenerator(rng, false);
    case "csv":
      return csvGenerator(rng);
    case "cjk":
      return cjkGenerator(rng);
    case "code":
      return codeGenerator(rng);
  }
}

export const FIXTURE_EXTENSIONS: Record<FixtureKind, string> = {
  log: "log",
  "json-pretty": "json",
  "json-min": "json",
  csv: "csv",
  cjk: "txt",
  code: "ts",
};

import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../../test/helpers/temp-store.js";
import {
  KUBECTL_PODS_YAML,
  LOG_WITH_TRACES,
  ORDERS_CSV,
} from "../../retrieval/fixtures/record-shapes.js";
import type { OutputStore } from "../../store/output-store.js";
import { createGetToolOutputSurface } from "../get-tool-output.js";

const surface = createGetToolOutputSurface({ synopsisLines: 5 });

async function setup(text: string, maxChars = 100_000, compatibilityTexts = false) {
  const { store } = await tempStore();
  const record = await store.put(origin("data__fetch", "{}"), text);
  const context = {
    outputs: store as OutputStore,
    scope: SCOPE,
    maxChars,
    tokenizer: "o200k_base" as const,
    outputOfToolCall: async () => undefined,
    ...(compatibilityTexts ? { compatibilityTexts } : {}),
  };
  const call = async (args: Record<string, unknown>) => {
    const answer = await surface.execute("get_tool_output", { id: record.id, ...args }, context);
    expect(answer.isError).toBe(false);
    return answer.text;
  };
  return {
    id: record.id,
    grep: (pattern: string, more: Record<string, unknown> = {}) =>
      call({ mode: "grep", pattern, ...more }),
    call,
  };
}

const lineNumberOf = (text: string, needle: string) =>
  text.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("grep shows each match inside its record", () => {
  it("a pod's name brings the whole pod, its image ten lines below with its number", async () => {
    const { grep } = await setup(KUBECTL_PODS_YAML);
    const text = await grep("checkout-7d9c5b8f6-k8w4d");
    const nameLine = lineNumberOf(KUBECTL_PODS_YAML, "name: checkout-7d9c5b8f6-k8w4d");
    const imageLine = lineNumberOf(KUBECTL_PODS_YAML, "checkout:2.15.0-rc1");
    expect(imageLine - nameLine).toBeGreaterThanOrEqual(8);
    expect(text).toContain("1 matching line; showing 1 inside their records");
    expect(text).toContain("[record: list item, lines 32-60]");
    expect(text).toContain(`${nameLine}:11:     name: checkout-7d9c5b8f6-k8w4d`);
    expect(text).toContain(`${imageLine}-       image: registry.example.com/checkout:2.15.0-rc1`);
    expect(text).not.toContain("x2x9q");
    expect(text).not.toContain("p3m7z");
  });

  it("matches of one record show it once, every matching line marked", async () => {
    const { grep } = await setup(KUBECTL_PODS_YAML);
    const text = await grep("x2x9q|10\\.42\\.0\\.17", { regex: true });
    expect(text.match(/\[record: /g)).toHaveLength(1);
    expect(text).toMatch(/\n11:\d+: +name: checkout-7d9c5b8f6-x2x9q/);
    expect(text).toMatch(/\n31:\d+: +podIP: 10\.42\.0\.17/);
  });

  it("a CSV row is shown with its header's names", async () => {
    const { grep } = await setup(ORDERS_CSV);
    const text = await grep("ring twice");
    expect(text).toContain("[record: CSV row, lines 4-5; names from the header, line 1]");
    expect(text).toContain(
      '4: order_id=A-1003, placed_at=2026-03-14T08:01:12Z, customer=Alan Turing, warehouse="Leeds, UK", sku=sku-10451, qty=5, note="leave at door\\nring twice"',
    );
  });

  it("a log line brings its entry with the stack trace", async () => {
    const { grep } = await setup(LOG_WITH_TRACES);
    const text = await grep("acct_5521");
    expect(text).toContain("[record: log entry, lines 2-10]");
    expect(text).toContain("2- 2026-03-14 09:26:41,118 ERROR [http-nio-8080-exec-7]");
    expect(text).toContain("10- \t... 41 more");
  });

  it("a JSON order's nested code comes with its id, and not its neighbours'", async () => {
    const orders = Array.from({ length: 40 }, (_, i) => ({
      id: i === 25 ? "ord_89309srrp" : `ord_${i}aaaa`,
      payment: { auth: { code: i === 25 ? "ANS-7Q2" : `c${i}` } },
    }));
    const json = JSON.stringify({ orders }, null, 2);
    const { grep } = await setup(json);
    const text = await grep("ord_89309srrp");
    const idLine = lineNumberOf(json, "ord_89309srrp");
    expect(text).toContain(`[record: JSON object, lines ${idLine - 1}-${idLine + 6}]`);
    expect(text).toContain(`${idLine + 3}-           "code": "ANS-7Q2"`);
    expect(text).not.toContain('"c24"');
    expect(text).not.toContain('"c26"');
  });

  it("a record over its limits names the slice that reads what it left out, and that slice holds it", async () => {
    const orders = Array.from({ length: 5 }, (_, i) => ({
      id: i === 3 ? "ord_89309srrp" : `ord_${i}aaaa`,
      items: Array.from({ length: 30 }, (_, k) => ({ sku: `sku_${k}` })),
      payment: { auth: { code: i === 3 ? "ANS-7Q2" : `c${i}` } },
    }));
    const { grep, call } = await setup(JSON.stringify({ orders }, null, 2));
    const text = await grep("ord_89309srrp");
    expect(text).toContain("too long to show whole, showing lines");
    expect(text).not.toContain("ANS-7Q2");
    const slice =
      /left out: lines [\d,]+-[\d,]+ (get_tool_output\(id="[^"]+", mode="slice", slice=(\{[^}]*\})\))/.exec(
        text,
      );
    expect(slice).not.toBeNull();
    const rest = await call({ mode: "slice", slice: JSON.parse(slice![2]!) });
    expect(rest).toContain('"code": "ANS-7Q2"');
  });

  it("records that do not fit the budget are paged: the next call starts after the last record shown", async () => {
    const orders = Array.from({ length: 30 }, (_, i) => ({
      id: `ord_${i}`,
      status: "late",
      note: "x".repeat(60),
    }));
    const { grep } = await setup(JSON.stringify({ orders }, null, 2), 1_500);
    const first = await grep('"status": "late"');
    expect(first).toMatch(/30 matching lines; showing \d+ inside their records/);
    const shown = [...first.matchAll(/"id": "(ord_\d+)"/g)].map((m) => m[1]);
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.length).toBeLessThan(30);
    const cursor = /cursor=(\d+)\)\]$/.exec(first);
    expect(cursor).not.toBeNull();
    const next = await grep('"status": "late"', { cursor: Number(cursor![1]) });
    const nextShown = [...next.matchAll(/"id": "(ord_\d+)"/g)].map((m) => m[1]);
    expect(nextShown[0]).toBe(`ord_${shown.length}`);
  });

  it("text without structure keeps the grep lines with the context asked for", async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `INFO event=evt_${i}x status=ok`);
    lines[120] = "WARN event=evt_ntngab003 refund_ref=ANS-34Z5AQ";
    const { grep } = await setup(lines.join("\n"));
    const text = await grep("evt_ntngab003", { context: 1 });
    expect(text).not.toContain("[record:");
    expect(text).toContain(
      "120- INFO event=evt_119x status=ok\n121:12: WARN event=evt_ntngab003 refund_ref=ANS-34Z5AQ\n122- INFO event=evt_121x status=ok",
    );
  });

  it("sessions with the compatibility texts keep the plain grep lines", async () => {
    const { grep } = await setup(KUBECTL_PODS_YAML, 100_000, true);
    const text = await grep("checkout-7d9c5b8f6-k8w4d");
    expect(text).not.toContain("[record:");
    expect(text).toMatch(/\n\d+:11: +name: checkout-7d9c5b8f6-k8w4d$/);
  });
});

import { describe, expect, it } from "vitest";
import { expectExact, openText, recordOfMatch } from "./fixtures/record-harness.js";
import { KUBECTL_PODS_YAML, ORDERS, ORDERS_CSV } from "./fixtures/record-shapes.js";
import { grepOutput } from "./grep.js";
import { outerRecord } from "./records.js";

/** A record of whole lines of pretty JSON, parsed: the element, without the comma after it. */
const parsed = (text: string) => JSON.parse(text.trim().replace(/,$/, ""));

/** The record of the first match of `pattern`, and the match's position for `outerRecord`. */
async function innermost(text: string, pattern: string, occurrence = 0) {
  const opened = await openText(text);
  const { record, line } = await recordOfMatch(opened, pattern, occurrence);
  const hits = await grepOutput(opened, { pattern, maxMatches: occurrence + 1 });
  const at = { line, charOffset: hits.matches[occurrence]!.matchCharStart };
  return { opened, record, line, at };
}

describe("outerRecord: the record one level out", () => {
  it("YAML: the container item's outer record is its pod, whose own is none", async () => {
    const { opened, record, line, at } = await innermost(
      KUBECTL_PODS_YAML,
      "image: envoyproxy/envoy",
    );
    expect(record.text).toBe("    - image: envoyproxy/envoy:v1.29.1\n      name: sidecar");
    const pod = await outerRecord(opened, record, at);
    expect(pod).not.toBeNull();
    await expectExact(opened, KUBECTL_PODS_YAML, pod!, line);
    expect(pod!.kind).toBe("yaml-item");
    expect(pod!.text.startsWith("- apiVersion: v1\n  kind: Pod\n")).toBe(true);
    expect(pod!.text).toContain("envoyproxy/envoy:v1.29.1");
    // One pod: its own name, no other pod's.
    expect(pod!.text.match(/ name: checkout-7d9c5b8f6-\w+/g)).toHaveLength(1);
    expect(await outerRecord(opened, pod!, at)).toBeNull();
  });

  it("JSON: an order line's outer record is its order; the order's is the whole document", async () => {
    const pretty = JSON.stringify(ORDERS, null, 2);
    const { opened, record, line, at } = await innermost(pretty, '"sku": "sku-21"');
    expect(parsed(record.text)).toEqual({ sku: "sku-21", qty: 2 });
    const order = await outerRecord(opened, record, at);
    await expectExact(opened, pretty, order!, line);
    expect(parsed(order!.text)).toEqual(ORDERS.orders[1]);
    const whole = await outerRecord(opened, order!, at, { maxChars: 100_000, maxLines: 1_000 });
    expect(parsed(whole!.text)).toEqual(ORDERS);
    expect(await outerRecord(opened, whole!, at)).toBeNull();
  });

  it("over the bounds, the outer record shows the part around the match and names the rest", async () => {
    const pretty = JSON.stringify(ORDERS, null, 2);
    const { opened, record, line, at } = await innermost(pretty, '"sku": "sku-21"');
    const order = await outerRecord(opened, record, at, { maxLines: 4 });
    expect(order!.clipped?.omitted.length).toBeGreaterThan(0);
    expect(order!.text).toContain('"sku": "sku-21"');
    await expectExact(opened, pretty, order!, line);
  });

  it("records that do not nest have none: a CSV row, a JSON line", async () => {
    const csv = await innermost(ORDERS_CSV, "A-1002");
    expect(csv.record.kind).toBe("csv-row");
    expect(await outerRecord(csv.opened, csv.record, csv.at)).toBeNull();
    const jsonl = await innermost('{"a":1}\n{"a":2,"b":{"c":3}}\n{"a":3}\n', '"c":3');
    expect(await outerRecord(jsonl.opened, jsonl.record, jsonl.at)).toBeNull();
  });
});

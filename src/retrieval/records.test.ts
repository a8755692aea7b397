import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../core/errors.js";
import { checkedRecord, linesOf, openText } from "./fixtures/record-harness.js";
import {
  EVENTS_JSONL,
  HTML_PAGE,
  KUBECTL_PODS_YAML,
  MARKDOWN_README,
  ORDERS,
  ORDERS_CSV,
  ORDERS_TSV,
} from "./fixtures/record-shapes.js";
import { grepOutput } from "./grep.js";

describe("YAML list items (kubectl get pods -o yaml)", () => {
  it("a match on a pod's name under metadata brings the whole pod, its image ten lines below included", async () => {
    const { record, opened } = await checkedRecord(
      KUBECTL_PODS_YAML,
      "name: checkout-7d9c5b8f6-k8w4d",
    );
    expect(opened.record.kind).not.toBe("json");
    expect(record.kind).toBe("yaml-item");
    expect(record.text.startsWith("- apiVersion: v1\n  kind: Pod\n  metadata:")).toBe(true);
    expect(record.text).toContain("image: registry.example.com/checkout:2.15.0-rc1");
    expect(record.text).toContain("podIP: 10.42.1.9");
    // Nothing of the pods before and after.
    expect(record.text).not.toContain("x2x9q");
    expect(record.text).not.toContain("p3m7z");
    expect(record.text.trimEnd().endsWith("podIP: 10.42.1.9")).toBe(true);
    expect(record.clipped).toBeUndefined();
  });

  it("a match on an image line brings its container item, not the pod", async () => {
    const { record } = await checkedRecord(KUBECTL_PODS_YAML, "image: envoyproxy/envoy", 1);
    expect(record.kind).toBe("yaml-item");
    expect(record.text).toBe("    - image: envoyproxy/envoy:v1.29.1\n      name: sidecar");
    const main = await checkedRecord(KUBECTL_PODS_YAML, "checkout:2.15.0-rc1");
    // The first container: its env list and ports belong to it.
    expect(main.record.text.startsWith("    - env:\n")).toBe(true);
    expect(main.record.text).toContain("containerPort: 8080");
    expect(main.record.text).not.toContain("sidecar");
  });

  it("a scalar item is part of its parent's record; the last top-level keys fall back to lines", async () => {
    const text = "args:\n- --port=8080\n- --verbose\nservice:\n  name: cart\n";
    const { record } = await checkedRecord(text, "--verbose");
    expect(record.kind).not.toBe("yaml-item");
    const tail = await checkedRecord(KUBECTL_PODS_YAML, 'resourceVersion: ""');
    expect(tail.record.kind).not.toBe("yaml-item");
    expect(tail.record.text).toContain('resourceVersion: ""');
  });
});

describe("JSON records", () => {
  const pretty = JSON.stringify(ORDERS, null, 2);
  const minified = JSON.stringify(ORDERS);

  it("pretty: the array element around a match, however deep the match", async () => {
    for (const pattern of ['"id": "ord_2002"', "AUTH-22X2", '"tier": "gold"']) {
      const { record } = await checkedRecord(pretty, pattern);
      expect(record.kind).toBe("json-object");
      expect(JSON.parse(record.text.replace(/,$/, ""))).toEqual(ORDERS.orders[1]);
    }
    // Inside a nested array, the nested element is the record.
    const { record } = await checkedRecord(pretty, '"sku": "sku-22"');
    expect(JSON.parse(record.text)).toEqual({ sku: "sku-22", qty: 1 });
  });

  it("pretty: outside arrays, the innermost object; the root when the match is its member", async () => {
    const config = JSON.stringify(
      { db: { primary: { host: "db-1", port: 5432 } }, mode: "x" },
      null,
      2,
    );
    const { record } = await checkedRecord(config, '"port": 5432');
    // Whole lines: the member's key comes with its object.
    expect(record.text).toBe('    "primary": {\n      "host": "db-1",\n      "port": 5432\n    }');
    const root = await checkedRecord(pretty, '"generated"');
    expect(root.record.lineStart).toBe(1);
    expect(root.record.lineEnd).toBe(pretty.split("\n").length);
    // The root is over 60 lines: shown around the match, the rest named.
    expect(root.record.clipped?.omitted.length).toBeGreaterThan(0);
  });

  it("minified: the element around the match, by character offset on the one line", async () => {
    for (const [pattern, expected] of [
      ["ord_2002", ORDERS.orders[1]],
      ["AUTH-33X3", ORDERS.orders[2]],
      ["sku-31", { sku: "sku-31", qty: 3 }],
    ] as const) {
      const { record } = await checkedRecord(minified, pattern);
      expect(record).toMatchObject({ kind: "json-object", lineStart: 1, lineEnd: 1 });
      expect(JSON.parse(record.text)).toEqual(expected);
    }
  });

  it("strings holding brackets, quotes and escapes do not move the record's bounds", async () => {
    const items = Array.from({ length: 400 }, (_, i) => ({
      id: `item-${i}`,
      note: `a "quoted" {brace} [bracket] \\ back\\slash ${"}]".repeat(i % 7)} end`,
      nested: { list: [{ k: `v${i}` }] },
    }));
    const text = JSON.stringify({ items });
    for (const i of [3, 150, 399]) {
      const { record } = await checkedRecord(text, `"id":"item-${i}"`);
      expect(JSON.parse(record.text)).toEqual(items[i]);
    }
  });

  it("JSON lines: the line's object", async () => {
    const { record, opened } = await checkedRecord(EVENTS_JSONL, "E_CARD_DECLINED");
    expect(opened.record.kind).toBe("ndjson");
    expect(record).toMatchObject({ kind: "json-line", lineStart: 2, lineEnd: 2 });
    expect(JSON.parse(record.text)).toMatchObject({ code: "E_CARD_DECLINED", amount: 4200 });
  });
});

describe("CSV and TSV rows", () => {
  it("the row with its header's names, quoted commas and doubled quotes read as one field", async () => {
    const { record } = await checkedRecord(ORDERS_CSV, "fragile");
    expect(record.kind).toBe("csv-row");
    expect(record.header?.names).toEqual([
      "order_id",
      "placed_at",
      "customer",
      "warehouse",
      "sku",
      "qty",
      "note",
    ]);
    expect(record.header?.text).toBe(ORDERS_CSV.split("\n")[0]);
    expect(record.fields).toEqual([
      { name: "order_id", value: "A-1002" },
      { name: "placed_at", value: "2026-03-14T08:00:07Z" },
      { name: "customer", value: "Hopper, Grace" },
      { name: "warehouse", value: "Rotterdam, NL" },
      { name: "sku", value: "sku-22710" },
      { name: "qty", value: "1" },
      { name: "note", value: 'gift wrap, "fragile"' },
    ]);
  });

  it("a row whose quoted field holds a newline is one record, whichever of its lines matched", async () => {
    for (const pattern of ["A-1003", "ring twice"]) {
      const { record } = await checkedRecord(ORDERS_CSV, pattern);
      expect(record).toMatchObject({ kind: "csv-row", lineStart: 4, lineEnd: 5 });
      expect(record.fields?.find((f) => f.name === "note")?.value).toBe(
        "leave at door\nring twice",
      );
      expect(record.fields?.find((f) => f.name === "warehouse")?.value).toBe("Leeds, UK");
    }
    // The next row is its own record.
    const next = await checkedRecord(ORDERS_CSV, "Lyon");
    expect(next.record).toMatchObject({ lineStart: 6, lineEnd: 6 });
    expect(next.record.fields?.[0]).toEqual({ name: "order_id", value: "A-1004" });
  });

  it("TSV: tab-separated fields, commas inside them kept", async () => {
    const { record, opened } = await checkedRecord(ORDERS_TSV, "A-1002");
    expect(opened.record.kind).toBe("csv");
    expect(record.fields?.find((f) => f.name === "customer")?.value).toBe("Hopper, Grace");
  });

  it("a log whose lines hold one comma each is not read as CSV", async () => {
    const log = Array.from(
      { length: 40 },
      (_, i) => `2026-03-14 09:26:${String(i).padStart(2, "0")},118 INFO request ${i} done`,
    ).join("\n");
    const { record } = await checkedRecord(log, "request 17 done");
    expect(record.kind).not.toBe("csv-row");
    expect(record.text).toBe(log.split("\n")[17]);
  });
});

describe("markup", () => {
  const row = (id: number, owner: string) =>
    [
      `      <tr id="INC-${id}">`,
      `        <td><a href="/incidents/INC-${id}">INC-${id}</a></td>`,
      `        <td class="title">Incident ${id}</td>`,
      `        <td class="owner">${owner}</td>`,
      "      </tr>",
    ].join("\n");
  const page = [
    "<html>",
    "  <body>",
    "    <table>",
    ...Array.from({ length: 30 }, (_, i) => row(100 + i, `Owner ${i}`)),
    "    </table>",
    "  </body>",
    "</html>",
  ].join("\n");

  it("indented HTML: a row's element with its cells, whether the match is on its tag or a cell", async () => {
    const onTag = await checkedRecord(page, 'id="INC-117"');
    expect(onTag.opened.record.kind).toBe("html");
    expect(onTag.record).toMatchObject({ kind: "block", lineStart: 89, lineEnd: 92 });
    expect(onTag.record.text).toContain('<td class="owner">Owner 17</td>');
    const inCell = await checkedRecord(page, "/incidents/INC-117");
    expect(inCell.record).toMatchObject({ kind: "block", lineStart: 89, lineEnd: 92 });
  });
});

describe("Markdown tables", () => {
  const table = [
    "# Runbook",
    "",
    "| Team | Region | Primary on-call | Notes |",
    "|------|:------:|-----------------|-------|",
    ...Array.from(
      { length: 12 },
      (_, i) => `| Team ${i} | ${i % 2 ? "EU" : "US"} | Person ${i} | a \\| b |`,
    ),
    "",
    "After the table.",
  ].join("\n");

  it("a row is a record with its header row's names", async () => {
    const { record, opened } = await checkedRecord(table, "Person 7");
    expect(opened.record.kind).toBe("markdown");
    expect(record).toMatchObject({ kind: "table-row", lineStart: 12, lineEnd: 12 });
    expect(record.header?.provenance.lineStart).toBe(3);
    expect(record.fields).toEqual([
      { name: "Team", value: "Team 7" },
      { name: "Region", value: "EU" },
      { name: "Primary on-call", value: "Person 7" },
      { name: "Notes", value: "a | b" },
    ]);
  });

  it("the header row, and a row whose cells do not match the header's, are not table rows", async () => {
    const header = await checkedRecord(table, "Primary on-call");
    expect(header.record.kind).not.toBe("table-row");
    const ragged = table.replace("| Person 7 |", "| Person 7 | extra |");
    const row = await checkedRecord(ragged, "Person 7");
    expect(row.record.kind).not.toBe("table-row");
  });
});

describe("outputs without record structure", () => {
  it("an HTML page falls back to the line with two lines each side", async () => {
    const { record, opened } = await checkedRecord(HTML_PAGE, "ledger mismatch");
    expect(opened.record.kind).toBe("html");
    expect(record).toMatchObject({ kind: "lines", lineStart: 5, lineEnd: 9 });
    expect(record.text).toBe(linesOf(HTML_PAGE, 5, 9));
  });

  it("Markdown: a list item with its continuation line, a paragraph, or the lines", async () => {
    const item = await checkedRecord(MARKDOWN_README, "two seconds");
    expect(item.opened.record.kind).toBe("markdown");
    expect(item.record.text).toBe(
      "- `ledger`: the ledger's URL;\n  it must answer within two seconds",
    );
    const para = await checkedRecord(MARKDOWN_README, "SHOP_CONFIG");
    expect(para.record).toMatchObject({ kind: "block", lineStart: 7, lineEnd: 9 });
    const line = await checkedRecord(MARKDOWN_README, "small checkout");
    expect(line.record.kind).toBe("lines");
  });

  it("JSON-kind content that is not JSON falls back to lines, never an error", async () => {
    const filler = "but it starts and ends like JSON\n".repeat(3_000);
    const text = `[ this is not json\n${filler}the end ]`;
    const { record, opened } = await checkedRecord(text, "starts");
    expect(opened.record.kind).toBe("json");
    expect(record.kind).toBe("lines");
  });
});

describe("grep with record: true", () => {
  it("carries each match's record once, matches of one record pointing to it", async () => {
    const opened = await openText(KUBECTL_PODS_YAML);
    const result = await grepOutput(opened, { pattern: "checkout-7d9c5b8f6-k8w4d", record: true });
    // generateName does not match; name does, and the uid line does not hold it.
    expect(result.matches.map((m) => m.recordIndex)).toEqual([0]);
    expect(result.records?.[0]?.text).toContain("checkout:2.15.0-rc1");
    const both = await grepOutput(opened, {
      pattern: "x2x9q|10.42.0.17",
      regex: true,
      record: true,
    });
    expect(both.matches).toHaveLength(2);
    expect(both.matches.map((m) => m.recordIndex)).toEqual([0, 0]);
    expect(both.records).toHaveLength(1);
    const plain = await grepOutput(opened, { pattern: "x2x9q" });
    expect(plain.records).toBeUndefined();
    expect(plain.matches[0]?.recordIndex).toBeUndefined();
  });

  it("takes limits, and refuses a record argument of the wrong type", async () => {
    const opened = await openText(JSON.stringify(ORDERS, null, 2));
    const small = await grepOutput(opened, { pattern: "AUTH-22X2", record: { maxLines: 5 } });
    expect(small.records?.[0]?.clipped).toBeDefined();
    expect(small.records?.[0]?.text.split("\n").length).toBeLessThanOrEqual(5);
    const error = await grepOutput(opened, {
      pattern: "x",
      record: "yes" as unknown as boolean,
    }).catch((e: unknown) => e);
    expect(isSpillwayError(error, "INVALID_ARGUMENT")).toBe(true);
  });
});

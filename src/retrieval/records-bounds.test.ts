import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import type { BlobSource } from "../store/blob-source.js";
import type { OpenedOutput } from "../store/output-store.js";
import { expectExact, openText, recordOfMatch } from "./fixtures/record-harness.js";
import { recordAround } from "./records.js";

/** The opened output with a source that counts the bytes read through it. */
function counting(opened: OpenedOutput): { output: OpenedOutput; bytesRead: () => number } {
  let bytes = 0;
  const source: BlobSource = {
    get size() {
      return opened.source.size;
    },
    read: async (offset, length) => {
      const read = await opened.source.read(offset, length);
      bytes += read.byteLength;
      return read;
    },
    readInto: async (target, offset) => {
      const read = await opened.source.readInto(target, offset);
      bytes += read;
      return read;
    },
    close: () => opened.source.close(),
  };
  return { output: { ...opened, source }, bytesRead: () => bytes };
}

describe("records over the limits", () => {
  it("a 10,000-line JSON element shows 60 lines around the match and names the rest exactly", async () => {
    const values = Array.from({ length: 10_000 }, (_, i) => i * 7);
    const text = JSON.stringify({ items: [{ id: "big", values }, { id: "small" }] }, null, 2);
    const opened = await openText(text);
    for (const pattern of ['"id": "big"', "  49000,", "  69993"]) {
      const { record, line } = await recordOfMatch(opened, pattern);
      await expectExact(opened, text, record, line);
      expect(record).toMatchObject({ kind: "json-object", lineStart: 3, lineEnd: 10_007 });
      const shown = record.provenance.lineEnd - record.provenance.lineStart + 1;
      expect(shown).toBeLessThanOrEqual(60);
      expect(record.text.length).toBeLessThanOrEqual(4_000);
      expect(record.clipped?.omitted.length).toBeGreaterThan(0);
      expect(record.clipped?.omitted.every((p) => "lineStart" in p.slice)).toBe(true);
    }
    const small = await recordOfMatch(opened, '"id": "small"');
    expect(JSON.parse(small.record.text)).toEqual({ id: "small" });
  });

  it("a log entry with a 10,000-line trace is one record, its header line named", async () => {
    const frames = Array.from(
      { length: 10_000 },
      (_, i) => `\tat app.Layer${i}.call(Layer${i}.java:${i})`,
    );
    const text = [
      "2026-03-14 09:00:00,001 INFO boot",
      "2026-03-14 09:00:01,002 INFO ready",
      "2026-03-14 09:00:02,003 ERROR deep recursion",
      "java.lang.StackOverflowError: null",
      ...frames,
      "2026-03-14 09:00:03,004 INFO recovered",
    ].join("\n");
    const opened = await openText(text);
    const { record, line } = await recordOfMatch(opened, "Layer5000.call");
    await expectExact(opened, text, record, line);
    expect(record).toMatchObject({ kind: "log-entry", lineStart: 3, lineEnd: 10_004 });
    expect(record.clipped?.omitted[0]).toMatchObject({
      lineStart: 3,
      slice: { lineStart: 3, lineEnd: expect.any(Number) },
    });
  });

  it("a 50 MB minified JSON line: the element around the match, reading a few MB at most", async () => {
    const pad = "x".repeat(1_000);
    const count = 50_000;
    const parts: string[] = [];
    for (let i = 0; i < count; i++) parts.push(`{"id":"e${i}","pad":"${pad}","n":${i}}`);
    const text = `{"items":[${parts.join(",")}]}`;
    expect(text.length).toBeGreaterThan(50_000_000);
    const opened = await openText(text);
    const { output, bytesRead } = counting(opened);
    const at = text.indexOf('"id":"e31337"');
    const record = await recordAround(output, { line: 1, charOffset: at });
    expect(record).toMatchObject({ kind: "json-object", lineStart: 1, lineEnd: 1 });
    expect(JSON.parse(record.text)).toEqual({ id: "e31337", pad, n: 31337 });
    expect(record.text).toBe(text.slice(record.charStart, record.charEnd));
    expect(bytesRead()).toBeLessThan(8 * 1024 * 1024);
  });

  it("pretty JSON of 20 MB: the element around a match in the middle, reading well under 1 MB", async () => {
    const items = Array.from({ length: 80_000 }, (_, i) => ({
      id: `item-${i}`,
      owner: { name: `owner ${i % 97}`, tags: ["a", "b"] },
      note: "x".repeat(120),
    }));
    const text = JSON.stringify({ items }, null, 2);
    expect(text.length).toBeGreaterThan(20_000_000);
    const opened = await openText(text);
    const { output, bytesRead } = counting(opened);
    const at = text.indexOf('"id": "item-40123"');
    const line = text.slice(0, at).split("\n").length;
    const record = await recordAround(output, { line, charOffset: at });
    expect(record.kind).toBe("json-object");
    expect(JSON.parse(record.text.replace(/,$/, ""))).toEqual(items[40123]);
    expect(bytesRead()).toBeLessThan(1024 * 1024);
  });

  it("a 50 MB line of text: the characters around the match, the rest of the line named by character slices", async () => {
    const text = `${"lorem ipsum ".repeat(2_200_000)}NEEDLE-50${" dolor sit".repeat(2_500_000)}`;
    const opened = await openText(text);
    const { record, line } = await recordOfMatch(opened, "NEEDLE-50");
    await expectExact(opened, text, record, line);
    expect(record.kind).toBe("lines");
    expect(record.text).toContain("NEEDLE-50");
    expect(record.text.length).toBeLessThanOrEqual(4_000);
    expect(record.clipped?.omitted.map((p) => p.slice)).toEqual([
      { start: 0, length: record.provenance.charStart },
      { start: record.provenance.charEnd, length: text.length - record.provenance.charEnd },
    ]);
  });
});

describe("recordAround's arguments", () => {
  it("refuses a line or offset outside the output, naming what is valid", async () => {
    const opened = await openText("one\ntwo\nthree\n");
    for (const at of [
      { line: 0 },
      { line: 4 },
      { line: 2, charOffset: 0 },
      { line: 2, charOffset: 8 },
      { line: 3, charOffset: 99 },
    ]) {
      const error = await recordAround(opened, at).catch((e: unknown) => e);
      expect(isSpillwayError(error, "INVALID_RANGE")).toBe(true);
    }
    const limits = await recordAround(opened, { line: 1 }, { maxLines: 0 }).catch(
      (e: unknown) => e,
    );
    expect(isSpillwayError(limits, "INVALID_RANGE")).toBe(true);
  });

  it("refuses a binary output: records are read from text", async () => {
    const { store } = await tempStore();
    const stored = await store.put(origin(), new Uint8Array([0, 1, 2, 255]), { binary: true });
    const opened = await store.open(stored.id, SCOPE);
    const error = await recordAround(opened, { line: 1 }).catch((e: unknown) => e);
    await opened.close();
    expect(isSpillwayError(error, "UNSUPPORTED_KIND")).toBe(true);
  });
});

/** Lines of every shape the finders look for, with offsets that stress positions. */
const lineOf = fc.oneof(
  fc.constantFrom(
    "",
    "- name: web",
    "  image: nginx:1.25",
    "    - port: 80",
    '{"id":"a","v":[1,{"k":"}"}]}',
    '  "key": "value",',
    "  {",
    "  },",
    "2026-03-14T09:00:00Z INFO started",
    "\tat com.example.Main.run(Main.java:10)",
    "Caused by: java.io.IOException",
    "=========== FAILURES ===========",
    'a,b,"c, d"',
    "日本語のログ 😀",
    "x".repeat(300),
  ),
  fc.string({ unit: "grapheme", maxLength: 40 }),
);

describe("records, whatever the text", () => {
  it("always hold the match line and slice back exactly from their provenance", async () => {
    const { store } = await tempStore();
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineOf, { minLength: 1, maxLength: 120 }),
        fc.constantFrom("\n", "\r\n"),
        fc.nat(),
        fc.nat(),
        fc.record({
          maxLines: fc.integer({ min: 1, max: 12 }),
          maxChars: fc.integer({ min: 20, max: 600 }),
        }),
        async (lines, newline, linePick, charPick, limits) => {
          const text = lines.join(newline);
          const stored = await store.put(origin(), text);
          const opened = await store.open(stored.id, SCOPE);
          try {
            const canonical = text.toWellFormed();
            const total = stored.lineCount ?? 0;
            if (total === 0) return;
            const line = 1 + (linePick % total);
            const starts = [0];
            for (let i = canonical.indexOf("\n"); i !== -1; i = canonical.indexOf("\n", i + 1))
              starts.push(i + 1);
            const start = starts[line - 1]!;
            const end = (starts[line] ?? canonical.length + 1) - 1;
            // A grep match has a character on its line; an empty line has no range to cite.
            if (canonical.slice(start, end).replace(/\r$/, "") === "") return;
            const charOffset = start + (charPick % (end - start + 1));
            if (charOffset > start && /[\uDC00-\uDFFF]/.test(canonical[charOffset] ?? "")) return;
            const record = await recordAround(opened, { line, charOffset }, limits);
            await expectExact(opened, canonical, record, line);
            const shownLines = record.provenance.lineEnd - record.provenance.lineStart + 1;
            if (record.clipped) {
              expect(shownLines).toBeLessThanOrEqual(limits.maxLines);
              // A surrogate pair at a boundary widens the slice by one unit at most each side.
              expect(record.text.length).toBeLessThanOrEqual(limits.maxChars + 2);
            }
          } finally {
            await opened.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

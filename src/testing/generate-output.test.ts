import { describe, expect, it } from "vitest";
import { GENERATED_KINDS, generateBinary, generateOutputText } from "./generate-output.js";

describe("generateOutputText", () => {
  it.each(GENERATED_KINDS)(
    "hits the exact byte size for %s across sizes and needle positions",
    (kind) => {
      // A code record (an interface and its loader) is larger than 400 bytes on its own.
      const sizes =
        kind === "code" ? [1_500, 4_321, 65_536, 250_001] : [400, 1_000, 4_321, 65_536, 250_001];
      for (const bytes of sizes) {
        for (const needleAt of [0, 0.37, 1]) {
          const needle = 'needle ☃ "quoted", with comma';
          const output = generateOutputText({ bytes, kind, needle, needleAt, seed: bytes });
          expect(Buffer.byteLength(output.text)).toBe(bytes);
          expect(output.byteLength).toBe(bytes);
          const offset = output.needleByteOffset ?? -1;
          const before = Buffer.from(output.text).subarray(0, offset).toString("utf8");
          const planted =
            kind === "csv"
              ? '"needle ☃ ""quoted"", with comma"\n'
              : kind === "json"
                ? '"message": "needle ☃ \\"quoted\\", with comma"'
                : kind === "json-min"
                  ? '"message":"needle ☃ \\"quoted\\", with comma"'
                  : kind === "code"
                    ? 'logger.warn("needle ☃ \\"quoted\\", with comma"'
                    : `${needle}\n`;
          const record = output.text.slice(before.length, before.length + 1000);
          if (kind === "log" || kind === "cjk" || kind === "text")
            expect(record.startsWith(planted)).toBe(true);
          else expect(record).toContain(planted);
          // Within one record (plus the final filler) of where it was asked for.
          const recordSize = kind === "code" ? 1_500 : kind === "json" ? 900 : 450;
          expect(Math.abs(offset - needleAt * bytes)).toBeLessThan(recordSize);
          // The needle's line number matches its offset.
          expect(output.needleLine).toBe(before.split("\n").length);
        }
      }
    },
  );

  it("keeps minified JSON valid on one line, the needle a string field of one record", () => {
    const needle = 'tricky \\ "json" \n needle';
    const output = generateOutputText({ bytes: 100_000, kind: "json-min", needle });
    expect(output.text.includes("\n")).toBe(false);
    const document = JSON.parse(output.text) as { records: { message: string }[] };
    expect(document.records.filter((record) => record.message === needle)).toHaveLength(1);
  });

  it("streams the same content in blocks, with the same layout", async () => {
    const options = { bytes: 3_500_000, kind: "log" as const, needle: "FATAL disk full", seed: 9 };
    const whole = generateOutputText(options);
    const layout = { byteLength: 0, needleByteOffset: undefined, needleLine: undefined };
    const { generateOutputBlocks } = await import("./generate-output.js");
    const blocks = [...generateOutputBlocks(options, layout)];
    expect(blocks.length).toBeGreaterThan(2);
    expect(blocks.join("")).toBe(whole.text);
    expect(layout).toEqual({
      byteLength: whole.byteLength,
      needleByteOffset: whole.needleByteOffset,
      needleLine: whole.needleLine,
    });
  });

  it("keeps pretty JSON valid with the needle as a string field value", () => {
    const needle = 'tricky \\ "json" \n needle';
    const output = generateOutputText({ bytes: 200_000, kind: "json", needle, needleAt: 0.5 });
    const records = JSON.parse(output.text) as { id: number; message: string; tags: string[] }[];
    expect(records.filter((record) => record.message === needle)).toHaveLength(1);
    expect(records.length).toBeGreaterThan(500);
    expect(records.every((record) => Array.isArray(record.tags))).toBe(true);
    expect(output.text.startsWith('[\n  {\n    "id": 1,\n')).toBe(true);
  });

  it("writes CSV rows with the header's column count", () => {
    const output = generateOutputText({ bytes: 50_000, kind: "csv", needle: "plain-needle" });
    const lines = output.text.trimEnd().split("\n");
    const columns = (line: string) => line.replace(/"(?:[^"]|"")*"/g, "q").split(",").length;
    expect(lines[0]).toBe("id,timestamp,region,sku,quantity,unit_price_cents,status,note");
    expect(lines.every((line) => columns(line) === 8)).toBe(true);
    expect(lines.filter((line) => line.endsWith(",flagged,plain-needle"))).toHaveLength(1);
  });

  it("makes CJK text mostly of multi-byte characters, exact even with 3- and 4-byte characters", () => {
    for (const bytes of [1_000, 1_001, 1_002, 77_777]) {
      const output = generateOutputText({ bytes, kind: "cjk", seed: 3 });
      expect(Buffer.byteLength(output.text)).toBe(bytes);
      expect(output.text).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(output.text).toMatch(/\p{Extended_Pictographic}/u);
      expect(output.text).not.toContain("\ufffd");
    }
  });

  it("is deterministic by seed and varies between seeds", () => {
    const a = generateOutputText({ bytes: 30_000, kind: "text", seed: 11 }).text;
    expect(generateOutputText({ bytes: 30_000, kind: "text", seed: 11 }).text).toBe(a);
    expect(generateOutputText({ bytes: 30_000, kind: "text", seed: 12 }).text).not.toBe(a);
  });

  it("omits the needle offset without a needle and still returns the needle when the target is tiny", () => {
    expect(generateOutputText({ bytes: 5_000, kind: "log" }).needleByteOffset).toBeUndefined();
    const tiny = generateOutputText({ bytes: 10, kind: "json", needle: "N" });
    expect((JSON.parse(tiny.text) as { message: string }[])[0]?.message).toBe("N");
    expect(tiny.byteLength).toBeGreaterThan(10);
  });

  it("builds 100 MB in a few seconds", () => {
    const started = Date.now();
    const output = generateOutputText({
      bytes: 100_000_000,
      kind: "log",
      needle: "deep needle",
      needleAt: 0.75,
    });
    expect(output.byteLength).toBe(100_000_000);
    expect(output.text.indexOf("\ndeep needle\n")).toBeGreaterThan(74_000_000);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe("generateBinary", () => {
  it("starts with the PNG signature and is deterministic", () => {
    const a = generateBinary(1_000, 4);
    expect(a.length).toBe(1_000);
    expect(a.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(generateBinary(1_000, 4).equals(a)).toBe(true);
    expect(generateBinary(1_000, 5).equals(a)).toBe(false);
    expect(generateBinary(3).length).toBe(8);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createChunkLowerer, lowerAsciiInto } from "./chunk-lowerer.js";
import { foldText, queryTerms, termsOf } from "./search-terms.js";

/** The terms the general path gives: what ASCII text must give through its fast path too. */
function segmentedTerms(text: string): string[] {
  // A character no fast path accepts forces the segmenter path; it is not a word character.
  return termsOf(`${text}\u2028`);
}

describe("search terms", () => {
  it("separators, case and width never matter: BOOT-MARKER, boot_marker, Ｂｏｏｔ marker", () => {
    expect(termsOf("BOOT-MARKER-ALPHA")).toEqual(["boot", "marker", "alpha"]);
    expect(termsOf("boot_marker")).toEqual(["boot", "marker"]);
    expect(termsOf("boot.marker:boot/marker")).toEqual(["boot", "marker", "boot", "marker"]);
    expect(termsOf("Ｂｏｏｔ ＭＡＲＫＥＲ")).toEqual(["boot", "marker"]);
    expect(queryTerms("boot-marker", 32).terms).toEqual(queryTerms("boot_marker", 32).terms);
  });

  it("a camelCase word gives its parts and itself; a number glued to letters gives itself too", () => {
    expect(termsOf("bootMarker")).toEqual(["boot", "marker", "bootmarker"]);
    expect(termsOf("HTTPServer v2Api")).toEqual([
      "http",
      "server",
      "httpserver",
      "v2",
      "api",
      "v2api",
    ]);
    // Numbers of two digits or more; letter runs inside a word are not terms.
    expect(termsOf("req_7f3a9c01 NEEDLE-7f3a9c 14T08")).toEqual([
      "req",
      "01",
      "7f3a9c01",
      "needle",
      "7f3a9c",
      "14",
      "08",
      "14t08",
    ]);
    expect(termsOf("ipv6 ABC123def 500ms x12Yz")).toEqual([
      "ipv6",
      "123",
      "abc123def",
      "500",
      "500ms",
      "x12",
      "yz",
      "12",
      "x12yz",
    ]);
    expect(termsOf("起動14T09 ४२x")).toEqual([
      "起",
      "動",
      "起動",
      "14",
      "09",
      "14t09",
      "४२",
      "४२x",
    ]);
  });

  it("diacritics stay as written, NFKC folds compatibility forms, a final sigma is a sigma", () => {
    expect(termsOf("café cafe")).toEqual(["café", "cafe"]);
    // "e" + combining acute is the same word as the precomposed "é".
    expect(termsOf("cafe\u0301")).toEqual(["café"]);
    expect(termsOf("ﬁle ㎏")).toEqual(["file", "kg"]);
    expect(termsOf("ΟΔΟΣ")).toEqual(termsOf("οδοσ"));
    expect(foldText("İSTANBUL")).toBe("i̇stanbul");
  });

  it("CJK runs become character pairs; a line also gives each character alone", () => {
    expect(termsOf("起動マーカー", { forQuery: true })).toEqual([
      "起動",
      "動マ",
      "マー",
      "ーカ",
      "カー",
    ]);
    expect(termsOf("猫", { forQuery: true })).toEqual(["猫"]);
    const line = termsOf("猫が好き");
    expect(line).toEqual(expect.arrayContaining(["猫", "が", "好", "き", "猫が", "が好", "好き"]));
    // Mixed with Latin: each part by its own rule.
    expect(termsOf("サーバーのBOOT-7です", { forQuery: true })).toEqual([
      "サー",
      "ーバ",
      "バー",
      "ーの",
      "boot",
      "7",
      "です",
    ]);
    // Korean particles attach to nouns: pairs still find the noun.
    expect(termsOf("서버가 시작")).toEqual(expect.arrayContaining(["서버"]));
  });

  it("Thai is cut into words by Intl.Segmenter, the same in a query and in a sentence", () => {
    const sentence = "ระบบเริ่มทำงานแล้วและบันทึกข้อผิดพลาดไว้ในไฟล์";
    const query = termsOf("ข้อผิดพลาด", { forQuery: true });
    expect(query.length).toBeGreaterThan(0);
    for (const term of query) expect(termsOf(sentence)).toContain(term);
    expect(termsOf(sentence)).toContain("บันทึก");
  });

  it("queries drop common words and repeats, and say which", () => {
    expect(queryTerms("What is the boot marker? The BOOT marker!", 32)).toEqual({
      terms: ["boot", "marker"],
      ignored: ["what", "is", "the"],
      dropped: [],
    });
    expect(queryTerms("the customer's order", 32).terms).toEqual(["customer", "order"]);
    expect(queryTerms("a b c e", 2)).toEqual({ terms: ["b", "c"], ignored: ["a"], dropped: ["e"] });
  });

  it("a common word written in capitals among lower case is a name, and is searched for", () => {
    expect(queryTerms("the row with team Platform and region US", 32).terms).toEqual([
      "row",
      "team",
      "platform",
      "region",
      "us",
    ]);
    expect(queryTerms("who called us about IT", 32).terms).toEqual(["called", "about", "it"]);
    // A query in capitals alone says nothing by its case: its common words stay common.
    expect(queryTerms("WHAT IS THE BOOT MARKER", 32).terms).toEqual(["boot", "marker"]);
  });

  it("ASCII text takes a fast path that gives exactly what the segmenter gives", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary-ascii", maxLength: 60 }), (text) => {
        expect(termsOf(text)).toEqual(segmentedTerms(text));
      }),
      { numRuns: 500 },
    );
    const sample = "2026-03-14T08:00:00.033Z WARN [api-gateway] request_id=req_7fe7 don't a.b 3.14";
    expect(termsOf(sample)).toEqual(segmentedTerms(sample));
  });

  it("lowers ASCII letters (SIMD and script alike), leaving every other byte, and tells ASCII", () => {
    const simd = createChunkLowerer(80);
    const script = createChunkLowerer(80, false);
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 80 }),
        fc.uint8Array({ maxLength: 80 }),
        (bytes, before) => {
          const expected = Buffer.from(bytes.map((b) => (b >= 65 && b <= 90 ? b + 32 : b)));
          const ascii = bytes.every((b) => b < 0x80);
          for (const lowerer of [simd, script]) {
            // Whatever an earlier chunk left in the buffers must not leak into this one.
            lowerer.input.set(before.subarray(0, 80));
            lowerer.lower(before.length);
            lowerer.input.set(bytes);
            const result = lowerer.lower(bytes.length);
            expect(Buffer.from(result.lowered)).toEqual(expected);
            expect(result.ascii).toBe(ascii);
          }
        },
      ),
      { numRuns: 1000 },
    );
    const unaligned = Buffer.from("xBOOT-Marker\u00e9");
    const target = Buffer.alloc(unaligned.length + 1).subarray(1);
    expect(lowerAsciiInto(unaligned.subarray(1), target)).toBe(false);
    expect(target.toString("latin1", 0, 11)).toBe("boot-marker");
  });
});

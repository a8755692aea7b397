import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createChunkLowerer } from "./chunk-lowerer.js";
import { foldStable } from "./fold-stable.js";
import { scanByteChunk } from "./search-ascii.js";
import { SearchCorpus } from "./search-corpus.js";
import { queryTerms, termsOf } from "./search-terms.js";
import { ScanTerms, scanTextChunk } from "./search-text.js";

/** Pieces of text that exercise every rule: case, camelCase, letters against digits, separators, scripts, folding. */
const PIECES = [
  "boot",
  "BOOT",
  "Boot",
  "bootMarker",
  "HTTPServer",
  "7f3a9c",
  "v2Api",
  "14T09",
  "09",
  "26",
  "ab12",
  "A1b22C3",
  "x9Yz",
  "Ab",
  "٣٤x",
  "marker",
  "-",
  "_",
  " ",
  ".",
  "\r",
  "café",
  "CAFÉ",
  "cafe\u0301",
  "ＢＯＯＴ",
  "ﬁle",
  "ΟΔΟΣ",
  "起動",
  "マーカー",
  "ログ",
  "서버가",
  "ข้อผิดพลาด",
  "😀",
  "，",
  "\u3000",
  "⚠️",
  "①",
  "ß",
  "İ",
];

const line = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((parts) => parts.join(""));

/** What a scan must find: for each line, its terms counted with termsOf, the definition. */
function reference(lines: readonly string[], terms: readonly string[]) {
  const rows: { byteStart: number; chars: number; counts: number[] }[] = [];
  let byte = 0;
  for (const text of lines) {
    const body = text.endsWith("\r") ? text.slice(0, -1) : text;
    const all = termsOf(body);
    const counts = terms.map((term) => all.filter((t) => t === term).length);
    if (counts.some((c) => c > 0)) rows.push({ byteStart: byte, chars: body.length, counts });
    byte += Buffer.byteLength(text) + 1;
  }
  return rows;
}

/** The rows a scan kept, with the count of every term (read back through the scores' terms). */
function rowsOf(corpus: SearchCorpus, terms: readonly string[]) {
  return corpus
    .top(10_000)
    .sort((a, b) => a.byteStart - b.byteStart)
    .map((row) => ({
      byteStart: row.byteStart,
      chars: row.chars,
      terms: row.termIndexes.map((t) => terms[t]),
      score: row.score,
    }));
}

describe("search scan: the byte and text paths count what termsOf defines", () => {
  it("finds exactly the lines holding each term, whichever path a chunk takes", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), line, (lines, query) => {
        const { terms } = queryTerms(query, 32);
        if (terms.length === 0) return;
        const scan = new ScanTerms(terms);
        const chunk = Buffer.from(lines.join("\n"));
        const expected = reference(lines, terms).map((row) => ({
          byteStart: row.byteStart,
          chars: row.chars,
          terms: terms.filter((_, t) => row.counts[t]! > 0),
        }));
        const withoutScores = (rows: ReturnType<typeof rowsOf>) =>
          rows.map(({ score: _score, ...row }) => row);
        const place = { source: 0, byteStart: 0, window: false };
        const text = new SearchCorpus(terms, 10_000);
        scanTextChunk(chunk, place, text, scan);
        const textRows = rowsOf(text, terms);
        expect(withoutScores(textRows)).toEqual(expected);
        const lowerer = createChunkLowerer(Math.max(1, chunk.byteLength));
        lowerer.input.set(chunk);
        const { lowered, ascii } = lowerer.lower(chunk.byteLength);
        if (!ascii && !foldStable(chunk)) return;
        const bytes = new SearchCorpus(terms, 10_000);
        scanByteChunk(chunk, lowered, ascii, scan, place, bytes);
        // The same rows, and the same counts (so the same scores), on either path.
        expect(rowsOf(bytes, terms)).toEqual(textRows);
      }),
      { numRuns: 600 },
    );
  });

  it("judges chunks folded or not from their bytes (WebAssembly and JavaScript alike)", () => {
    const judged = (text: string) => {
      const bytes = Buffer.from(text);
      const answers = [true, false].map((useWasm) => {
        const lowerer = createChunkLowerer(bytes.byteLength + 1, useWasm);
        lowerer.input.set(bytes);
        return lowerer.stable(bytes.byteLength);
      });
      expect(answers).toEqual([foldStable(bytes), foldStable(bytes)]);
      return answers[0];
    };
    expect(judged("起動マーカーは BOOT-7 です。サーバー，缓存 ⚠️ 🚀")).toBe(true);
    expect(judged("서버 응답 시간")).toBe(true);
    expect(judged("café naïve 😀 ข้อ")).toBe(false); // Thai vowel signs are marks
    expect(judged("café naïve 😀")).toBe(true);
    expect(judged("ＢＯＯＴ")).toBe(false);
    expect(judged("CAFÉ")).toBe(false);
    expect(judged("cafe\u0301")).toBe(false);
    expect(judged("ﬁle")).toBe(false);
    expect(judged("㎏")).toBe(false);
    expect(judged("\u1100\u1161")).toBe(false); // jamo compose into 가
    expect(judged("οδος")).toBe(false); // a final sigma folds to σ
    expect(judged("𝐁𝐨𝐨𝐭")).toBe(false); // mathematical bold folds to ASCII
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (text) => {
        judged(text);
      }),
      { numRuns: 500 },
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { readSlice } from "./slice.js";

/**
 * Character slices of mostly-ASCII outputs: spans between index checkpoints that are all
 * single-byte are read without decoding what precedes the slice. Each slice must still equal
 * the original range, with exact byte offsets and lines, next to non-ASCII spans too.
 */
const line = fc.string({
  unit: fc.constantFrom("a", "b", " ", "=", "1", "\r"),
  minLength: 0,
  maxLength: 180,
});
const asciiHeavy = fc
  .tuple(
    fc.array(line, { minLength: 500, maxLength: 3000 }),
    fc.option(fc.constantFrom("é", "日本語", "😀", "\u2014"), { nil: undefined }),
    fc.double({ min: 0, max: 1, noNaN: true }),
  )
  .map(([lines, odd, at]) => {
    const text = `${lines.join("\n")}\n`;
    if (odd === undefined) return text;
    const cut = Math.floor(at * text.length);
    return text.slice(0, cut) + odd + text.slice(cut);
  });

describe("ASCII spans", () => {
  it("any character slice of a mostly-ASCII output equals the original range, with exact offsets and lines", async () => {
    const { store } = await tempStore();
    await fc.assert(
      fc.asyncProperty(
        asciiHeavy,
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 5000 })),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        async (text, reads) => {
          const record = await store.put(origin(), text);
          const opened = await store.open(record.id, SCOPE);
          try {
            for (const [where, length] of reads) {
              const start = Math.floor(where * text.length);
              const slice = await readSlice(opened, { start, length });
              if (!slice.found || slice.encoding !== "utf-8")
                throw new Error("text slice expected");
              const { provenance } = slice;
              const end = Math.min(text.length, start + length);
              const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
              expect(provenance.charStart === start || isLow(text.charCodeAt(start))).toBe(true);
              expect(provenance.charEnd === end || isLow(text.charCodeAt(end))).toBe(true);
              expect(slice.text).toBe(text.slice(provenance.charStart, provenance.charEnd));
              expect(provenance.byteStart).toBe(
                Buffer.byteLength(text.slice(0, provenance.charStart)),
              );
              expect(provenance.byteEnd).toBe(Buffer.byteLength(text.slice(0, provenance.charEnd)));
              // A position after the final newline names the last line: the output has no line
              // past it (provenance never reads "lines 501-501 of 500").
              const lineCount = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
              expect(provenance.lineStart).toBe(
                Math.min(text.slice(0, provenance.charStart).split("\n").length, lineCount),
              );
              if (slice.text.length > 0)
                expect(provenance.lineEnd).toBe(
                  text.slice(0, provenance.charEnd - 1).split("\n").length,
                );
            }
          } finally {
            await opened.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinText, stringifyWithStreams, type TextStream } from "./text-stream.js";

/** A stream of `text` in pieces of `size` characters that never split a surrogate pair. */
function streamOf(text: string, size: number): TextStream & { released: boolean } {
  return {
    byteLength: Buffer.byteLength(text),
    released: false,
    async *chunks() {
      let at = 0;
      while (at < text.length) {
        let end = Math.min(text.length, at + size);
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
        yield text.slice(at, end);
        at = end;
      }
    },
    async release() {
      this.released = true;
    },
  };
}

async function collect(pieces: AsyncIterable<string>): Promise<string> {
  let out = "";
  for await (const piece of pieces) out += piece;
  return out;
}

/** Replaces every string of at least 3 characters by a stream of it. */
function streamed(value: unknown, size: number): unknown {
  if (typeof value === "string") return value.length >= 3 ? streamOf(value, size) : value;
  if (Array.isArray(value)) return value.map((item) => streamed(item, size));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, streamed(v, size)]));
  }
  return value;
}

describe("stringifyWithStreams", () => {
  it("writes exactly JSON.stringify's text, long strings read from their streams", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 3 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom(0, 2),
        async (value, size, indent) => {
          const text = await collect(stringifyWithStreams(streamed(value, size), indent));
          expect(text).toBe(JSON.stringify(value, null, indent));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("escapes lone surrogates and control characters as JSON.stringify does", async () => {
    const value = { s: 'a\ud800b\u0001c😀"\\', t: ["\udc00x"] };
    const text = await collect(stringifyWithStreams(streamed(value, 1), 2));
    expect(text).toBe(JSON.stringify(value, null, 2));
  });
});

describe("joinText", () => {
  it("joins strings and streams with the separator", async () => {
    expect(await collect(joinText(["a", streamOf("bcd", 2), ""], "\n"))).toBe("a\nbcd\n");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeWtf8, isSpillToken, type SpilledText, takeSpilled } from "./spilled-text.js";
import { StreamingJsonParser, StreamParseError } from "./stream-parser.js";

/** Replaces spill tokens by their texts, read back from their files (and releases them). */
async function materialize(value: unknown): Promise<unknown> {
  if (isSpillToken(value)) {
    const spilled = takeSpilled(value) as SpilledText;
    const text = await spilled.text();
    await spilled.release();
    return text;
  }
  if (Array.isArray(value)) return Promise.all(value.map(materialize));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: await materialize(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function parseInPieces(json: string, cuts: number[], spillOver: number): unknown {
  const bytes = Buffer.from(json, "utf8");
  const parser = new StreamingJsonParser(spillOver, undefined, decodeWtf8);
  let at = 0;
  for (const cut of [
    ...cuts.map((c) => Math.floor(c * bytes.length)).sort((a, b) => a - b),
    bytes.length,
  ]) {
    if (cut > at) parser.push(bytes.subarray(at, cut));
    at = Math.max(at, cut);
  }
  return parser.end();
}

/** JSON text whose strings hold escapes, astral characters and lone surrogates (as escapes). */
const jsonText = fc
  .jsonValue({ maxDepth: 4 })
  .chain((value) =>
    fc.constantFrom(
      JSON.stringify(value),
      JSON.stringify(value, null, 2),
      JSON.stringify({ __proto__text: value, s: "a\\ud800b\\udc00c\\ud83d\\ude00" }),
    ),
  );

describe("StreamingJsonParser", () => {
  it("parses exactly what JSON.parse does, however the bytes are cut, spilled or not", async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonText,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        fc.constantFrom(0, 3, 64, 1 << 20),
        async (json, cuts, spillOver) => {
          const parsed = parseInPieces(json, cuts, spillOver);
          expect(await materialize(parsed)).toEqual(JSON.parse(json));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps lone surrogates and pairs as JSON.parse does, in memory and in files", async () => {
    const json = '{"a":"x\\ud800y","b":"\\ud83d\\ude00","c":"\\udc00","d":"é😀\\n"}';
    for (const spillOver of [0, 1 << 20]) {
      expect(await materialize(parseInPieces(json, [0.3, 0.5], spillOver))).toEqual(
        JSON.parse(json),
      );
    }
  });

  it('makes "__proto__" an own key, never the prototype', () => {
    const value = parseInPieces('{"__proto__":{"polluted":1},"ok":true}', [0.5], 1 << 20) as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });

  it.each([
    '{"a":1',
    '{"a":tru}',
    '{"a" 1}',
    "[1,2]]",
    '"abc',
    '{"a":"\\x"}',
    "[1 2]",
    '{"a":1,}',
    "[1,]",
    '{"a":1 "b":2}',
    "[,1]",
  ])("refuses %s", (json) => {
    expect(() => parseInPieces(json, [], 4)).toThrow(StreamParseError);
  });
});

import { describe, expect, it } from "vitest";
import { base32, looksLikeOutputId, randomId } from "./ids.js";

describe("ids", () => {
  it("encodes base32 without ambiguous letters", () => {
    expect(base32(new Uint8Array([0]))).toBe("00");
    expect(base32(new Uint8Array([255, 255]))).toBe("zzzg");
    expect(base32(new Uint8Array(16).fill(0xaa))).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it("makes 128-bit random handles", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => randomId("out")));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(looksLikeOutputId(id)).toBe(true);
    expect(looksLikeOutputId("out_../../etc")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { clipText } from "./clip-text.js";

describe("clipText", () => {
  it("leaves short text alone", () => {
    expect(clipText("short", 10)).toBe("short");
    expect(clipText("short", 5, { sayLength: true })).toBe("short");
  });
  it("keeps a column's width with a single ellipsis", () => {
    const clipped = clipText("a long line of text", 6);
    expect(clipped).toBe("a lon…");
    expect(clipped.length).toBe(6);
  });
  it("says the whole length when asked", () => {
    expect(clipText("a long line of text", 6, { sayLength: true })).toBe("a long… (19 chars)");
  });
  it("never splits a surrogate pair", () => {
    const clipped = clipText("ab😀cd", 3, { sayLength: true });
    expect(clipped.isWellFormed()).toBe(true);
    expect(clipped).toBe("ab… (6 chars)");
  });
});

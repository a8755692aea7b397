import { describe, expect, it } from "vitest";
import { clipAround, clipText } from "./clip-text.js";

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

describe("clipAround", () => {
  it("keeps a short text whole", () => {
    expect(clipAround("short", 2, 10)).toBe("short");
  });
  it("centres the excerpt on the focus and marks both cuts", () => {
    expect(clipAround("aaaa KEY bbbb", 6, 3)).toBe("…KEY…");
  });
  it("keeps the start or the end whole when the focus is near it", () => {
    expect(clipAround("KEY and then a long tail", 0, 5)).toBe("KEY a…");
    expect(clipAround("a long head and then KEY", 23, 5)).toBe("…n KEY");
  });
  it("never splits a surrogate pair", () => {
    const text = `${"x".repeat(10)}😀${"y".repeat(10)}`;
    for (let max = 2; max < 20; max++) {
      for (let focus = 0; focus < text.length; focus++) {
        const cut = clipAround(text, focus, max).replaceAll("…", "");
        expect(text.includes(cut)).toBe(true);
        expect(
          /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(cut),
        ).toBe(false);
      }
    }
  });
});

import { describe, expect, it } from "vitest";
import { argumentsWithBackslashes, restoredBackslashes } from "./misescaped-backslash.js";

describe("backslashes a model's JSON lost (SW-67)", () => {
  it("puts back a backspace as \\b and a form feed as \\f", () => {
    expect(restoredBackslashes("CORP\bokafor")).toBe("CORP\\bokafor");
    expect(restoredBackslashes("\\bword\b and C:\foo")).toBe("\\bword\\b and C:\\foo");
  });

  it("leaves every other character alone, tabs and line ends included", () => {
    const text = "a\tb\nc\r\\n é 日本 \u0007";
    expect(restoredBackslashes(text)).toBe(text);
  });

  it("restores strings anywhere in the arguments, keys included", () => {
    const args = {
      report: "CORP\bhaddad",
      nested: { list: ["x", "\fy"], n: 2, ok: true, none: null },
    };
    expect(argumentsWithBackslashes(args)).toEqual({
      report: "CORP\\bhaddad",
      nested: { list: ["x", "\\fy"], n: 2, ok: true, none: null },
    });
    expect(argumentsWithBackslashes({ "k\b": 1 })).toEqual({ "k\\b": 1 });
  });

  it("returns the same object when nothing needs restoring", () => {
    const args = { pattern: "ERROR", slice: { line_start: 1 }, modes: ["a"] };
    expect(argumentsWithBackslashes(args)).toBe(args);
    expect(argumentsWithBackslashes(undefined)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { keywordsAsKeys, parseToolArguments } from "./tool-arguments.js";

describe("tool arguments", () => {
  it("reads keyword arguments inside a JSON object as the keys they stand for", () => {
    expect(parseToolArguments('{"id": "out_1", "mode": "grep", pattern="key", context=2}')).toEqual(
      {
        ok: true,
        value: { id: "out_1", mode: "grep", pattern: "key", context: 2 },
        repaired: '{"id": "out_1", "mode": "grep", "pattern":"key", "context":2}',
      },
    );
    const slice = parseToolArguments(
      '{"id": "out_1", "mode": "slice", slice={"line_start": 185, "line_end": 205}}',
    );
    expect(slice).toMatchObject({
      ok: true,
      value: { id: "out_1", mode: "slice", slice: { line_start: 185, line_end: 205 } },
    });
    // Any script in the values, and a keyword first.
    expect(parseToolArguments('{pattern="コード", "context": 2}')).toMatchObject({
      ok: true,
      value: { pattern: "コード", context: 2 },
    });
  });

  it("leaves valid JSON as it is, '=' inside strings included", () => {
    const text = '{"pattern": "a=b, c=d", "query": "x == y"}';
    expect(parseToolArguments(text)).toEqual({
      ok: true,
      value: { pattern: "a=b, c=d", query: "x == y" },
    });
    expect(keywordsAsKeys('{"pattern": "{x=1, y=2}", "e": "\\", k=3"}')).toBeUndefined();
    expect(parseToolArguments("  ")).toEqual({ ok: true, value: {} });
  });

  it("keeps the JSON error when reading keywords as keys does not make JSON", () => {
    const broken = parseToolArguments('{"id": "out_1", pattern=key}');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.reason).toMatch(/JSON/);
    const comparison = parseToolArguments('{"id": "out_1", a==2}');
    expect(comparison.ok).toBe(false);
    expect(parseToolArguments('{"id": "out_1" "mode": "grep"}').ok).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { innerQuotesEscaped, keywordsAsKeys, parseToolArguments } from "./tool-arguments.js";

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

  it("reads a string value's own unescaped quotes and line breaks as part of it", () => {
    const line =
      '10.0.0.1 - - [11/May/2026:07:09:28 +0000] "GET /api HTTP/1.1" 502 559 "-" "curl/8.5.0"';
    const report = parseToolArguments(`{"report": "The first 502: ${line} at 07:09:28."}`);
    expect(report).toMatchObject({
      ok: true,
      value: { report: `The first 502: ${line} at 07:09:28.` },
    });
    // A quoted CSV field, a value in another script, a query naming a quoted title, and a
    // line break written as it is.
    expect(
      parseToolArguments('{"report": "SHP-1,lost,"two parcels, one label". Shipped in May."}'),
    ).toMatchObject({
      ok: true,
      value: { report: 'SHP-1,lost,"two parcels, one label". Shipped in May.' },
    });
    expect(
      parseToolArguments(
        '{"id": "out_1", "mode": "search", "query": "the test "caches the rate"", "max_results": 5}',
      ),
    ).toMatchObject({
      ok: true,
      value: { id: "out_1", mode: "search", query: 'the test "caches the rate"', max_results: 5 },
    });
    expect(parseToolArguments('{"report": "担当: "吉田"\nline 2"}')).toMatchObject({
      ok: true,
      value: { report: '担当: "吉田"\nline 2' },
    });
    expect(parseToolArguments('{"report": "one\ntwo"}')).toEqual({
      ok: true,
      value: { report: "one\ntwo" },
      repaired: '{"report": "one\\ntwo"}',
    });
    // With a keyword argument as well.
    expect(parseToolArguments('{"id": "out_1", pattern="say "hi"", context=2}')).toMatchObject({
      ok: true,
      value: { id: "out_1", pattern: 'say "hi"', context: 2 },
    });
    // Arrays: a quote before the next element ends the value.
    expect(innerQuotesEscaped('{"words": ["a "b" c", "d"]}')).toBe(
      '{"words": ["a \\"b\\" c", "d"]}',
    );
  });

  it("escapes nothing in valid JSON and keeps the error when escaping does not make JSON", () => {
    expect(innerQuotesEscaped('{"report": "a \\"quoted\\" word", "n": [1, "x"]}')).toBeUndefined();
    // A quote before what reads as the next member ends the value: two members are read.
    const ambiguous = parseToolArguments('{"report": "see "a", "b": 1}');
    expect(ambiguous).toMatchObject({ ok: true, value: { report: 'see "a', b: 1 } });
    const broken = parseToolArguments('{"report": "an unterminated value}');
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.reason).toMatch(/JSON/);
    expect(parseToolArguments('{"report" "no colon"}').ok).toBe(false);
  });
});

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { onCleanup, openText, origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError, SpillwayError } from "../core/errors.js";
import { countTokens } from "../core/tokens.js";
import { grepOutput } from "./grep.js";
import { queryJson } from "./json.js";
import { readPage } from "./page.js";
import { readRaw } from "./raw.js";
import { readOutput } from "./read-output.js";
import { RegexRunner } from "./regex-runner.js";
import { readSlice } from "./slice.js";

async function errorOf(promise: Promise<unknown>): Promise<SpillwayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SpillwayError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

function logLines(count: number, special: Record<number, string> = {}): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(special[i] ?? `2026-01-01T00:00:00Z INFO worker-${i % 7} request ${i} ok`);
  }
  return `${lines.join("\n")}\n`;
}

describe("a single 20 MB line", () => {
  it("slices, greps and pages it without reading it whole", async () => {
    const line = `${"abcdefghij".repeat(1_000_000)}NEEDLE${"klmnopqrst".repeat(1_000_000)}`;
    const { opened, record } = await openText(line);
    expect(record.lineCount).toBe(1);
    const slice = await readSlice(opened, { start: 15_000_000, length: 20 });
    expect(slice.found && slice.text).toBe(line.slice(15_000_000, 15_000_020));
    const grep = await grepOutput(opened, { pattern: "NEEDLE" });
    expect(grep.matches).toHaveLength(1);
    const match = grep.matches[0]!;
    expect(match).toMatchObject({
      line: 1,
      column: 10_000_001,
      matchCharStart: 10_000_000,
      clipped: true,
    });
    expect(match.text.length).toBeLessThanOrEqual(500);
    expect(match.text).toContain("NEEDLE");
    expect(match.text).toBe(line.slice(match.provenance.charStart, match.provenance.charEnd));
    const page = await readPage(opened, { cursor: 9_999_990, maxChars: 30 });
    expect(page.text).toBe(line.slice(9_999_990, 10_000_020));
    const lines = await errorOf(readSlice(opened, { lineStart: 1, maxChars: 1_000_000 }));
    expect(lines.code).toBe("RANGE_TOO_LARGE");
    expect(lines.message).toContain("page from cursor 0");
  });
});

describe("slice", () => {
  it("reads lines across index checkpoints, with CRLF kept", async () => {
    const text = logLines(5000, { 2047: "line 2048 crlf\r", 4999: "last line" }).replace(
      "\n",
      "\r\n",
    );
    const { opened } = await openText(text);
    const expected = text.match(/[^\n]*\n|[^\n]+$/g)!;
    for (const [first, last] of [
      [1, 1],
      [1024, 1026],
      [2048, 2049],
      [4999, 5000],
    ] as const) {
      const slice = await readSlice(opened, { lineStart: first, lineEnd: last });
      expect(slice.found && slice.text).toBe(expected.slice(first - 1, last).join(""));
    }
    const clamped = await readSlice(opened, { lineStart: 4999, lineEnd: 99_999 });
    expect(clamped.found && clamped.encoding === "utf-8" && clamped.provenance.lineEnd).toBe(5000);
    expect((await errorOf(readSlice(opened, { lineStart: 5001 }))).code).toBe("INVALID_RANGE");
    expect((await errorOf(readSlice(opened, { lineStart: 0 }))).code).toBe("INVALID_RANGE");
  });

  it("finds anchors at the very start and end, the n-th occurrence, and says when there is none", async () => {
    const text = `START middle MARK one MARK two MARK END`;
    const { opened } = await openText(text);
    const start = await readSlice(opened, { anchor: "START", window: 3 });
    expect(start).toMatchObject({ found: true, text: "START mi" });
    const end = await readSlice(opened, { anchor: "END", window: 4 });
    expect(end).toMatchObject({ found: true, text: "ARK END" });
    const second = await readSlice(opened, { anchor: "MARK", matchIndex: 1, window: 2 });
    expect(second).toMatchObject({
      found: true,
      text: "e MARK t",
      anchor: { matchIndex: 1, occurrences: 3, anchorCharStart: text.indexOf("MARK two") },
    });
    const missing = await readSlice(opened, { anchor: "MARK", matchIndex: 3 });
    expect(missing).toMatchObject({ found: false, occurrences: 3 });
    const absent = await readSlice(opened, { anchor: "nowhere" });
    expect(absent).toMatchObject({ found: false, occurrences: 0 });
  });

  it("never splits a surrogate pair and reports the widened range", async () => {
    const text = "ab😀cd";
    const { opened } = await openText(text);
    const slice = await readSlice(opened, { start: 3, length: 1 });
    expect(slice).toMatchObject({
      text: "😀",
      provenance: { charStart: 2, charEnd: 4, byteStart: 2, byteEnd: 6 },
    });
    const cjk = await openText("日本語のテキスト");
    const part = await readSlice(cjk.opened, { start: 2, length: 3 });
    expect(part).toMatchObject({ text: "語のテ", provenance: { byteStart: 6, byteEnd: 15 } });
  });

  it("rejects mixed addressing and out-of-range offsets with the argument's name", async () => {
    const { opened } = await openText("hello");
    const mixed = await errorOf(readSlice(opened, { start: 0, lineStart: 1 }));
    expect(mixed.code).toBe("INVALID_ARGUMENT");
    expect(mixed.message).toContain("lineStart/lineEnd");
    const beyond = await errorOf(readSlice(opened, { start: 6 }));
    expect(beyond.code).toBe("INVALID_RANGE");
    expect(beyond.details).toMatchObject({ argument: "start", value: 6, valid: "0..5" });
    expect((await errorOf(readSlice(opened, { start: -1 }))).code).toBe("INVALID_RANGE");
    expect((await errorOf(readSlice(opened, { start: 1.5 }))).code).toBe("INVALID_ARGUMENT");
    expect((await errorOf(readSlice(opened, { length: 10, maxChars: 5 }))).code).toBe(
      "RANGE_TOO_LARGE",
    );
  });
});

describe("raw", () => {
  it("returns small outputs whole and refuses large ones with sizes and modes", async () => {
    const { opened } = await openText("x".repeat(5000));
    expect((await readRaw(opened, { maxChars: 5000 })).text).toHaveLength(5000);
    const error = await errorOf(readRaw(opened, { maxChars: 4999 }));
    expect(error.code).toBe("OUTPUT_TOO_LARGE");
    expect(error.details).toMatchObject({
      charCount: 5000,
      byteSize: 5000,
      limit: 4999,
      modes: ["slice", "grep", "page"],
    });
  });
});

describe("grep", () => {
  it("returns context lines, counts every match, and continues from the cursor", async () => {
    const special: Record<number, string> = {};
    for (let i = 100; i < 3000; i += 100) special[i] = `2026-01-01T00:00:00Z ERROR failure #${i}`;
    const text = logLines(3000, special);
    const { opened } = await openText(text);
    const first = await grepOutput(opened, { pattern: "ERROR", context: 1, maxMatches: 10 });
    expect(first.matches.map((m) => m.line)).toEqual([
      101, 201, 301, 401, 501, 601, 701, 801, 901, 1001,
    ]);
    expect(first.totalMatches).toBe(29);
    expect(first.moreMatches).toBe(true);
    expect(first.matches[0]!.before.map((l) => l.line)).toEqual([100]);
    expect(first.matches[0]!.after[0]!.text).toBe(
      "2026-01-01T00:00:00Z INFO worker-3 request 101 ok",
    );
    const next = await grepOutput(opened, {
      pattern: "ERROR",
      cursor: first.nextCursor!,
      maxMatches: 100,
    });
    expect(next.matches[0]!.line).toBe(1101);
    expect(next.matches).toHaveLength(19);
    expect(next).toMatchObject({ moreMatches: false, nextCursor: null, totalMatches: 19 });
  });

  it("matches case-insensitively and by regular expression", async () => {
    const { opened } = await openText("alpha\nBeta error\ngamma\nERROR: disk\n");
    const insensitive = await grepOutput(opened, { pattern: "error", ignoreCase: true });
    expect(insensitive.matches.map((m) => [m.line, m.column, m.match])).toEqual([
      [2, 6, "error"],
      [4, 1, "ERROR"],
    ]);
    const regex = await grepOutput(opened, { pattern: "^[a-z]+a$", regex: true });
    expect(regex.matches.map((m) => m.text)).toEqual(["alpha", "gamma"]);
  });

  it("stops a catastrophic pattern at its deadline instead of hanging", async () => {
    const { opened } = await openText(`${"a".repeat(40)}!\n`);
    const runner = new RegexRunner();
    try {
      const started = Date.now();
      const error = await errorOf(
        grepOutput(opened, { pattern: "(a+)+$", regex: true, timeoutMs: 300 }, runner),
      );
      expect(error.code).toBe("PATTERN_TIMEOUT");
      // The deadline covers the whole call, so the regex part gets what reading left of the 300 ms
      // (all of it on an idle machine; less under load, which once failed an exact 300 here).
      expect(error.details).toMatchObject({ pattern: "(a+)+$" });
      const left = (error.details as { timeoutMs?: number }).timeoutMs;
      if (left !== undefined) expect(left).toBeLessThanOrEqual(300);
      expect(Date.now() - started).toBeLessThan(5000);
      // The runner recovers with a fresh worker.
      const ok = await grepOutput(opened, { pattern: "a{3}!", regex: true }, runner);
      expect(ok.matches).toHaveLength(1);
    } finally {
      await runner.close();
    }
  });

  it("names an invalid pattern and the reason", async () => {
    const { opened } = await openText("text\n");
    const error = await errorOf(grepOutput(opened, { pattern: "(unclosed", regex: true }));
    expect(error.code).toBe("INVALID_PATTERN");
    expect(error.message).toContain("(unclosed");
    expect((await errorOf(grepOutput(opened, { pattern: "" }))).code).toBe("INVALID_ARGUMENT");
  });
});

describe("page", () => {
  it("keeps token pages within budget and prefers line ends", async () => {
    const text = logLines(2000);
    const { opened } = await openText(text);
    let cursor: number | null = 0;
    let rebuilt = "";
    while (cursor !== null) {
      const page = await readPage(opened, { cursor, maxTokens: 500 });
      if (page.encoding !== "utf-8") throw new Error("text expected");
      expect(page.tokens).toBeLessThanOrEqual(500);
      expect(page.tokens).toBe(await countTokens(page.text));
      if (page.nextCursor !== null) {
        expect(page.text.endsWith("\n")).toBe(true);
        expect(page.tokens).toBeGreaterThan(300);
      }
      rebuilt += page.text;
      cursor = page.nextCursor;
    }
    expect(rebuilt).toBe(text);
  });
});

describe("binary outputs", () => {
  it("reads byte ranges and pages as base64 and refuses text modes", async () => {
    const { store } = await tempStore();
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 37) % 256));
    const record = await store.put(origin(), bytes, { binary: true });
    const opened = await store.open(record.id, SCOPE);
    onCleanup(() => opened.close());
    const slice = await readSlice(opened, { start: 10, length: 6 });
    expect(slice.found && Buffer.from(slice.text, "base64")).toEqual(bytes.subarray(10, 16));
    let cursor: number | null = 0;
    const parts: Buffer[] = [];
    while (cursor !== null) {
      const page = await readPage(opened, { cursor, maxChars: 400 });
      parts.push(Buffer.from(page.text, "base64"));
      cursor = page.nextCursor;
    }
    expect(Buffer.concat(parts)).toEqual(bytes);
    expect((await errorOf(grepOutput(opened, { pattern: "x" }))).code).toBe("UNSUPPORTED_KIND");
    expect((await errorOf(readSlice(opened, { lineStart: 1 }))).code).toBe("UNSUPPORTED_KIND");
  });
});

describe("json", () => {
  const doc = {
    meta: { version: "2.1", generated: "2026-01-01" },
    items: Array.from({ length: 3000 }, (_, i) => ({
      id: i,
      status: i % 1000 === 7 ? "failed" : "ok",
      tags: ["a"],
    })),
  };

  it("outlines a document's shape in a few hundred tokens", async () => {
    const { opened, record } = await openText(JSON.stringify(doc, null, 2));
    expect(record.kind).toBe("json");
    const result = await queryJson(opened, { outline: true });
    if (result.kind !== "outline") throw new Error("outline expected");
    expect(result.outline).toContain(".items: array[3000] of object");
    expect(result.outline).toContain(".id: number 0..2999");
    expect(await countTokens(result.outline)).toBeLessThan(300);
  });

  it("gives a string key's first value unless asked not to; its only value either way", async () => {
    const { opened } = await openText(
      JSON.stringify({ kind: "export", items: [{ status: "ok" }, { status: "failed" }] }),
    );
    const withValues = await queryJson(opened, { outline: true });
    const without = await queryJson(opened, { outline: true, outlineFirstValues: false });
    if (withValues.kind !== "outline" || without.kind !== "outline")
      throw new Error("outline expected");
    expect(withValues.outline).toContain('.status: string, first value "ok"');
    expect(without.outline).toMatch(/\.status: string$/m);
    expect(without.outline).not.toContain('"ok"');
    // A key with one string value in the whole document says it: that is no record's position.
    expect(without.outline).toContain('.kind: string "export"');
  });

  it("queries with JSONPath, returns paths, and pages through matches", async () => {
    const { opened } = await openText(JSON.stringify(doc));
    const failed = await queryJson(opened, {
      query: "$.items[?(@.status=='failed')].id",
      maxResults: 2,
    });
    expect(failed).toMatchObject({
      kind: "query",
      totalMatches: 3,
      nextOffset: 2,
      matches: [
        { path: "$['items'][7]['id']", pointer: "/items/7/id", value: 7 },
        { path: "$['items'][1007]['id']", value: 1007 },
      ],
    });
    const rest = await queryJson(opened, { query: "$.items[?(@.status=='failed')].id", offset: 2 });
    expect(rest).toMatchObject({ matches: [{ value: 2007 }], nextOffset: null });
    for (const query of ["$..[?(@.x>", "$.items[", "$.items.", "items[0]", "$['a", "$.a]"]) {
      expect((await errorOf(queryJson(opened, { query }))).code, query).toBe("INVALID_QUERY");
    }
    expect((await errorOf(queryJson(opened, { query: "$.items", maxChars: 1000 }))).code).toBe(
      "RANGE_TOO_LARGE",
    );
  });

  it("queries NDJSON as records and names their lines", async () => {
    const lines = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({ n: i, level: i === 42 ? "error" : "info" }),
    );
    const { opened, record } = await openText(`${lines.join("\n")}\n`);
    expect(record.kind).toBe("ndjson");
    const result = await queryJson(opened, { query: "$[?(@.level=='error')]" });
    expect(result).toMatchObject({ matches: [{ value: { n: 42, level: "error" }, line: 43 }] });
  });

  it("explains text that is not JSON", async () => {
    const { opened } = await openText("not json at all\n");
    const error = await errorOf(queryJson(opened, { outline: true }));
    expect(error.code).toBe("INVALID_JSON");
    expect(error.message).toContain("grep");
  });
});

describe("readOutput", () => {
  it("dispatches by mode, counts the read, and rejects unknown modes", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), "a\nb\n");
    const result = await readOutput(store, record.id, SCOPE, { mode: "slice", lineStart: 2 });
    expect(result.found && result.text).toBe("b\n");
    const unknown = await errorOf(readOutput(store, record.id, SCOPE, { mode: "bogus" } as never));
    expect(unknown.code).toBe("INVALID_ARGUMENT");
    expect(unknown.message).toContain("raw, slice, grep, page, json");
    expect((await store.get(record.id, SCOPE)).readCount).toBe(1);
    expect(isSpillwayError(unknown)).toBe(true);
  });

  it("provenance lets a caller verify a read against the whole output's hash", async () => {
    const { store } = await tempStore();
    const text = logLines(100);
    const record = await store.put(origin(), text);
    const slice = await readOutput(store, record.id, SCOPE, {
      mode: "slice",
      start: 100,
      length: 50,
    });
    if (!slice.found || slice.encoding !== "utf-8") throw new Error("text expected");
    expect(slice.provenance.sha256).toBe(createHash("sha256").update(text).digest("hex"));
    expect(text.slice(slice.provenance.charStart, slice.provenance.charEnd)).toBe(slice.text);
  });
});

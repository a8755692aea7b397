import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { grepOutput } from "./grep.js";
import { queryJson } from "./json.js";
import { readPage } from "./page.js";
import { readRaw } from "./raw.js";
import { type RetrievalRequest, readOutput } from "./read-output.js";
import { readSlice } from "./slice.js";

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function storedText() {
  const { store } = await tempStore();
  const text = Array.from({ length: 50 }, (_, i) => `line ${i} {"id": ${i}}`).join("\n");
  const record = await store.put(origin(), text);
  return { store, id: record.id };
}

async function storedJson() {
  const { store } = await tempStore();
  const record = await store.put(origin(), JSON.stringify({ items: [{ id: 1 }, { id: 2 }] }));
  return { store, id: record.id };
}

describe("retrieval requests are checked at the library boundary", () => {
  it.each([
    ["a BigInt start", { mode: "slice", start: 10n }, "request.start"],
    ["a numeric anchor", { mode: "slice", anchor: 42 }, "request.anchor"],
    ["a NaN length", { mode: "slice", length: Number.NaN }, "request.length"],
    ["an Infinity window", { mode: "slice", anchor: "x", window: Infinity }, "request.window"],
    ["a fractional lineStart", { mode: "slice", lineStart: 1.5 }, "request.lineStart"],
    ["a huge cursor", { mode: "page", cursor: 1e300 }, "request.cursor"],
    ["a numeric pattern", { mode: "grep", pattern: 7 }, "request.pattern"],
    ["a string regex flag", { mode: "grep", pattern: "x", regex: "yes" }, "request.regex"],
    [
      "an unknown tokenizer",
      { mode: "page", maxTokens: 9, tokenizer: "gpt2" },
      "request.tokenizer",
    ],
    ["a misspelled key", { mode: "slice", linestart: 3 }, "request"],
    ["a __proto__ key", JSON.parse('{"mode":"raw","__proto__":{"x":1}}'), "request"],
    ["an unknown mode", { mode: "tail" }, "request.mode"],
    ["a null request", null, "request"],
    ["a string request", "raw", "request"],
  ])("%s is INVALID_ARGUMENT naming the argument", async (_label, request, argument) => {
    const { store, id } = await storedText();
    const error = await errorOf(readOutput(store, id, SCOPE, request as RetrievalRequest));
    expect(isSpillwayError(error, "INVALID_ARGUMENT"), String(error)).toBe(true);
    expect((error as { details: { argument: string } }).details.argument).toBe(argument);
    // Nothing was counted as a read.
    expect((await store.get(id, SCOPE)).readCount).toBe(0);
  });

  it("a numeric JSONPath query is INVALID_ARGUMENT", async () => {
    const { store, id } = await storedJson();
    const request = { mode: "json", query: 5 } as unknown as RetrievalRequest;
    const error = await errorOf(readOutput(store, id, SCOPE, request));
    expect(isSpillwayError(error, "INVALID_ARGUMENT"), String(error)).toBe(true);
    expect((error as { details: { argument: string } }).details.argument).toBe("request.query");
  });

  it("each mode function checks its own request too", async () => {
    const { store, id } = await storedText();
    const opened = await store.open(id, SCOPE);
    try {
      const calls: [string, () => Promise<unknown>][] = [
        ["request.maxChars", () => readRaw(opened, { maxChars: "9" } as never)],
        ["request.start", () => readSlice(opened, { start: 1n } as never)],
        ["request.pattern", () => grepOutput(opened, { pattern: null } as never)],
        ["request.cursor", () => readPage(opened, { cursor: "0" } as never)],
        ["request.offset", () => queryJson(opened, { query: "$", offset: [] } as never)],
        ["request", () => readSlice(opened, null as never)],
      ];
      for (const [argument, call] of calls) {
        const error = await errorOf(call());
        expect(isSpillwayError(error, "INVALID_ARGUMENT"), `${argument}: ${error}`).toBe(true);
        expect((error as { details: { argument: string } }).details.argument).toBe(argument);
      }
    } finally {
      await opened.close();
    }
  });

  it("valid requests still read", async () => {
    const { store, id } = await storedText();
    const slice = await readOutput(store, id, SCOPE, { mode: "slice", lineStart: 2, lineEnd: 2 });
    expect(slice.found && slice.text).toBe('line 1 {"id": 1}\n');
    const grep = await readOutput(store, id, SCOPE, { mode: "grep", pattern: "line 4" });
    expect(grep.matches.map((m) => m.line)).toEqual([5, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
  });
});

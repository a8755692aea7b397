import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { MATCH_COUNT_LIMIT } from "./json-evaluate.js";
import { type RetrievalResult, readOutput, retrieve } from "./read-output.js";

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** A JSON array of `count` small objects (about 90 bytes each). */
function objects(count: number): string {
  const items = Array.from({ length: count }, (_, i) => ({
    id: `a${i}`,
    status: i % 7 === 0 ? "failed" : "ok",
    n: i,
    tags: ["x", "y"],
  }));
  return JSON.stringify(items);
}

describe("json mode: maxResults bounds the work, not only the answer", () => {
  it("$..* with maxResults 1 stops counting instead of walking everything", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), objects(20_000));
    const result = await readOutput(store, record.id, SCOPE, {
      mode: "json",
      query: "$..*",
      maxResults: 1,
    });
    if (result.kind !== "query") throw new Error("query expected");
    expect(result.matches).toHaveLength(1);
    expect(result.matches[0]!.path).toBe("$[0]");
    expect(result.totalExact).toBe(false);
    expect(result.totalMatches).toBe(1 + MATCH_COUNT_LIMIT);
    expect(result.nextOffset).toBe(1);
  });

  it("a narrow query still counts exactly and pages on", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), objects(700));
    const first = await readOutput(store, record.id, SCOPE, {
      mode: "json",
      query: '$[?(@.status=="failed")].id',
      maxResults: 40,
    });
    if (first.kind !== "query") throw new Error("query expected");
    expect(first).toMatchObject({ totalMatches: 100, totalExact: true, nextOffset: 40 });
    const last = await readOutput(store, record.id, SCOPE, {
      mode: "json",
      query: '$[?(@.status=="failed")].id',
      offset: 80,
      maxResults: 40,
    });
    if (last.kind !== "query") throw new Error("query expected");
    expect(last.matches.map((m) => m.value)).toEqual(
      Array.from({ length: 20 }, (_, i) => `a${(80 + i) * 7}`),
    );
    expect(last.nextOffset).toBeNull();
  });
});

describe("json mode: a deadline and a memory bound, as for regexes", () => {
  it("a catastrophic regex inside a filter is stopped at the deadline (QUERY_TIMEOUT)", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), JSON.stringify({ items: [{ s: "a".repeat(40) }] }));
    const error = await errorOf(
      readOutput(store, record.id, SCOPE, {
        mode: "json",
        query: "$.items[?(@.s.match(/(a+)+b/))]",
        timeoutMs: 300,
      }),
    );
    expect(isSpillwayError(error, "QUERY_TIMEOUT"), String(error)).toBe(true);
    expect((error as Error).message).toContain("grep");
    // The process is fine: the next read works.
    const ok = await readOutput(store, record.id, SCOPE, { mode: "json", query: "$.items[0].s" });
    expect(ok.kind === "query" && ok.matches[0]!.value).toBe("a".repeat(40));
  });

  it("a parse over the heap limit is QUERY_TOO_COSTLY, and the process survives", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), objects(100_000));
    const error = await errorOf(
      readOutput(store, record.id, SCOPE, { mode: "json", query: "$[0].id", maxMemoryMb: 16 }),
    );
    expect(isSpillwayError(error, "QUERY_TOO_COSTLY"), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/narrower path|grep/);
    const ok = await readOutput(store, record.id, SCOPE, { mode: "json", query: "$[0].id" });
    expect(ok.kind === "query" && ok.matches[0]!.value).toBe("a0");
  });

  it("JSON nested 200,000 deep: queries are QUERY_TOO_COSTLY, never a crash", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), `${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    for (const query of ["$..*", "$[0][0]", "$"]) {
      const error = await errorOf(readOutput(store, record.id, SCOPE, { mode: "json", query }));
      expect(isSpillwayError(error, "QUERY_TOO_COSTLY"), `${query}: ${error}`).toBe(true);
    }
    const outline = await readOutput(store, record.id, SCOPE, { mode: "json", outline: true });
    expect(outline.kind === "outline" && outline.outline).toContain("array[1] of array");
  });
});

describe("json mode: an opened output can be read again", () => {
  it("two queries on one opened inline output both answer (the worker gets its own copy)", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), JSON.stringify({ items: [{ id: 1 }, { id: 2 }] }));
    // The HTTP server keeps an output open across requests: the same source serves both reads.
    const opened = await store.open(record.id, SCOPE);
    try {
      const first = (await retrieve(opened, {
        mode: "json",
        query: "$.items[1].id",
      })) as RetrievalResult<"json">;
      const second = (await retrieve(opened, {
        mode: "json",
        query: "$.items[0].id",
      })) as RetrievalResult<"json">;
      if (first.kind !== "query" || second.kind !== "query") throw new Error("query expected");
      expect(first.matches.map((m) => m.value)).toEqual([2]);
      expect(second.matches.map((m) => m.value)).toEqual([1]);
    } finally {
      await opened.close();
    }
  });
});

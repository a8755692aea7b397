import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../core/errors.js";
import { jsonSlots, runQueuedJsonTask } from "./json-runner.js";

const DOC = new TextEncoder().encode(
  JSON.stringify({
    items: Array.from({ length: 20_000 }, (_, i) => ({ id: i, tag: `t${i % 7}` })),
  }),
);
const QUERY = {
  type: "query",
  query: "$.items[?(@.tag=='t3')].id",
  offset: 0,
  maxResults: 5,
  maxChars: 10_000,
} as const;
const limits = { timeoutMs: 30_000, maxMemoryMb: 256, outputId: "out_test" };

describe("runQueuedJsonTask", () => {
  it("runs at most the process's JSON slots at once, whatever the number of callers", async () => {
    let peak = 0;
    let reads = 0;
    const one = (lane: string) =>
      runQueuedJsonTask(
        async () => {
          reads++;
          peak = Math.max(peak, jsonSlots.active);
          return DOC.slice();
        },
        "json",
        QUERY,
        { lane },
        limits,
      );
    const results = await Promise.all(["a", "a", "a", "b", "b", "c", "c", "c"].map(one));
    expect(results.every((r) => r.type === "query")).toBe(true);
    // Each document was read only once its job held a slot, never more slots than there are.
    expect(reads).toBe(8);
    expect(peak).toBeLessThanOrEqual(jsonSlots.slots);
    expect(peak).toBeGreaterThan(0);
  });

  it("counts the deadline from the call and stops a job whose caller went away", async () => {
    const controller = new AbortController();
    const held = Array.from({ length: jsonSlots.slots }, (_, i) =>
      runQueuedJsonTask(async () => DOC.slice(), "json", QUERY, { lane: `hold${i}` }, limits),
    );
    const gone = runQueuedJsonTask(
      async () => DOC.slice(),
      "json",
      QUERY,
      { lane: "gone", signal: controller.signal },
      limits,
    ).catch((e: unknown) => e);
    controller.abort();
    expect(isSpillwayError(await gone, "ABORTED")).toBe(true);
    const late = await runQueuedJsonTask(
      async () => DOC.slice(),
      "json",
      QUERY,
      { lane: "late" },
      { ...limits, timeoutMs: 1 },
    ).catch((e: unknown) => e);
    expect(isSpillwayError(late, "QUERY_TIMEOUT")).toBe(true);
    await Promise.all(held);
  });
});

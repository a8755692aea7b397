import { describe, expect, it } from "vitest";
import { mapConcurrent } from "./concurrency.js";

describe("mapConcurrent", () => {
  it("keeps the items' order and runs at most `limit` at once", async () => {
    let running = 0;
    let peak = 0;
    const results = await mapConcurrent([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });

  it("after a failure starts nothing new, waits for the items under way, then throws the first error", async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = mapConcurrent([0, 1, 2, 3, 4], 2, async (n) => {
      started.push(n);
      if (n === 0) throw new Error("item 0 failed");
      await new Promise((r) => setTimeout(r, 30));
      finished.push(n);
      return n;
    });
    await expect(run).rejects.toThrow("item 0 failed");
    // Item 1 was under way when item 0 failed: it ended before the rejection; 2-4 never started.
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([1]);
  });
});

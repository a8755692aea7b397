/**
 * The handle message's lines past the task's threshold (the `thresholdLines` switch): when the
 * task compares with a measured number, the lines holding a value past it, in any unit of the
 * same dimension, counted, in the output's order; no section when the task states none.
 */
import { describe, expect, it } from "vitest";
import { SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";
import { thresholdLines } from "./threshold-lines.js";

/** An HTTP access log with latencies in milliseconds, three of them slower than 2 s. */
const ACCESS_LOG = Array.from({ length: 600 }, (_, i) => {
  const ms = i === 140 ? 2350 : i === 388 ? 4100 : i === 512 ? 2001 : 40 + (i % 300);
  return `10.0.0.${i % 250} - - [14/Mar/2026:08:${String(i % 60).padStart(2, "0")}:00 +0000] "GET /api/items/${i} HTTP/1.1" 200 512 ${ms}ms`;
}).join("\n");

async function stored(text: string, path = "access.log") {
  const { store } = await tempStore();
  const record = await store.put(
    { sessionId: SESSION, toolName: "fs__read_text_file", toolArgs: JSON.stringify({ path }) },
    text,
  );
  return { store, record };
}

describe("thresholdLines", () => {
  it("finds the lines past the bound in another unit of the same dimension", async () => {
    const { store, record } = await stored(ACCESS_LOG);
    const found = await thresholdLines(
      store,
      record,
      SCOPE,
      "Which request took longer than 2 seconds?",
    );
    expect(found?.bound.label).toBe("over 2 s");
    expect(found?.lines.map((l) => l.line)).toEqual([141, 389, 513]);
    expect(found?.count).toBe(3);
    expect(found?.complete).toBe(true);
  });

  it("reads data sizes and percentages, below as well as above", async () => {
    const du = [
      "4.0K\t./a",
      "1.2 GB ./videos",
      "950 MB ./photos",
      "3 GB ./backups",
      "12 KB ./notes",
    ].join("\n");
    const { store, record } = await stored(du, "du.txt");
    const big = await thresholdLines(store, record, SCOPE, "which folder is larger than 1 GB?");
    expect(big?.lines.map((l) => l.text)).toEqual(["1.2 GB ./videos", "3 GB ./backups"]);
    const small = await thresholdLines(store, record, SCOPE, "which folder is under 1 MB?");
    // `du -h` writes 4.0K for 4 KiB: read too.
    expect(small?.lines.map((l) => l.text)).toEqual(["4.0K\t./a", "12 KB ./notes"]);
  });

  it("states none for a task without a measured bound, and ignores the path the call read", async () => {
    const { store, record } = await stored(ACCESS_LOG, "logs/over-5s/access.log");
    expect(
      await thresholdLines(store, record, SCOPE, "Which IP fetched /api/items/140?"),
    ).toBeUndefined();
    expect(
      await thresholdLines(store, record, SCOPE, "more than 3 requests from 10.0.0.1?"),
    ).toBeUndefined();
  });
});

describe("the handle message's threshold section", () => {
  const options = { taskRecord: true, taskFocus: true, thresholdLines: true } as const;
  /** The message for `taskText` over a stored output, every switch as in `options` but `switches`. */
  const messageFor = (
    { store, record }: Awaited<ReturnType<typeof stored>>,
    taskText: string,
    switches: { thresholdLines?: boolean } = {},
  ) => defaultHandleMessage(record, store, SCOPE, 5, { ...options, ...switches, taskText });

  it("lists the lines past the bound, counted, with the first five shown", async () => {
    const message = await messageFor(
      await stored(ACCESS_LOG),
      "Any request slower than 300 ms? Give its path.",
    );
    expect(message).toContain(
      "Your task compares with a number (over 300 ms). The lines of it holding a value over 300 ms, in any unit of time (",
    );
    expect(message).toMatch(/\(\d+ lines; the first 5 shown, in their order\):/);
    expect(message).toContain("  141| 10.0.0.140 ");
  });

  it("says so when no line holds a value past the bound", async () => {
    const message = await messageFor(
      await stored(ACCESS_LOG),
      "Did any request take more than ten seconds?",
    );
    expect(message).toContain(
      "Your task compares with a number (over 10 s): of the 600 lines of it holding a value in any unit of time, none holds one over 10 s.",
    );
  });

  it("says nothing when no line holds a value of the bound's dimension at all", async () => {
    // Durations in a keyed column (`duration_ms=2350`) are not read: no claim is made.
    const keyed = ACCESS_LOG.replace(/ (\d+)ms$/gm, " duration_ms=$1");
    const message = await messageFor(
      await stored(keyed),
      "Did any request take more than ten seconds?",
    );
    expect(message).not.toContain("Your task compares with a number");
  });

  it("counts a long line once and reads each of its values", async () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({
      id: i,
      took: i === 250 ? "12000ms" : "15ms",
    }));
    const { store, record } = await stored(JSON.stringify(rows), "rows.json");
    const found = await thresholdLines(store, record, SCOPE, "which row took longer than 10 s?");
    expect(found?.count).toBe(1);
    expect(found?.lines).toHaveLength(1);
    expect(found?.lines[0]?.text).toContain('"took":"12000ms"');
  });

  it("adds nothing with the switch off", async () => {
    const log = await stored(ACCESS_LOG);
    const taskText = "Which request took longer than 2 seconds?";
    const on = await messageFor(log, taskText);
    const off = await messageFor(log, taskText, { thresholdLines: false });
    expect(on).toContain("Your task compares with a number (over 2 s)");
    expect(on).toContain("  389| ");
    expect(off).not.toContain("Your task compares with a number");
    // A task that states no threshold gets the same message either way.
    const plain = "Which IP fetched /api/items/140?";
    expect(await messageFor(log, plain)).toBe(
      await messageFor(log, plain, { thresholdLines: false }),
    );
  });
});

/**
 * The thresholds a task states: a comparison, a number (digits or words) and a unit of time,
 * data size or percent. Anything else (a count of things, a word after "over") states none, so
 * the handle message adds nothing.
 */
import { describe, expect, it } from "vitest";
import { taskThreshold, valuePattern, valuesPast } from "./task-threshold.js";

describe("taskThreshold", () => {
  it.each([
    ["Which request took longer than 2 seconds?", "over 2 s", 2],
    ["List any job slower than 90s in the CI log", "over 90 s", 90],
    ["Did a query exceed 500 ms?", "over 500 ms", 0.5],
    ["Is there a query exceeding 500 ms?", "over 500 ms", 0.5],
    ["one upload over 1.5 GB: which file?", "over 1.5 GB", 1.5e9],
    ["files of at least 200 MiB", "at least 200 MiB", 200 * 1024 ** 2],
    ["which disk is above 90% full", "over 90%", 90],
    ["a handler faster than 5 ms", "below 5 ms", 0.005],
    ["a response of no more than 1,024 bytes", "at most 1,024 B", 1024],
    ["which step ran more than twenty-five minutes", "over 25 min", 1500],
    ["a build that took more than ten seconds", "over 10 s", 10],
    ["> 3s", "over 3 s", 3],
    ["応答が2秒以上かかったリクエストは?", "at least 2 s", 2],
    ["サイズが5 MB未満のファイル", "below 5 MB", 5e6],
    ["耗时超过 3 秒的请求", "over 3 s", 3],
  ])("%s → %s", (task, label, base) => {
    const found = taskThreshold(task);
    expect(found?.label).toBe(label);
    expect(found?.base).toBe(base);
  });

  it.each([
    "Do not restart more than one host at a time",
    "which client connected over IPv6?",
    "more than 3 errors in the log?",
    "the overall time in seconds",
    "what happened at 10 s into the run?",
    "over 10 secondary replicas",
  ])("states none: %s", (task) => {
    expect(taskThreshold(task)).toBeUndefined();
  });

  it("reads the direction of each comparison", () => {
    expect(taskThreshold("under 2 KB")).toMatchObject({ above: false, inclusive: false });
    expect(taskThreshold("at most 2 KB")).toMatchObject({ above: false, inclusive: true });
    expect(taskThreshold("bigger than 2 KB")).toMatchObject({ above: true, inclusive: false });
  });
});

describe("valuesPast", () => {
  const overTenSeconds = taskThreshold("over 10 s")!;

  it("compares values in any unit of the same dimension", () => {
    expect(valuesPast("(17.576 s) Time: 9.1 s took 12000ms; 2 min later", overTenSeconds)).toEqual([
      "17.576 s",
      "12000ms",
      "2 min",
    ]);
  });

  it("skips numbers without a unit, units of another dimension, and compound durations", () => {
    expect(valuesPast("id 123456 size 40 MB at 3m20s port 8080", overTenSeconds)).toEqual([]);
  });

  it("counts the bound itself only for an inclusive comparison", () => {
    expect(valuesPast("took 10 s", overTenSeconds)).toEqual([]);
    expect(valuesPast("took 10 s", taskThreshold("at least 10 s")!)).toEqual(["10 s"]);
  });

  it("gives a grep pattern that finds every line valuesPast reads", () => {
    const pattern = new RegExp(valuePattern("time"), "i");
    for (const line of ["(17.576 s)", "took 12000ms", "2 min later", "応答 2秒"])
      expect(pattern.test(line)).toBe(true);
    expect(pattern.test("10 secondary replicas")).toBe(false);
  });
});

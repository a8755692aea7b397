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
    ["files not exceeding 5 MB", "at most 5 MB", 5e6],
    ["a request no longer than 2 s", "at most 2 s", 2],
    ["no greater than 90%", "at most 90%", 90],
    ["不少于3秒", "at least 3 s", 3],
    ["不大于 2 秒", "at most 2 s", 2],
    ["5MBを超えないファイル", "at most 5 MB", 5e6],
    ["any response of 10 s or more", "at least 10 s", 10],
    ["volumes of 90% or higher", "at least 90%", 90],
    ["over 0.0005 s", "over 0.0005 s", 0.0005],
    ["５秒以上", "at least 5 s", 5],
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
    "more than tens of seconds",
    "over hundreds of milliseconds",
    "over 1 minute 30 seconds",
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
    const belowTenSeconds = taskThreshold("under 10 s")!;
    expect(valuesPast("up 1m 5s", belowTenSeconds)).toEqual([]);
    // Written side by side from larger units to smaller, a duration is one value.
    expect(valuesPast("took 2 min 5 s", overTenSeconds)).toEqual(["2 min 5 s"]);
    expect(valuesPast("p50 12 ms 15 ms", belowTenSeconds)).toEqual(["12 ms", "15 ms"]);
  });

  it("skips signed numbers, rates and names that start like a unit", () => {
    expect(valuesPast("offset -30s, 429 MB/s, ping 12 us-east-1", overTenSeconds)).toEqual([]);
    expect(valuesPast("usage -95%", taskThreshold("above 90%")!)).toEqual([]);
  });

  it("compares values equal to the bound exactly, whatever the unit", () => {
    expect(valuesPast("700ms", taskThreshold("over 0.7 s")!)).toEqual([]);
    expect(valuesPast("67 MB", taskThreshold("at least 0.067 GB")!)).toEqual(["67 MB"]);
  });

  it("reads full-width digits and sizes as du -h prints them", () => {
    expect(valuesPast("CPU ９５％", taskThreshold("above 90%")!)).toEqual(["95%"]);
    expect(valuesPast("1.2G\t./videos 5m ago", taskThreshold("over 1 GB")!)).toEqual(["1.2G"]);
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

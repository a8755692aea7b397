import { describe, expect, it } from "vitest";
import {
  normalizedText,
  reportSentences,
  unseenValues,
  valueTokens,
  withoutLinePrefix,
} from "./report-checks.js";

describe("report checks", () => {
  it("splits a report into sentences worth checking, and checks a short report whole", () => {
    expect(reportSentences("This is turn 2 of 8. Your context window is 9% full.")).toEqual([
      "this is turn 2 of 8.",
      "your context window is 9% full.",
      "this is turn 2 of 8. your context window is 9% full.",
    ]);
    expect(reportSentences("ord-58213")).toEqual([]);
    expect(reportSentences("The order is ord-58213.")).toEqual(["the order is ord-58213."]);
  });

  it("takes the line number a read put before content off", () => {
    expect(withoutLinePrefix("125773:1: 2026-03-14 error x")).toBe("2026-03-14 error x");
    expect(withoutLinePrefix("12| a line")).toBe("a line");
    expect(withoutLinePrefix("no prefix")).toBe("no prefix");
  });

  it("finds value-like tokens: a digit, three characters or more", () => {
    expect(valueTokens("Request req-7f3a2c handled order 58213 in 12 ms at 10.4.2.1.")).toEqual([
      "req-7f3a2c",
      "58213",
      "10.4.2.1",
    ]);
    expect(valueTokens("It took 1,843 ms.")).toEqual(["1843"]);
    expect(valueTokens("Bob's pod is ready.")).toEqual([]);
  });

  it("names the values no shown text holds, comparing normalized (case, spacing, digit groups)", () => {
    const shown = [
      "347| 2026-08-04 INFO  [checkout] req=REQ-4HPI75 order=ord-16580 latency_ms=1843",
    ];
    expect(unseenValues("Request req-4hpi75 took 1,843 ms for ord-16580.", shown)).toEqual([]);
    expect(unseenValues("The order is ord-16581.", shown)).toEqual(["ord-16581"]);
    // Part of a shown value is shown (a time cut out of a timestamp).
    expect(unseenValues("It happened on 2026-08-04.", shown)).toEqual([]);
    expect(normalizedText("  A\tB  ")).toBe("a b");
  });
});

import { describe, expect, it } from "vitest";
import {
  contextStatus,
  DEFAULT_THRESHOLDS,
  sessionThresholds,
  thresholdLabel,
} from "./context-status.js";

describe("context status", () => {
  it("spells the thresholds out, never as shorthand", () => {
    expect(thresholdLabel(DEFAULT_THRESHOLDS)).toBe(
      "warns at 75%, compacts at 90%, hard limit 95%",
    );
    expect(thresholdLabel({ warn: 0.7, compact: 0.825, hard: 0.9 })).toBe(
      "warns at 70%, compacts at 82.5%, hard limit 90%",
    );
  });

  it("takes thresholds from the session's reported settings, the defaults when absent or invalid", () => {
    expect(sessionThresholds({ compaction: { warn: 0.6, compact: 0.8, hard: 0.9 } })).toEqual({
      warn: 0.6,
      compact: 0.8,
      hard: 0.9,
    });
    expect(
      sessionThresholds({ compaction: { thresholds: { warn: 0.5, compact: 0.7, hard: 0.8 } } })
        .warn,
    ).toBe(0.5);
    expect(sessionThresholds({})).toEqual(DEFAULT_THRESHOLDS);
    expect(sessionThresholds({ compaction: { warn: 0.9, compact: 0.8, hard: 0.95 } })).toEqual(
      DEFAULT_THRESHOLDS,
    );
    expect(sessionThresholds(null)).toEqual(DEFAULT_THRESHOLDS);
  });

  it("says which threshold the window use has reached", () => {
    const at = (used: number) =>
      contextStatus({
        turn: 1,
        model: "m",
        inputTokens: used,
        outputTokens: 0,
        windowTokens: 1000,
      });
    expect([at(100), at(750), at(900), at(950), at(1200)].map((s) => s.level)).toEqual([
      "ok",
      "warn",
      "compact",
      "hard",
      "hard",
    ]);
    expect(at(400)).toMatchObject({ usedTokens: 400, fraction: 0.4, source: "model.call" });
  });
});

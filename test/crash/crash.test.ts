/**
 * The fast subset of the crash harness (npm run crash runs 100 kills): a few SIGKILLs during
 * large ingests and during a running session, then the store is checked and the session resumed.
 */
import { describe, expect, it } from "vitest";
import { runCrashes } from "./crash-harness.js";

describe("SIGKILL at random moments", () => {
  it("loses no committed output, leaves no partial record, and the session resumes", async () => {
    const summary = await runCrashes({
      ingestRounds: 2,
      sessionRounds: 1,
      seed: 7,
      maxMb: 4,
      killWithinMs: 2500,
    });
    expect(summary.problems).toEqual([]);
    expect(summary.ingestKills + summary.sessionKills).toBe(3);
    expect(summary.lost).toBe(0);
    expect(summary.partial).toBe(0);
    expect(summary.resumed).toBe(1);
    expect(summary.committedChecked).toBeGreaterThan(0);
    expect(summary.tempFilesAfterGc).toBe(0);
  }, 300_000);
});

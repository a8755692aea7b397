import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../core/errors.js";
import { fencedHistory } from "./fenced-history.js";
import type { HistoryStore } from "./history.js";
import { keepLease, type LeaseState, type SessionLeases } from "./session-leases.js";

/** Leases whose answers the test decides. */
function scriptedLeases(answer: () => Promise<LeaseState>) {
  const released: string[] = [];
  const leases: SessionLeases = {
    acquire: () => answer(),
    release: async (_sessionId, holder) => {
      released.push(holder);
    },
    expired: async () => [],
  };
  return { leases, released };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("keepLease", () => {
  it("is lost once another holder has the lease, says who, and does not release it", async () => {
    let holder = "worker-a";
    const { leases, released } = scriptedLeases(async () => ({
      acquired: holder === "worker-a",
      holder,
      expiresAt: Date.now() + 300,
    }));
    const reasons: string[] = [];
    const lease = keepLease(leases, "ses_1", "worker-a", 300, (why) => reasons.push(why));
    await new Promise((r) => setTimeout(r, 250)); // renewed twice
    expect(lease.lost()).toBeUndefined();
    holder = "worker-b";
    await until(() => reasons.length > 0);
    expect(reasons).toEqual(["session ses_1's lease is held by worker-b now"]);
    expect(lease.lost()).toBe(reasons[0]);
    await lease.release();
    expect(released).toEqual([]); // it is worker-b's
  });

  it("is lost when no renewal succeeds within the lease's time (a worker cut off from the database)", async () => {
    const { leases } = scriptedLeases(() => Promise.reject(new Error("connection refused")));
    let now = 1_000;
    const reasons: string[] = [];
    const lease = keepLease(
      leases,
      "ses_1",
      "worker-a",
      300,
      (why) => reasons.push(why),
      () => now,
    );
    now += 299;
    expect(lease.lost()).toBeUndefined();
    now += 1;
    expect(lease.lost()).toMatch(/no renewal of session ses_1's lease succeeded within 300 ms/);
    expect(reasons).toHaveLength(1);
    await lease.release();
  });

  it("releases a lease it still holds", async () => {
    const { leases, released } = scriptedLeases(async () => ({
      acquired: true,
      holder: "worker-a",
      expiresAt: 0,
    }));
    const lease = keepLease(leases, "ses_1", "worker-a", 30_000);
    await lease.release();
    expect(released).toEqual(["worker-a"]);
  });
});

describe("fencedHistory", () => {
  it("refuses every write once the lease is lost, naming why, and still reads", async () => {
    const calls: string[] = [];
    const record = (name: string) => async () => {
      calls.push(name);
      return undefined as never;
    };
    const inner = {
      createSession: record("createSession"),
      getSession: record("getSession"),
      listSessions: record("listSessions"),
      updateSession: record("updateSession"),
      appendMessage: record("appendMessage"),
      messages: record("messages"),
      startToolCall: record("startToolCall"),
      finishToolCall: record("finishToolCall"),
      toolCalls: record("toolCalls"),
      appendSummary: record("appendSummary"),
      summaries: record("summaries"),
    } as unknown as HistoryStore;
    let reason: string | undefined;
    const history = fencedHistory(inner, () => reason);
    await history.appendMessage("ses_1", 1, "assistant", []);
    reason = "session ses_1's lease is held by worker-b now";
    const writes = [
      () => history.appendMessage("ses_1", 2, "assistant", []),
      () => history.updateSession("ses_1", { status: "aborted" }),
      () => history.startToolCall({} as never),
      () => history.finishToolCall("ses_1", "c1", { status: "ok" }, {} as never),
      () => history.createSession({} as never),
      () => history.appendSummary({} as never),
    ];
    for (const write of writes) {
      const error = await write().catch((e: unknown) => e);
      expect(isSpillwayError(error, "LEASE_LOST")).toBe(true);
      expect((error as Error).message).toContain("held by worker-b");
    }
    await history.messages("ses_1");
    await history.getSession("ses_1");
    expect(calls).toEqual(["appendMessage", "messages", "getSession"]);
  });
});

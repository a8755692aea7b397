// A worker that lost a session's lease while running it (it stalled; another worker took the
// session) stops its run and writes nothing more: real SQLite store, real HTTP, scripted model.
import { describe, expect, it } from "vitest";
import { serverFixture } from "../../test/helpers/server-fixture.js";
import { type Responder, toolCall } from "../testing/index.js";

let openGate = () => {};
const gate = new Promise<void>((resolve) => {
  openGate = resolve;
});
/** Blind: answers after the gate opens (the test holds the run there). */
const waitThenReport: Responder = async () => {
  await gate;
  return toolCall("agent__final_report", { report: "done" });
};

describe("a run whose lease is lost", () => {
  it("is aborted, writes no more history and publishes no end, leaving the session to the new holder", async () => {
    const lines: string[] = [];
    const f = await serverFixture(waitThenReport, {
      leaseTtlMs: 600,
      log: (line) => lines.push(line),
    });
    await f.agent("slow", {});
    const started = await f.post("/v1/sessions", { agent: { path: "slow.md" }, prompt: "go" });
    expect(started.status).toBe(201);
    const { session } = (await started.json()) as { session: { id: string } };
    const leases = f.stores.leases!;
    let ours = await leases.acquire(session.id, "worker-b", 60_000);
    for (let i = 0; i < 50 && ours.acquired; i++) {
      await new Promise((r) => setTimeout(r, 20));
      ours = await leases.acquire(session.id, "worker-b", 60_000);
    }
    expect(ours.acquired).toBe(false); // this server holds it
    // Worker B takes the session over, as it would after this worker stalled past the lease.
    await leases.release(session.id, ours.holder);
    expect((await leases.acquire(session.id, "worker-b", 60_000)).acquired).toBe(true);
    const before = await f.stores.history.messages(session.id);
    for (let i = 0; i < 100 && f.http.deps.live.isLive(session.id); i++) {
      if (i === 20) openGate(); // the model answers after the keeper noticed
      await new Promise((r) => setTimeout(r, 20));
    }
    openGate();
    expect(f.http.deps.live.isLive(session.id)).toBe(false);
    expect(lines.join("\n")).toContain(`session ${session.id}: lease lost`);
    // Nothing written after the loss: no report, no status, no message.
    const after = await f.stores.history.getSession(session.id);
    expect(after.status).toBe("running");
    expect(after.finalReport).toBeNull();
    expect(await f.stores.history.messages(session.id)).toEqual(before);
    expect((await leases.acquire(session.id, "worker-b", 60_000)).acquired).toBe(true);
    // And its event stream stays open for worker B's continuation (no end was published).
    expect(f.http.deps.feed.read(session.id, null, 1000).ended).toBe(false);
  });
});

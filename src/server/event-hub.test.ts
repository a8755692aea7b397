import { describe, expect, it } from "vitest";
import { SseParser } from "../testing/sse-client.js";
import { EventHub } from "./event-hub.js";
import { sseStream } from "./sse-stream.js";

const decoder = new TextDecoder();

/** Reads a stream's SSE events, pulling one chunk at a time (as a draining socket would). */
async function pullEvents(stream: ReadableStream<Uint8Array>, chunks: number) {
  const reader = stream.getReader();
  const parser = new SseParser();
  const events = [];
  for (let i = 0; i < chunks; i++) {
    const { done, value } = await reader.read();
    if (done) break;
    events.push(...parser.push(decoder.decode(value)));
  }
  await reader.cancel();
  return events;
}

describe("EventHub", () => {
  it("keeps a bounded window and resumes after an id with nothing lost inside it", () => {
    const hub = new EventHub({ maxEvents: 100, epoch: "e1" });
    for (let i = 1; i <= 250; i++) hub.publish("s", { type: "turn", turn: i });
    const all = hub.read("s", null, 1000);
    expect(all.events).toHaveLength(100);
    expect(all.events[0]!.id).toBe("e1-151");
    expect(all.gap).toEqual({ missedAfter: null, resumedAt: "e1-151" });
    const after = hub.read("s", "e1-200", 1000);
    expect(after.gap).toBeUndefined();
    expect(after.events.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 201 + i));
    // A cursor older than the window is told what it missed.
    const old = hub.read("s", "e1-10", 1000);
    expect(old.gap).toEqual({ missedAfter: "e1-10", resumedAt: "e1-151" });
    // A cursor from another server run starts at the window, with a gap.
    expect(hub.read("s", "zz-3", 10).gap?.missedAfter).toBe("zz-3");
  });

  it("bounds the window by bytes too", () => {
    const hub = new EventHub({ maxBytes: 10_000, epoch: "e" });
    for (let i = 0; i < 100; i++) hub.publish("s", { type: "x", pad: "p".repeat(1000) });
    const { events } = hub.read("s", null, 1000);
    expect(events.length).toBeLessThan(11);
    expect(events.reduce((n, e) => n + e.data.length, 0)).toBeLessThanOrEqual(10_000);
  });

  it("a slow consumer holds only its cursor: it gets every event while it stays in the window, and a reset when it falls out", async () => {
    const hub = new EventHub({ maxEvents: 50, epoch: "e" });
    const stream = sseStream({
      feed: hub,
      sessionId: "s",
      after: null,
      heartbeatMs: 10_000,
      batch: 10,
    });
    for (let i = 1; i <= 40; i++) hub.publish("s", { type: "turn", turn: i });
    // retry line, then 4 chunks of 10: no loss.
    const first = await pullEvents(stream, 5);
    expect(first.map((e) => e.id)).toEqual(Array.from({ length: 40 }, (_, i) => `e-${i + 1}`));

    const slow = sseStream({
      feed: hub,
      sessionId: "s",
      after: "e-5",
      heartbeatMs: 10_000,
      batch: 10,
    });
    // The consumer is behind while 200 more events arrive: the window keeps the last 50.
    for (let i = 41; i <= 240; i++) hub.publish("s", { type: "turn", turn: i });
    const events = await pullEvents(slow, 6);
    expect(events[0]!.event).toBe("reset");
    expect(JSON.parse(events[0]!.data)).toMatchObject({ missedAfter: "e-5", resumedAt: "e-191" });
    expect(events.slice(1).map((e) => e.id)).toEqual(
      Array.from({ length: 50 }, (_, i) => `e-${191 + i}`),
    );
  });

  it("sends heartbeats while idle and closes when the session's stream ends", async () => {
    const hub = new EventHub({ epoch: "e" });
    hub.publish("s", { type: "turn", turn: 1 });
    const stream = sseStream({ feed: hub, sessionId: "s", after: "e-1", heartbeatMs: 20 });
    const reader = stream.getReader();
    const texts: string[] = [];
    texts.push(decoder.decode((await reader.read()).value)); // retry
    texts.push(decoder.decode((await reader.read()).value)); // heartbeat (idle)
    hub.publish("s", { type: "final", status: "completed" });
    hub.end("s");
    texts.push(decoder.decode((await reader.read()).value));
    expect(texts[0]).toBe("retry: 2000\n\n");
    expect(texts[1]).toBe(": heartbeat\n\n");
    expect(texts[2]).toContain("event: final");
    expect((await reader.read()).done).toBe(true);
  });
});

describe("EventHub mirroring another worker's events", () => {
  it("keeps the publisher's ids, so a subscriber may resume on either worker", () => {
    const origin = new EventHub({ epoch: "a1" });
    const mirror = new EventHub({ epoch: "b1" });
    for (let i = 1; i <= 5; i++) mirror.mirror("s", origin.publish("s", { type: "turn", turn: i }));
    expect(mirror.read("s", null, 10).events.map((e) => e.id)).toEqual(
      origin.read("s", null, 10).events.map((e) => e.id),
    );
    expect(mirror.read("s", "a1-3", 10).events.map((e) => e.id)).toEqual(["a1-4", "a1-5"]);
    expect(mirror.read("s", "a1-3", 10).gap).toBeUndefined();
  });

  it("tells a subscriber what it missed when relayed events went missing", () => {
    const origin = new EventHub({ epoch: "a1" });
    const mirror = new EventHub({ epoch: "b1" });
    const events = Array.from({ length: 6 }, (_, i) =>
      origin.publish("s", { type: "turn", turn: i }),
    );
    mirror.mirror("s", events[0]!);
    mirror.mirror("s", events[1]!);
    mirror.mirror("s", events[4]!); // 3 and 4 never arrived
    const read = mirror.read("s", "a1-2", 10);
    expect(read.gap).toEqual({ missedAfter: "a1-2", resumedAt: "a1-5" });
    expect(read.events.map((e) => e.id)).toEqual(["a1-5"]);
    // Numbering tells continuity: the next event follows on.
    mirror.mirror("s", events[5]!);
    expect(mirror.read("s", "a1-5", 10)).toMatchObject({ events: [{ id: "a1-6" }] });
    expect(mirror.read("s", "a1-5", 10).gap).toBeUndefined();
    expect(mirror.mirroredOpen()).toEqual(["s"]);
  });

  it("goes on numbering when this worker takes a session over, and still places the old ids", () => {
    const origin = new EventHub({ epoch: "a1" });
    const taker = new EventHub({ epoch: "b1" });
    for (let i = 1; i <= 3; i++) taker.mirror("s", origin.publish("s", { type: "turn", turn: i }));
    taker.publish("s", { type: "status", status: "continued" });
    const read = taker.read("s", "a1-2", 10);
    expect(read.gap).toBeUndefined();
    expect(read.events.map((e) => e.id)).toEqual(["a1-3", "b1-4"]);
    expect(taker.mirroredOpen()).toEqual([]);
  });
});

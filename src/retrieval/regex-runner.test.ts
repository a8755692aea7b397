import { afterEach, describe, expect, it } from "vitest";
import { isSpillwayError } from "../core/errors.js";
import { RegexPool, RegexRunner } from "./regex-runner.js";

const BOMB = "(a+)+$";
const BOMB_TEXT = `${"a".repeat(40)}!`;

const pools: RegexPool[] = [];
afterEach(async () => {
  while (pools.length > 0) await pools.pop()!.close();
});

function poolOf(workers: number): RegexPool {
  const pool = new RegexPool({ workers });
  pools.push(pool);
  return pool;
}

/** Settles to the error (or "ok"), recording when. */
function track(promise: Promise<unknown>) {
  const state = { settled: false, error: undefined as unknown, at: 0 };
  const done = promise.then(
    () => {
      state.settled = true;
      state.at = Date.now();
    },
    (error: unknown) => {
      state.settled = true;
      state.error = error;
      state.at = Date.now();
    },
  );
  return { state, done };
}

describe("RegexPool", () => {
  it("counts a scan's deadline from its arrival, waiting for a worker included", async () => {
    const runner = new RegexRunner(poolOf(1));
    const bomb = track(runner.scan(BOMB_TEXT, BOMB, "", 1, 1500));
    const started = Date.now();
    // Queued behind the bomb on the only worker: its 200 ms pass while it waits.
    const queued = await runner.scan("abc", "b", "", 1, 200).catch((error: unknown) => error);
    expect(isSpillwayError(queued, "PATTERN_TIMEOUT"), String(queued)).toBe(true);
    expect(bomb.state.settled).toBe(false); // it failed while still queued, not after the bomb
    expect(Date.now() - started).toBeLessThan(1500);
    await bomb.done;
  });

  it("serves another lane while one lane's catastrophic scans hold its share", async () => {
    const runner = new RegexRunner(poolOf(2));
    const alice = runner.forJob({ lane: "alice" });
    const bob = runner.forJob({ lane: "bob" });
    const bombs = Array.from({ length: 4 }, () => track(alice.scan(BOMB_TEXT, BOMB, "", 1, 3000)));
    expect(await bob.scan("one\ntwo\n", "tw+o", "", 5, 3000)).toEqual([4, 3]);
    // Bob's scan was answered before any of Alice's bombs ended.
    expect(bombs.every((b) => !b.state.settled)).toBe(true);
    await Promise.all(bombs.map((b) => b.done));
    expect(bombs.every((b) => isSpillwayError(b.state.error, "PATTERN_TIMEOUT"))).toBe(true);
  });

  it("takes turns between lanes: a lane with many queued scans delays another by at most one", async () => {
    const pool = poolOf(1);
    const runner = new RegexRunner(pool);
    const order: string[] = [];
    const scan = (lane: string, tag: string) =>
      runner
        .forJob({ lane })
        .scan("x", "x", "", 1, 10_000)
        .then(() => order.push(tag));
    const all = [
      scan("a", "a1"),
      scan("a", "a2"),
      scan("a", "a3"),
      scan("a", "a4"),
      scan("b", "b1"),
      scan("b", "b2"),
    ];
    await Promise.all(all);
    expect(order).toEqual(["a1", "b1", "a2", "b2", "a3", "a4"]);
  });

  it("stops a caller's scans, queued or running, when its signal aborts, and frees their workers", async () => {
    const pool = poolOf(2);
    const runner = new RegexRunner(pool);
    const controller = new AbortController();
    const gone = runner.forJob({ lane: "alice", signal: controller.signal });
    const bombs = Array.from({ length: 4 }, () => track(gone.scan(BOMB_TEXT, BOMB, "", 1, 30_000)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.threads).toBe(1); // alice holds one worker (her share), three scans wait
    controller.abort();
    await Promise.all(bombs.map((b) => b.done));
    expect(bombs.every((b) => isSpillwayError(b.state.error, "ABORTED"))).toBe(true);
    // The running bomb's worker was stopped (and replaced by a fresh one, ready for the next).
    expect(pool.stopped).toBe(1);
    expect(pool.threads).toBe(1);
    expect(await runner.scan("abc", "c", "", 1, 5000)).toEqual([2, 1]);
  });
});

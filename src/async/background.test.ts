import { describe, expect, it } from "vitest";
import { BackgroundTools, type Settler } from "./background.js";

/** A promise with its resolve and reject exposed. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const job = (n: number) => ({
  outputId: `out_${n}`,
  toolCallId: `call_${n}`,
  toolName: `tool${n}`,
  startedAt: 0,
});

/** Records what each settle saw, and stores "ready" with the value's length as bytes. */
function recorder() {
  const seen: { result: PromiseSettledResult<unknown>; abortReason: string | null }[] = [];
  const settle: Settler = async (result, abortReason) => {
    seen.push({ result, abortReason });
    if (abortReason !== null) return { status: "aborted", error: abortReason };
    if (result.status === "rejected") return { status: "failed", error: String(result.reason) };
    return { status: "ready", tokens: 1, bytes: String(result.value).length };
  };
  return { seen, settle };
}

const never = new AbortController().signal;

describe("BackgroundTools", () => {
  it("adopts running work and stores its result when it settles; wait reports each job once", async () => {
    const tools = new BackgroundTools(4, () => 1000);
    const { settle } = recorder();
    const a = deferred<string>();
    const b = deferred<string>();
    tools.adopt(job(1), new AbortController(), a.promise, settle);
    tools.adopt(job(2), new AbortController(), b.promise, settle);
    expect(tools.runningCount).toBe(2);
    const waiting = tools.waitForCompleted(never, 10_000);
    a.resolve("hello");
    const first = await waiting;
    expect(first.map((j) => [j.outputId, j.status, j.bytes, j.settledAt])).toEqual([
      ["out_1", "ready", 5, 1000],
    ]);
    b.reject(new Error("boom"));
    const second = await tools.waitForCompleted(never, 10_000);
    expect(second.map((j) => [j.outputId, j.status, j.error])).toEqual([
      ["out_2", "failed", "Error: boom"],
    ]);
    // Everything was reported: nothing runs, the next wait returns at once with nothing.
    expect(await tools.waitForCompleted(never, 10_000)).toEqual([]);
    expect(tools.settledCount).toBe(2);
  });

  it("returns at once with every job settled since the last report", async () => {
    const tools = new BackgroundTools(4, () => 0);
    const { settle } = recorder();
    tools.adopt(job(1), new AbortController(), Promise.resolve("a"), settle);
    tools.adopt(job(2), new AbortController(), Promise.resolve("bb"), settle);
    tools.adopt(job(3), new AbortController(), new Promise(() => {}), settle);
    await new Promise((r) => setTimeout(r, 10));
    const completed = await tools.waitForCompleted(never, 60_000);
    expect(completed.map((j) => j.outputId)).toEqual(["out_1", "out_2"]);
  });

  it("a wait ends at its timeout or abort with nothing completed", async () => {
    const tools = new BackgroundTools(4, () => 0);
    tools.adopt(job(1), new AbortController(), new Promise(() => {}), recorder().settle);
    const started = performance.now();
    expect(await tools.waitForCompleted(never, 50)).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    const controller = new AbortController();
    const waiting = tools.waitForCompleted(controller.signal, 60_000);
    controller.abort();
    expect(await waiting).toEqual([]);
  });

  it("caps explicit starts at maxRunning and queues the rest in order", async () => {
    const tools = new BackgroundTools(2, () => 0);
    const { settle } = recorder();
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    const started: number[] = [];
    for (const [i, gate] of gates.entries()) {
      tools.start(
        job(i),
        async () => {
          started.push(i);
          return gate.promise;
        },
        settle,
      );
    }
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1]);
    expect(tools.reserve()).toBe(false);
    gates[0]!.resolve("x");
    await tools.waitForCompleted(never, 1000);
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.resolve("y");
    gates[2]!.resolve("z");
    await tools.waitForCompleted(never, 1000);
    expect(tools.jobs().map((j) => j.status)).toEqual(["ready", "ready", "ready"]);
    expect(tools.reserve()).toBe(true);
  });

  it("abortAll aborts running and queued jobs, waits until each is recorded, with the reason", async () => {
    const tools = new BackgroundTools(1, () => 0);
    const { seen, settle } = recorder();
    const signals: AbortSignal[] = [];
    const controller = new AbortController();
    const work = new Promise((_, reject) =>
      controller.signal.addEventListener("abort", () => reject(controller.signal.reason)),
    );
    tools.adopt(job(1), controller, work, settle);
    tools.start(
      job(2),
      async (signal) => {
        signals.push(signal);
        return "never runs";
      },
      settle,
    );
    await tools.abortAll("the session ended");
    expect(tools.jobs().map((j) => [j.status, j.error])).toEqual([
      ["aborted", "the session ended"],
      ["aborted", "the session ended"],
    ]);
    // The queued job never started its work.
    expect(signals).toEqual([]);
    expect(seen.every((s) => s.abortReason === "the session ended")).toBe(true);
  });

  it("a settle that throws records the job as failed (nothing hangs)", async () => {
    const tools = new BackgroundTools(4, () => 0);
    tools.adopt(job(1), new AbortController(), Promise.resolve("x"), async () => {
      throw new Error("disk full");
    });
    const [done] = await tools.waitForCompleted(never, 1000);
    expect(done).toMatchObject({ status: "failed", error: "storing the result failed: disk full" });
  });

  it("a graceful stop ends current and later waits at once; jobs go on", async () => {
    const tools = new BackgroundTools(4, () => 0);
    const gate = deferred<string>();
    tools.adopt(job(1), new AbortController(), gate.promise, recorder().settle);
    const waiting = tools.waitForCompleted(never, 60_000);
    tools.requestStop();
    expect(await waiting).toEqual([]);
    const started = performance.now();
    expect(await tools.waitForCompleted(never, 60_000)).toEqual([]);
    await tools.nextSettlement(never, 60_000);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(tools.runningCount).toBe(1);
    // After a stop a wait no longer blocks, but what settled is still reported.
    gate.resolve("late");
    await new Promise((r) => setTimeout(r, 10));
    const [done] = await tools.waitForCompleted(never, 1000);
    expect(done?.status).toBe("ready");
  });

  it("two waits at once: the first takes the completion, the second waits for the next", async () => {
    const tools = new BackgroundTools(4, () => 0);
    const { settle } = recorder();
    const a = deferred<string>();
    const b = deferred<string>();
    tools.adopt(job(1), new AbortController(), a.promise, settle);
    tools.adopt(job(2), new AbortController(), b.promise, settle);
    const first = tools.waitForCompleted(never, 60_000);
    const second = tools.waitForCompleted(never, 60_000);
    a.resolve("a");
    expect((await first).map((j) => j.outputId)).toEqual(["out_1"]);
    b.resolve("b");
    expect((await second).map((j) => j.outputId)).toEqual(["out_2"]);
  });

  it("reserve() holds places for time-triggered hand-overs; release() gives one back", () => {
    const tools = new BackgroundTools(2, () => 0);
    expect(tools.reserve()).toBe(true);
    expect(tools.reserve()).toBe(true);
    expect(tools.reserve()).toBe(false);
    tools.release();
    expect(tools.reserve()).toBe(true);
  });

  it("a job handed over after abortAll is aborted at once and recorded", async () => {
    const tools = new BackgroundTools(4, () => 0);
    await tools.abortAll("the session ended");
    expect(tools.reserve()).toBe(false);
    const controller = new AbortController();
    const work = new Promise((_, reject) =>
      controller.signal.addEventListener("abort", () => reject(controller.signal.reason)),
    );
    tools.adopt(job(1), controller, work, recorder().settle);
    const [done] = await tools.waitForCompleted(never, 1000);
    expect(done).toMatchObject({
      status: "aborted",
      error: "the session ended before the tool finished",
    });
  });
});

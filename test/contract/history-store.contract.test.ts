/**
 * The history store and extraction cache contract, run unchanged against SQLite and a real
 * PostgreSQL server: sessions, messages numbered without gaps even with two writers, tool
 * calls with their results, summaries (test/helpers/summary-contract.ts), and the cache.
 */
import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../../src/core/errors.js";
import { POSTGRES_ENGINE, SQLITE_ENGINE, STORE_ENGINES } from "../helpers/store-engines.js";
import { summaryContract } from "../helpers/summary-contract.js";
import { errorOf } from "../helpers/temp-store.js";

for (const engine of [SQLITE_ENGINE, POSTGRES_ENGINE])
  summaryContract(engine.name, async () => (await engine.openStores()).stores.history);

describe.each(STORE_ENGINES)("history store contract: $name", (engine) => {
  it("creates, reads, lists, pages and updates sessions", async () => {
    const { stores } = await engine.openStores();
    const { history } = stores;
    const parent = await history.createSession({
      id: "ses_parent",
      agentName: "triage",
      agentPath: "/agents/triage.md",
      prompt: "why did checkout fail?",
      settings: { models: ["a"] },
    });
    expect(parent).toMatchObject({
      id: "ses_parent",
      parentSessionId: null,
      status: "running",
      settings: { models: ["a"] },
      turns: 0,
      finalReport: null,
    });
    await history.createSession({
      id: "ses_child",
      parentSessionId: "ses_parent",
      parentToolCallId: "call_1",
      agentName: "reader",
      prompt: "read it",
      settings: {},
    });
    expect((await history.listSessions()).map((s) => s.id)).toEqual(["ses_child", "ses_parent"]);
    expect((await history.listSessions({ parentSessionId: null })).map((s) => s.id)).toEqual([
      "ses_parent",
    ]);
    expect((await history.listSessions({ parentSessionId: "ses_parent" }))[0]).toMatchObject({
      id: "ses_child",
      parentToolCallId: "call_1",
    });
    expect((await history.listSessions({ limit: 1, offset: 1 })).map((s) => s.id)).toEqual([
      "ses_parent",
    ]);
    await history.updateSession("ses_parent", {
      status: "completed",
      finalReport: "the card processor",
      turns: 3,
      accounting: { calls: 2 },
    });
    expect(await history.getSession("ses_parent")).toMatchObject({
      status: "completed",
      finalReport: "the card processor",
      turns: 3,
      accounting: { calls: 2 },
    });
    for (const attempt of [
      () => history.getSession("ses_nope"),
      () => history.updateSession("ses_nope", { turns: 1 }),
    ]) {
      const error = await errorOf(attempt());
      expect(isSpillwayError(error, "SESSION_NOT_FOUND")).toBe(true);
      expect((error as Error).message).toContain("ses_nope");
    }
  });

  it("pairs each tool call with its result message, once", async () => {
    const { stores } = await engine.openStores();
    const { history, outputs } = stores;
    await history.createSession({ id: "ses_t", agentName: "a", prompt: "p", settings: {} });
    await history.appendMessage("ses_t", 1, "assistant", [
      { type: "tool-call", toolCallId: "call_1", toolName: "fs__read", argsText: '{"path":"a"}' },
    ]);
    await history.startToolCall({
      sessionId: "ses_t",
      toolCallId: "call_1",
      turn: 1,
      toolName: "fs__read",
      argsText: '{"path":"a"}',
      startedAt: 5,
    });
    expect((await history.toolCalls("ses_t"))[0]).toMatchObject({
      status: "running",
      outputId: null,
    });
    const output = await outputs.put(
      { sessionId: "ses_t", toolName: "fs__read", toolArgs: '{"path":"a"}', toolCallId: "call_1" },
      "content",
    );
    const ref = { kind: "output", outputId: output.id, isError: false, shown: "inline" } as const;
    const message = await history.finishToolCall(
      "ses_t",
      "call_1",
      { status: "ok", outputId: output.id },
      { turn: 1, toolName: "fs__read", ref },
    );
    expect(message).toMatchObject({ seq: 2, role: "tool" });
    expect((await history.toolCalls("ses_t"))[0]).toMatchObject({
      status: "ok",
      outputId: output.id,
      argsText: '{"path":"a"}',
      startedAt: 5,
    });
    const twice = await errorOf(
      history.finishToolCall(
        "ses_t",
        "call_1",
        { status: "error", error: "x" },
        { turn: 1, toolName: "fs__read", ref },
      ),
    );
    expect(isSpillwayError(twice, "INVALID_ARGUMENT")).toBe(true);
    expect((await history.messages("ses_t")).map((m) => m.seq)).toEqual([1, 2]);
    expect((await history.messages("ses_t", { afterSeq: 1 }))[0]!.parts[0]).toMatchObject({
      type: "tool-result",
      result: ref,
    });
  });

  it("numbers one session's messages without gaps or repeats when two workers write at once", async () => {
    const { stores, again } = await engine.openStores();
    const other = await again();
    await stores.history.createSession({ id: "ses_w", agentName: "a", prompt: "p", settings: {} });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? other : stores).history.appendMessage("ses_w", i, "user", [
          { type: "text", text: `m${i}` },
        ]),
      ),
    );
    const messages = await other.history.messages("ses_w");
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(new Set(messages.map((m) => (m.parts[0] as { text: string }).text)).size).toBe(40);
  });

  it("caches extraction answers for every worker, and treats a damaged entry as a miss", async () => {
    const { stores, again } = await engine.openStores();
    await stores.extractionCache.put("k1", "result", { answer: 42 });
    await stores.extractionCache.putMany([
      { key: "k2", kind: "chunk", value: ["a"] },
      { key: "k1", kind: "result", value: { answer: 43 } },
    ]);
    const other = await again();
    expect(await other.extractionCache.get("k1")).toEqual({ answer: 43 });
    expect(await other.extractionCache.get("k2")).toEqual(["a"]);
    expect(await other.extractionCache.get("nope")).toBeUndefined();
  });

  it("leases a session to one holder at a time, renewed by it, taken over once it expires", async () => {
    const { stores, again } = await engine.openStores();
    const other = await again();
    const a = stores.leases!;
    const b = other.leases!;
    expect(await a.acquire("ses_l", "worker-a", 60_000)).toMatchObject({
      acquired: true,
      holder: "worker-a",
    });
    expect(await b.acquire("ses_l", "worker-b", 60_000)).toMatchObject({
      acquired: false,
      holder: "worker-a",
    });
    expect((await a.acquire("ses_l", "worker-a", 60_000)).acquired).toBe(true); // renewal
    await a.release("ses_l", "worker-b"); // not b's to release: nothing happens
    expect((await b.acquire("ses_l", "worker-b", 60_000)).acquired).toBe(false);
    await a.release("ses_l", "worker-a");
    expect((await b.acquire("ses_l", "worker-b", 1)).acquired).toBe(true);
    await new Promise((done) => setTimeout(done, 20)); // b's 1 ms lease has expired
    expect((await a.acquire("ses_l", "worker-a", 60_000)).acquired).toBe(true);
  });
});

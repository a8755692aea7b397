import { describe, expect, it } from "vitest";
import { onCleanup, tempDir } from "../../test/helpers/temp-store.js";
import { openSqliteStores } from "../store/sqlite-history-store.js";
import { sessionCounters, sessionHealth, storeCounters } from "./session-counters.js";

async function store() {
  const stores = await openSqliteStores({ home: await tempDir() });
  onCleanup(() => stores.close());
  return stores.history;
}

describe("session counters", () => {
  it("counts refetches, missing results and banners in canonical results, from the history", async () => {
    const history = await store();
    await history.createSession({ id: "ses_c", agentName: "a", prompt: "p", settings: {} });
    const call = async (
      turn: number,
      id: string,
      tool: string,
      args: string,
      text: string | null,
    ) => {
      await history.appendMessage("ses_c", turn, "assistant", [
        { type: "tool-call", toolCallId: id, toolName: tool, argsText: args },
      ]);
      await history.startToolCall({
        sessionId: "ses_c",
        toolCallId: id,
        turn,
        toolName: tool,
        argsText: args,
        startedAt: turn,
      });
      if (text === null) return;
      await history.finishToolCall(
        "ses_c",
        id,
        { status: "ok" },
        { turn, toolName: tool, ref: { kind: "retrieval", text } },
      );
    };
    await call(1, "c1", "fs__read", '{"path":"a"}', "a");
    await call(2, "c2", "fs__read", '{"path":"a"}', "a again");
    await call(
      3,
      "c3",
      "fs__read",
      '{"path":"b"}',
      "[an earlier read of out_x; removed from this context to make room: …]",
    );
    await call(4, "c4", "agent__task_status", '{"status":"x"}', "ok");
    await call(5, "c5", "agent__task_status", '{"status":"x"}', "ok");
    await call(6, "c6", "fs__read", '{"path":"c"}', null);
    await call(7, "c7", "fs__read", '{"path":"d"}', null);
    // While the session runs, the last turn's call is in flight; c6 has no result and is not.
    expect(await sessionCounters(history, "ses_c")).toEqual({
      toolCalls: 7,
      truncatedCanonicalWrites: 1,
      missingToolResults: 1,
      refetches: 1,
      compactions: 0,
      compactionFailures: 0,
      tokensSaved: 0,
    });
    await history.updateSession("ses_c", {
      status: "failed",
      accounting: { total: {}, compaction: { compactions: 0, failures: 2, tokensSaved: 0 } },
    });
    expect(await sessionCounters(history, "ses_c")).toMatchObject({
      missingToolResults: 2,
      compactionFailures: 2,
    });
    await history.createSession({ id: "ses_d", agentName: "a", prompt: "p", settings: {} });
    await history.appendMessage("ses_d", 1, "user", [{ type: "text", text: "x" }]);
    await history.appendSummary({
      sessionId: "ses_d",
      fromSeq: 1,
      throughSeq: 1,
      fromTurn: 1,
      throughTurn: 1,
      summary: "s",
      text: "t",
      calls: [],
      indexOutputId: null,
      model: "m",
      tokensBefore: 900,
      tokensAfter: 300,
      textTokens: 10,
    });
    const all = await storeCounters(history);
    expect(all.sessions).toBe(2);
    expect(all.total).toMatchObject({
      toolCalls: 7,
      compactions: 1,
      tokensSaved: 600,
      compactionFailures: 2,
    });
    const health = await sessionHealth(history, "ses_d");
    expect(health).toMatchObject({
      status: "running",
      context: null,
      counters: { compactions: 1 },
    });
    expect(health.compactions[0]).toMatchObject({
      seq: 1,
      tokensBefore: 900,
      tokensAfter: 300,
      coveredCalls: 0,
    });
    expect(health.compactions[0]).not.toHaveProperty("text");
  });
});

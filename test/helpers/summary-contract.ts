import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../../src/core/errors.js";
import type { HistoryStore, NewSummary } from "../../src/store/history.js";

/**
 * The history store's contract for compaction summaries and incremental message reads, for
 * every engine (SQLite here; PostgreSQL runs the same cases).
 */
export function summaryContract(name: string, open: () => Promise<HistoryStore>): void {
  async function sessionWith(history: HistoryStore, messages: number): Promise<string> {
    const id = `ses_${Math.random().toString(36).slice(2)}`;
    await history.createSession({ id, agentName: "contract", prompt: "task", settings: {} });
    for (let i = 1; i <= messages; i++)
      await history.appendMessage(id, i, i % 2 === 1 ? "assistant" : "user", [
        { type: "text", text: `m${i}` },
      ]);
    return id;
  }

  function summary(sessionId: string, fromSeq: number, throughSeq: number): NewSummary {
    return {
      sessionId,
      fromSeq,
      throughSeq,
      fromTurn: fromSeq,
      throughTurn: throughSeq,
      summary: `summary of ${fromSeq}-${throughSeq}`,
      text: `[spillway] Summary of earlier work\n\nsummary of ${fromSeq}-${throughSeq}`,
      calls: [
        {
          turn: fromSeq,
          toolCallId: "call_1",
          toolName: "fs__read",
          argsText: '{"path":"a.log"}',
          outputIds: ["out_aaaaaaaaaaaaaaaaaaaaaaaaaa"],
          isError: false,
        },
      ],
      indexOutputId: null,
      model: "openai/gpt-4.1",
      tokensBefore: 9000,
      tokensAfter: 4000,
      textTokens: 300,
    };
  }

  async function rejected(work: Promise<unknown>): Promise<string> {
    try {
      await work;
    } catch (error) {
      if (isSpillwayError(error, "INVALID_ARGUMENT")) return error.message;
      throw error;
    }
    throw new Error("expected INVALID_ARGUMENT");
  }

  describe(`${name}: compaction summaries`, () => {
    it("stores summaries as records of their own, numbered per session, read back whole", async () => {
      const history = await open();
      const id = await sessionWith(history, 10);
      const before = await history.messages(id);
      const first = await history.appendSummary(summary(id, 2, 5));
      const second = await history.appendSummary(summary(id, 6, 8));
      expect(first.seq).toBe(1);
      expect(second.seq).toBe(2);
      expect(await history.summaries(id)).toEqual([first, second]);
      expect(second).toMatchObject({ ...summary(id, 6, 8), seq: 2 });
      expect(await history.messages(id)).toEqual(before);
      expect(await history.summaries("ses_other")).toEqual([]);
    });

    it("rejects a range summarized already, an empty range, and one past the last message", async () => {
      const history = await open();
      const id = await sessionWith(history, 10);
      await history.appendSummary(summary(id, 2, 5));
      expect(await rejected(history.appendSummary(summary(id, 5, 7)))).toContain(
        "nothing is summarized twice",
      );
      expect(await rejected(history.appendSummary(summary(id, 1, 3)))).toContain("already covers");
      expect(await rejected(history.appendSummary(summary(id, 7, 6)))).toContain("empty");
      expect(await rejected(history.appendSummary(summary(id, 6, 11)))).toContain(
        "only 10 messages",
      );
      expect((await history.summaries(id)).length).toBe(1);
    });

    it("reads messages after a sequence number, and at most a limit", async () => {
      const history = await open();
      const id = await sessionWith(history, 6);
      expect((await history.messages(id, { afterSeq: 4 })).map((m) => m.seq)).toEqual([5, 6]);
      expect((await history.messages(id, { limit: 2 })).map((m) => m.seq)).toEqual([1, 2]);
      expect((await history.messages(id, { afterSeq: 2, limit: 1 })).map((m) => m.seq)).toEqual([
        3,
      ]);
      expect(await history.messages(id, { afterSeq: 6 })).toEqual([]);
    });
  });
}

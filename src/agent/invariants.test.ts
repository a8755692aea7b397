import { describe, expect, it } from "vitest";
import { onCleanup, tempDir } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { openSqliteStores } from "../store/sqlite-history-store.js";
import {
  asProjection,
  checkStoredWhole,
  GuardedHistoryStore,
  type InvariantViolation,
  projectionBannerIn,
} from "./invariants.js";

async function guarded(strict: boolean) {
  const stores = await openSqliteStores({ home: await tempDir() });
  onCleanup(() => stores.close());
  const violations: InvariantViolation[] = [];
  const history = new GuardedHistoryStore(stores.history, (v) => violations.push(v), strict);
  await history.createSession({ id: "ses_g", agentName: "a", prompt: "p", settings: {} });
  return { stores, history, violations };
}

async function codeOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    if (isSpillwayError(error)) return error.code;
    throw error;
  }
}

describe("transport_truncation_must_not_mutate_canonical_history", () => {
  it("refuses every history write from inside a projection, allows reads and the summary record", async () => {
    const { history, violations } = await guarded(false);
    await history.appendMessage("ses_g", 1, "assistant", [{ type: "text", text: "before" }]);
    await asProjection("sse", async () => {
      expect(await history.messages("ses_g")).toHaveLength(1);
      expect(await codeOf(history.appendMessage("ses_g", 1, "user", []))).toBe(
        "INVARIANT_VIOLATED",
      );
      expect(await codeOf(history.updateSession("ses_g", { turns: 3 }))).toBe("INVARIANT_VIOLATED");
      expect(
        await codeOf(
          history.startToolCall({
            sessionId: "ses_g",
            toolCallId: "c",
            turn: 1,
            toolName: "t",
            argsText: "{}",
            startedAt: 0,
          }),
        ),
      ).toBe("INVARIANT_VIOLATED");
      const summary = await history.appendSummary({
        sessionId: "ses_g",
        fromSeq: 1,
        throughSeq: 1,
        fromTurn: 1,
        throughTurn: 1,
        summary: "s",
        text: "t",
        calls: [],
        indexOutputId: null,
        model: "m",
        tokensBefore: 2,
        tokensAfter: 1,
        textTokens: 1,
      });
      expect(summary.seq).toBe(1);
    });
    expect(violations.map((v) => [v.invariant, v.details.projection, v.details.operation])).toEqual(
      [
        ["transport_truncation_must_not_mutate_canonical_history", "sse", "appendMessage"],
        ["transport_truncation_must_not_mutate_canonical_history", "sse", "updateSession"],
        ["transport_truncation_must_not_mutate_canonical_history", "sse", "startToolCall"],
      ],
    );
    // Outside the projection, writes work again, and nothing was written inside it.
    await history.appendMessage("ses_g", 2, "user", [{ type: "text", text: "after" }]);
    expect((await history.messages("ses_g")).map((m) => m.seq)).toEqual([1, 2]);
  });
});

describe("canonical_tool_result_is_lossless", () => {
  const banner =
    "[shown earlier; removed from this context to make room] The output of t is stored whole as out_x";

  it("finds the projection's banners, not ordinary text about truncation", () => {
    expect(projectionBannerIn(banner)).toBe("removed from this context to make room");
    expect(
      projectionBannerIn("[truncated — showing 4000/9000 chars. Call get_continuation with …]"),
    ).toBeDefined();
    // A truncate read's answer (asked for, canonical) carries the head-and-tail marker.
    expect(
      projectionBannerIn("[… truncated: 1,200 of 9,000 characters omitted here (chars 3-9)"),
    ).toBeUndefined();
    expect(projectionBannerIn('{"truncatedContentId":"x"}')).toBe("truncatedContentId");
    expect(projectionBannerIn("the log was truncated at 09:00; 12 lines omitted")).toBeUndefined();
  });

  it("reports a canonical result that carries a banner, and throws when strict (nothing written)", async () => {
    for (const strict of [false, true]) {
      const { history, violations } = await guarded(strict);
      await history.appendMessage("ses_g", 1, "assistant", [
        { type: "tool-call", toolCallId: "c1", toolName: "get_tool_output", argsText: "{}" },
      ]);
      await history.startToolCall({
        sessionId: "ses_g",
        toolCallId: "c1",
        turn: 1,
        toolName: "get_tool_output",
        argsText: "{}",
        startedAt: 0,
      });
      const write = history.finishToolCall(
        "ses_g",
        "c1",
        { status: "ok" },
        { turn: 1, toolName: "get_tool_output", ref: { kind: "retrieval", text: banner } },
      );
      expect(await codeOf(write)).toBe(strict ? "INVARIANT_VIOLATED" : undefined);
      expect(violations).toHaveLength(1);
      expect(violations[0]!.invariant).toBe("canonical_tool_result_is_lossless");
      expect((await history.messages("ses_g")).length).toBe(strict ? 1 : 2);
    }
  });

  it("checks that a result's records hold every byte the tool produced", () => {
    const record = {
      id: "out_a",
      toolName: "t",
      status: "ready",
      sha256: "ab",
      byteSize: 10,
    } as Parameters<typeof checkStoredWhole>[0][number];
    expect(checkStoredWhole([record], 10)).toBeUndefined();
    expect(checkStoredWhole([record], 11)?.details).toEqual({
      outputIds: ["out_a"],
      storedBytes: 10,
      receivedBytes: 11,
    });
    expect(
      checkStoredWhole([{ ...record, status: "running", sha256: null }], 10)?.message,
    ).toContain("not complete");
  });
});

import { describe, expect, it } from "vitest";
import { tempStore } from "../../test/helpers/temp-store.js";
import type { AgentEvent } from "../agent/events.js";
import { projectEvent } from "./event-projection.js";

const base = { sessionId: "ses_p", depth: 0 } as const;

async function setup() {
  const { store } = await tempStore();
  const options = {
    outputs: store,
    previewChars: 100,
    contextWindowOf: async () => 1000,
    thresholdsOf: async () => ({ warn: 0.5, compact: 0.6, hard: 0.7 }),
  };
  return { store, options };
}

describe("SSE projection of agent events", () => {
  it("gives tool results a display-limited preview with explicit metadata", async () => {
    const { store, options } = await setup();
    const text = "é".repeat(5000);
    const record = await store.put({ sessionId: "ses_p", toolName: "t", toolArgs: "{}" }, text);
    const [event] = await projectEvent(options, {
      ...base,
      type: "tool.end",
      turn: 1,
      toolCallId: "c1",
      toolName: "t",
      status: "ok",
      durationMs: 5,
      outputId: record.id,
      shown: "handle",
    });
    expect(event).toMatchObject({
      type: "tool.end",
      shown: "handle",
      result: {
        preview: true,
        outputId: record.id,
        totalBytes: 10_000,
        bytesShown: 200,
        text: "é".repeat(100),
      },
    });
  });

  it("reports the context window with the session's thresholds, and passes compaction and context status through", async () => {
    const { options } = await setup();
    const projected = await projectEvent(options, {
      ...base,
      type: "model.call",
      turn: 2,
      model: "m",
      inputTokens: 550,
      outputTokens: 50,
      costUsd: null,
      latencyMs: 1,
      toolCalls: 0,
    });
    expect(projected.map((e) => e.type)).toEqual(["model.call", "context"]);
    expect(projected[1]).toMatchObject({
      fraction: 0.6,
      level: "compact",
      label: "warns at 50%, compacts at 60%, hard limit 70%",
    });
    // Events a compacting session reports (not emitted by the agent layer yet) keep their data.
    const compaction = await projectEvent(options, {
      ...base,
      type: "compaction.end",
      summarizedTurns: 3,
    } as unknown as AgentEvent & { depth: number });
    expect(compaction[0]).toMatchObject({
      type: "compaction",
      kind: "compaction.end",
      summarizedTurns: 3,
    });
    const status = await projectEvent(options, {
      ...base,
      type: "context.status",
      usedTokens: 10,
      thresholds: { warn: 0.7, compact: 0.8, hard: 0.9 },
    } as unknown as AgentEvent & { depth: number });
    expect(status[0]).toMatchObject({ type: "context", thresholds: { warn: 0.7 } });
  });

  it("cuts a long final report for display and says so", async () => {
    const { options } = await setup();
    const [event] = await projectEvent(options, {
      ...base,
      type: "session.end",
      status: "completed",
      report: "r".repeat(1000),
      error: null,
      usage: { own: {}, children: {}, total: {}, byModel: {} } as never,
    });
    expect(event).toMatchObject({
      type: "final",
      reportPreview: { preview: true, totalChars: 1000, charsShown: 400 },
    });
    expect(event?.report).toHaveLength(400);
  });
});

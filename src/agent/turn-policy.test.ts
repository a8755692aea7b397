/**
 * planTurn: which tools the next call lists and whether it must be a tool call.
 */
import { describe, expect, it } from "vitest";
import type { SessionContext } from "./session-context.js";
import { decideReply, planTurn } from "./turn-policy.js";

const handler = (name: string, kind: string) => ({ kind, definition: { name } });

function contextWith(
  settings: Record<string, unknown>,
  state: Record<string, unknown> = {},
  backgroundJobs = 0,
): SessionContext {
  const tools = new Map(
    [
      handler("fs__read_text_file", "mcp"),
      handler("agent__final_report", "internal"),
      handler("get_tool_output", "surface"),
      handler("wait_for_tool_output", "internal"),
    ].map((h) => [h.definition.name, h]),
  );
  return {
    tools,
    surface: { name: "get_tool_output", alwaysListed: true },
    background: { jobs: () => Array.from({ length: backgroundJobs }, () => ({})) },
    settings: { maxTurns: 10, toolOutput: { enabled: true }, ...settings },
    state: {
      turn: 0,
      modelCalls: 0,
      budgetExhausted: false,
      stopRequested: false,
      hasStoredOutputs: false,
      lastReplyEmpty: false,
      lastReplyText: false,
      ...state,
    },
  } as unknown as SessionContext;
}

const names = (context: SessionContext) => planTurn(context).tools.map((t) => t.name);

describe("planTurn", () => {
  it("lists the surface from the first turn by default, and waiting once a tool went on in the background", () => {
    expect(names(contextWith({}))).toEqual([
      "fs__read_text_file",
      "agent__final_report",
      "get_tool_output",
    ]);
    expect(names(contextWith({}, {}, 1))).toEqual([
      "fs__read_text_file",
      "agent__final_report",
      "get_tool_output",
      "wait_for_tool_output",
    ]);
  });

  it("with surfaceFromFirstTurn false, lists the surface once an output is stored", () => {
    expect(names(contextWith({ surfaceFromFirstTurn: false }))).toEqual([
      "fs__read_text_file",
      "agent__final_report",
    ]);
    expect(names(contextWith({ surfaceFromFirstTurn: false }, { hasStoredOutputs: true }))).toEqual(
      ["fs__read_text_file", "agent__final_report", "get_tool_output"],
    );
    expect(
      names(contextWith({ surfaceFromFirstTurn: false }, { hasStoredOutputs: true }, 2)),
    ).toEqual([
      "fs__read_text_file",
      "agent__final_report",
      "get_tool_output",
      "wait_for_tool_output",
    ]);
  });

  it("requires a tool call with textReplies none and after an empty or to-be-confirmed reply; the last turn is an ordinary one", () => {
    expect(planTurn(contextWith({})).requireToolCall).toBe(false);
    expect(planTurn(contextWith({ textReplies: "confirm" })).requireToolCall).toBe(false);
    expect(planTurn(contextWith({ textReplies: "none" })).requireToolCall).toBe(true);
    expect(planTurn(contextWith({}, { lastReplyEmpty: true })).requireToolCall).toBe(true);
    expect(planTurn(contextWith({}, { lastReplyText: true })).requireToolCall).toBe(true);
    const last = planTurn(contextWith({}, { turn: 9 }));
    expect(last.final).toBe(true);
    expect(last.requireToolCall).toBe(false);
    expect(planTurn(contextWith({ textReplies: "none" }, { turn: 9 })).requireToolCall).toBe(true);
    // The same tools as the turn before: the prompt's prefix holds.
    expect(last.tools.map((t) => t.name)).toEqual(names(contextWith({})));
    expect(last.requiredTool).toBeUndefined();
  });

  it("after a stop, with the context full, or with the original texts, the last turn allows only the report", () => {
    for (const state of [{ stopRequested: true }, { budgetExhausted: true }]) {
      const last = planTurn(contextWith({}, state));
      expect(last.final).toBe(true);
      expect(last.tools.map((t) => t.name)).toEqual(["agent__final_report"]);
      // Listed: what the turn before listed (the prompt's prefix holds); required: the report.
      expect(last.offered?.map((t) => t.name)).toEqual(names(contextWith({})));
      expect(last.requiredTool).toBe("agent__final_report");
      expect(last.requireToolCall).toBe(true);
    }
    expect(planTurn(contextWith({})).offered).toBeUndefined();
    // Sessions with the original designs' texts keep their rule (D0-14).
    const compatibilityTexts = { async: { enabled: true, readyMessage: "ready-menu" } };
    expect(planTurn(contextWith(compatibilityTexts, { turn: 9 })).requiredTool).toBe(
      "agent__final_report",
    );
  });

  it("with textReplies none, text that comes anyway is asked to be confirmed, once", () => {
    const reply = { text: "The answer is 42.", toolCalls: [] } as unknown as Parameters<
      typeof decideReply
    >[0];
    expect(decideReply(reply, contextWith({ textReplies: "none" }), { final: false }).kind).toBe(
      "confirm",
    );
    expect(
      decideReply(reply, contextWith({ textReplies: "none" }, { lastReplyText: true }), {
        final: false,
      }),
    ).toEqual({ kind: "final", report: "The answer is 42." });
  });
});

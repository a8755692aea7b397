/**
 * A call that already returned the same result twice is not run a third time, and the next turn
 * allows only the report (SW-58); calls whose results differ, and sessions with the switch off,
 * run every call.
 */
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import {
  type ChatRequest,
  type Responder,
  toolCall,
  toolMessages,
  toolNames,
} from "../testing/index.js";
import type { CallResult } from "./call-result.js";
import { rememberCallResult, stopRepeatedCall } from "./repeat-stop.js";
import { runAgent } from "./run-agent.js";
import { newSessionState, type SessionContext } from "./session-context.js";

const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];
const STOPPED = /^\[You made this same call in turns (\d+) and (\d+), and it returned the same/;

/**
 * Generates a large log, then repeats one call until it may call only the report, which quotes
 * the last tool message.
 */
function looping(call: (id: string) => [string, Record<string, unknown>]): Responder {
  return (request, context) => {
    if (context.callIndex === 0)
      return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
    if (!toolNames(request).includes("get_tool_output"))
      return toolCall("agent__final_report", { report: "done" });
    const [name, args] = call(idOf(toolMessages(request)[0]!.text));
    return toolCall(name, args);
  };
}

async function run(respond: Responder, repeatStop = true) {
  const seen: ChatRequest[] = [];
  const fixture = await agentFixture((request, context) => {
    seen.push(request);
    return respond(request, context);
  });
  const agent = await fixture.agent(`repeat-${repeatStop}`, {
    mcpServers: { test: testServerSpec() },
    maxTurns: 10,
    ...(repeatStop ? {} : { guidance: { repeatStop: false } }),
  });
  const result = await runAgent({ agent, prompt: "go", stores: fixture.stores, cwd: fixture.dir });
  const calls = await fixture.stores.history.toolCalls(result.sessionId);
  return { result, seen, calls };
}

const grep = (id: string): [string, Record<string, unknown>] => [
  "get_tool_output",
  { id, mode: "grep", pattern: "ERROR" },
];

describe("a call that returned the same result twice", () => {
  it("is not run a third time, and the next turn allows only the report", async () => {
    const { result, seen, calls } = await run(looping(grep));
    // Requests: generate, grep (turn 2), the same grep (turn 3, the unchanged-read note), the
    // third (stopped), then the report, the only tool the turn allows.
    expect(seen).toHaveLength(5);
    const shown = toolMessages(seen[4]!).map((m) => m.text);
    expect(shown[3]).toMatch(STOPPED);
    expect(STOPPED.exec(shown[3]!)!.slice(1)).toEqual(["2", "3"]);
    expect(toolNames(seen[4]!)).toEqual(["agent__final_report"]);
    expect(toolNames(seen[3]!)).toContain("get_tool_output");
    expect(result.status).toBe("completed");
    expect(result.report).toBe("done");
    expect(calls.map((c) => `${c.toolName}:${c.status}`)).toEqual([
      "test__generate_output:ok",
      "get_tool_output:ok",
      "get_tool_output:ok",
      "get_tool_output:ok",
      "agent__final_report:ok",
    ]);
  });

  it("stops a server tool's call too, its results compared by content", async () => {
    let calls = 0;
    const { seen } = await run((request, context) => {
      if (!toolNames(request).includes("test__echo") || toolNames(request).length === 1)
        return toolCall("agent__final_report", { report: "hello" });
      calls = context.callIndex + 1;
      return toolCall("test__echo", { text: "hello" });
    });
    expect(calls).toBe(3);
    expect(toolMessages(seen[3]!).at(-1)!.text).toMatch(STOPPED);
    expect(STOPPED.exec(toolMessages(seen[3]!).at(-1)!.text)!.slice(1)).toEqual(["1", "2"]);
    expect(toolNames(seen[3]!)).toEqual(["agent__final_report"]);
  });

  it("stops a call to a tool the session does not have, repeated with the same arguments", async () => {
    let calls = 0;
    const { seen, result } = await run((request, context) => {
      if (toolNames(request).length === 1)
        return toolCall("agent__final_report", { report: "no answer" });
      calls = context.callIndex + 1;
      return toolCall("unknown_tool", { message: "There is no tool named 'unknown_tool'." });
    });
    expect(calls).toBe(3);
    const last = toolMessages(seen[3]!).at(-1)!.text;
    expect(STOPPED.exec(last)!.slice(1)).toEqual(["1", "2"]);
    expect(toolMessages(seen[2]!).at(-1)!.text).toContain('There is no tool named "unknown_tool"');
    expect(toolNames(seen[3]!)).toEqual(["agent__final_report"]);
    expect(result.report).toBe("no answer");
  });

  it("runs every call with the switch off, until the turns run out", async () => {
    const { result, seen } = await run(looping(grep), false);
    expect(seen).toHaveLength(10);
    expect(toolMessages(seen[9]!).some((m) => STOPPED.test(m.text))).toBe(false);
    expect(result.status).toBe("failed");
  });
});

describe("stopRepeatedCall", () => {
  const call: ModelToolCall = {
    toolCallId: "call_1",
    toolName: "fs__list",
    argsText: '{"path":"."}',
    args: { path: "." },
  };
  const allowed = new Set(["fs__list", "wait_for_tool_output"]);
  function context() {
    return {
      sessionId: "s",
      tools: new Map([["fs__list", { kind: "mcp" }]]),
      settings: {},
      state: newSessionState(),
    } as unknown as SessionContext;
  }
  /** A stored result: its own id, and the hash of its content. */
  const output = (outputId: string, contentSha256: string): CallResult => ({
    ref: { kind: "output", outputId, isError: false, shown: "inline" },
    status: "ok",
    storedBytes: 1,
    contentSha256,
  });

  it("lets a call whose results differ run again and again", async () => {
    const ctx = context();
    for (const [turn, id, hash] of [
      [1, "a", "1"],
      [2, "b", "2"],
      [3, "c", "1"],
    ] as const) {
      expect(stopRepeatedCall(ctx, call, allowed)).toBeUndefined();
      rememberCallResult(ctx, call, turn, output(id, hash));
    }
    // The last two differ (2, then 1): still running.
    expect(stopRepeatedCall(ctx, call, allowed)).toBeUndefined();
    rememberCallResult(ctx, call, 4, output("d", "1"));
    // Now turns 3 and 4 returned the same content under different ids.
    expect(stopRepeatedCall(ctx, call, allowed)?.ref).toMatchObject({ kind: "note" });
    expect(ctx.state.repeatStopped).toBe(true);
  });

  it("counts the same error twice as the same result, and other arguments apart", async () => {
    const ctx = context();
    const error: CallResult = {
      ref: { kind: "error", code: "INVALID_ARGUMENT", message: "no such path" },
      status: "error",
      storedBytes: 0,
    };
    rememberCallResult(ctx, call, 1, error);
    rememberCallResult(ctx, call, 2, error);
    const other = { ...call, args: { path: "src" }, argsText: '{"path":"src"}' };
    expect(stopRepeatedCall(ctx, other, allowed)).toBeUndefined();
    expect(stopRepeatedCall(ctx, { ...call, args: { path: "." } }, allowed)).toBeDefined();
    // A call the turn does not allow keeps its own error.
    expect(stopRepeatedCall(ctx, call, new Set())).toBeUndefined();
  });

  it("never stops a tool the session does not count: background waits, the report", async () => {
    const ctx = context();
    const wait = { ...call, toolName: "wait_for_tool_output" };
    (ctx.tools as Map<string, unknown>).set("wait_for_tool_output", { kind: "internal" });
    const note: CallResult = {
      ref: { kind: "note", text: "still running" },
      status: "ok",
      storedBytes: 0,
    };
    for (const turn of [1, 2, 3]) rememberCallResult(ctx, wait, turn, note);
    expect(stopRepeatedCall(ctx, wait, allowed)).toBeUndefined();
  });
});

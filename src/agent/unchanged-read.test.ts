/**
 * A read of a stored output repeating an earlier read whose result the model was sent whole is
 * answered with a one-line note, not the same text again (SW-56); anything else runs.
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
import { runAgent } from "./run-agent.js";
import type { SessionContext } from "./session-context.js";
import { answerUnchangedRead, readKey } from "./unchanged-read.js";

const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];
const SAME_CALL = /^\[This is the same call as your turn (\d+), on a stored output/;

/** Generates a large log, then plays `reads` (given the output's id), then reports. */
function policy(reads: ((id: string) => Record<string, unknown>)[], report?: string): Responder {
  return (request, context) => {
    if (context.callIndex === 0)
      return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
    const read = reads[context.callIndex - 1];
    if (read && toolNames(request).includes("get_tool_output"))
      return toolCall("get_tool_output", read(idOf(toolMessages(request)[0]!.text)));
    return toolCall("agent__final_report", {
      report: report ?? toolMessages(request).at(-1)!.text,
    });
  };
}

async function run(respond: Responder, unchangedReads = true) {
  const requests: ChatRequest[] = [];
  const fixture = await agentFixture((request, context) => {
    requests.push(request);
    return respond(request, context);
  });
  const agent = await fixture.agent(`unchanged-${unchangedReads}`, {
    mcpServers: { test: testServerSpec() },
    maxTurns: 8,
    // Alone: a third identical read would otherwise be stopped (repeat-stop.test.ts).
    guidance: { repeatStop: false, ...(unchangedReads ? {} : { unchangedReads: false }) },
  });
  const result = await runAgent({ agent, prompt: "go", stores: fixture.stores, cwd: fixture.dir });
  return { fixture, result, requests };
}

const grep = (pattern: string) => (id: string) => ({ id, mode: "grep", pattern });

describe("a read repeating one the model still has", () => {
  it("is answered with a note naming the turn, keys in any order, and costs less", async () => {
    const reads = [
      grep("ERROR"),
      (id: string) => ({ pattern: "ERROR", mode: "grep", id }),
      grep("ERROR"),
    ];
    const on = await run(policy(reads));
    const off = await run(policy(reads), false);
    const shown = toolMessages(on.requests[4]!).map((m) => m.text);
    expect(shown[1]).toContain('grep "ERROR"');
    expect(shown[2]).toMatch(SAME_CALL);
    expect(SAME_CALL.exec(shown[2]!)![1]).toBe("2");
    expect(shown[3]).toMatch(SAME_CALL);
    const offShown = toolMessages(off.requests[4]!).map((m) => m.text);
    expect(offShown[2]).toBe(offShown[1]);
    expect(offShown[3]).toBe(offShown[1]);
    const chars = (request: ChatRequest) =>
      toolMessages(request).reduce((sum, m) => sum + m.text.length, 0);
    expect(chars(on.requests[4]!)).toBeLessThan(chars(off.requests[4]!) - offShown[1]!.length);
    const calls = await on.fixture.stores.history.toolCalls(on.result.sessionId);
    // Answered, not failed: the history records the repeats as calls that succeeded.
    expect(calls.slice(0, 4).map((c) => `${c.toolName}:${c.status}`)).toEqual([
      "test__generate_output:ok",
      "get_tool_output:ok",
      "get_tool_output:ok",
      "get_tool_output:ok",
    ]);
  });

  it("runs a different read, and the same read again after it", async () => {
    const { requests } = await run(policy([grep("ERROR"), grep("WARN"), grep("ERROR")]));
    const shown = toolMessages(requests[4]!).map((m) => m.text);
    expect(shown[2]).toContain('grep "WARN"');
    // Not a run of repeats, but the same call as turn 2, whose result is still in view.
    expect(shown[3]).toMatch(SAME_CALL);
  });

  it("runs a session-wide search (no id) every time: new outputs change its answer", async () => {
    const search = () => ({ mode: "search", query: "ERROR" });
    const { requests } = await run(policy([search, search]));
    const shown = toolMessages(requests[3]!).map((m) => m.text);
    expect(shown[1]).toContain("search of this session's");
    expect(shown[2]).toBe(shown[1]);
  });

  it("sends back a report that copies the note", async () => {
    const { result, requests } = await run(policy([grep("ERROR"), grep("ERROR")]));
    // Requests: generate, grep, the same grep, the report copying the note, the report again.
    expect(toolMessages(requests[4]!).at(-1)!.text).toMatch(/^Not delivered/);
    expect(result.report ?? "").not.toMatch(SAME_CALL);
  });
});

describe("answerUnchangedRead", () => {
  const call: ModelToolCall = {
    toolCallId: "call_9",
    toolName: "get_tool_output",
    argsText: '{"id":"out_1","mode":"grep","pattern":"x"}',
    args: { id: "out_1", mode: "grep", pattern: "x" },
  };
  const contextWith = (inView: string[]) =>
    ({
      tools: new Map([["get_tool_output", { kind: "surface" }]]),
      settings: {},
      state: {
        outputReads: new Map([
          [readKey(call.toolName, call.args), { toolCallId: "call_2", turn: 2 }],
        ]),
        resultsInView: new Set(inView),
      },
    }) as unknown as SessionContext;
  const allowed = new Set(["get_tool_output"]);

  it("answers only while the earlier result is sent whole", () => {
    expect(answerUnchangedRead(contextWith(["call_2"]), call, allowed)?.ref).toMatchObject({
      kind: "note",
    });
    // Compacted away or shortened to its handle form: the read runs.
    expect(answerUnchangedRead(contextWith([]), call, allowed)).toBeUndefined();
  });

  it("leaves a call the turn does not allow to its own error", () => {
    expect(answerUnchangedRead(contextWith(["call_2"]), call, new Set())).toBeUndefined();
  });
});

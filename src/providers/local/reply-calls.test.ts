import { describe, expect, it } from "vitest";
import { forcedCall } from "./forced-call.js";
import { replyCallIds, replyContent } from "./reply-calls.js";
import { toGbnfSchema, toolsTakingNoArguments } from "./tool-schema.js";

const known = new Set(["grep", "agent__final_report"]);
/** Call ids as the provider draws them, from a prompt of a few tokens. */
const callId = replyCallIds([151644, 8948, 198]);
const qwen = { prefix: '<tool_call>\n{"name": "', paramsPrefix: '", "arguments": ' };

describe("replyContent", () => {
  it("native calls come with the reply's text", () => {
    const { content, source } = replyContent(
      { text: "Looking.", nativeCalls: [{ functionName: "grep", params: { pattern: "E" } }] },
      { known, recover: true, callId },
    );
    expect(source).toBe("native");
    expect(content).toMatchObject([
      { type: "text", text: "Looking." },
      { type: "tool-call", toolName: "grep", input: '{"pattern":"E"}' },
    ]);
  });

  it("a started call is read from what the model wrote after the prefill", () => {
    const forced = forcedCall(qwen, [
      {
        name: "agent__final_report",
        params: { type: "object", properties: { report: { type: "string" } } },
      },
    ]);
    const { content, source } = replyContent(
      { text: 'E-7734"}}', nativeCalls: [] },
      { known, recover: true, forced, callId },
    );
    expect(source).toBe("forced");
    expect(content).toMatchObject([
      { type: "tool-call", toolName: "agent__final_report", input: '{"report":"E-7734"}' },
    ]);
  });

  it("a started call stays a call: an unknown tool's, a cut report's, other cut arguments", () => {
    const forced = forcedCall(qwen, [
      {
        name: "grep",
        params: {
          type: "object",
          properties: { pattern: { type: "string" }, context: { type: "integer" } },
        },
      },
      {
        name: "agent__final_report",
        params: { type: "object", properties: { report: { type: "string" } } },
      },
    ]);
    const read = (text: string) =>
      replyContent({ text, nativeCalls: [] }, { known, recover: true, forced, callId });
    // A tool the model was not given, with arguments that are not an object.
    expect(read('test_01", "arguments": null}\n</tool_call>')).toEqual({
      source: "forced",
      content: [expect.objectContaining({ type: "tool-call", toolName: "test_01", input: "null" })],
    });
    // A report cut by the length limit inside its string: the report as written up to there.
    const cut =
      'agent__final_report", "arguments": {"report": "The trace id 0941 called /api/v1/orders/00494. The trace id';
    expect(read(cut).content).toMatchObject([
      {
        toolName: "agent__final_report",
        input: JSON.stringify({
          report: "The trace id 0941 called /api/v1/orders/00494. The trace id",
        }),
      },
    ]);
    // Another tool's arguments cut short: the call as written, for an error naming it.
    expect(read('grep", "arguments": {"pattern": "ERR').content).toMatchObject([
      { toolName: "grep", input: '{"pattern": "ERR' },
    ]);
    // No tool name to read: the reply stays text.
    expect(read("1}")).toEqual({ source: "none", content: [{ type: "text", text: "1}" }] });
  });

  it("a JSON call written as text is recovered, broken arguments included; prose stays text", () => {
    expect(
      replyContent(
        { text: '{"name": "grep", "arguments": {"x"}}', nativeCalls: [] },
        { known, recover: true, callId },
      ),
    ).toMatchObject({ source: "recovered", content: [{ toolName: "grep", input: '{"x"}' }] });
    expect(
      replyContent(
        { text: '{"name": "grep", "arguments": {}}', nativeCalls: [] },
        { known, recover: false, callId },
      ),
    ).toMatchObject({ source: "none", content: [{ type: "text" }] });
    expect(replyContent({ text: "", nativeCalls: [] }, { known, recover: true, callId })).toEqual({
      content: [],
      source: "none",
    });
  });

  it("a tool that takes no arguments is called with none, however the call was written", () => {
    const functions = {
      read_log: { params: toGbnfSchema({ type: "object", properties: {} }) },
      grep: { params: toGbnfSchema({ type: "object", properties: { pattern: {} } }) },
      agent__final_report: { params: toGbnfSchema({ type: "object" }) },
    };
    const takeNoArguments = toolsTakingNoArguments(functions);
    expect([...takeNoArguments]).toEqual(["read_log"]);
    const tools = new Set(Object.keys(functions));
    const forced = forcedCall(
      qwen,
      Object.entries(functions).map(([name, { params }]) => ({ name, params })),
    );
    const started = replyContent(
      { text: 'read_log", "arguments": {"log": "incident ID 12345"}}', nativeCalls: [] },
      { known: tools, recover: true, forced, takeNoArguments, callId },
    );
    expect(started).toMatchObject({
      source: "forced",
      content: [{ type: "tool-call", toolName: "read_log", input: "{}" }],
    });
    const written = replyContent(
      { text: '{"name": "read_log", "arguments": {"log": "12345"}}', nativeCalls: [] },
      { known: tools, recover: true, takeNoArguments, callId },
    );
    expect(written).toMatchObject({ source: "recovered", content: [{ input: "{}" }] });
    // A tool that lists arguments keeps them, as does a free-form one; broken JSON stays broken.
    for (const [text, input] of [
      ['{"name": "grep", "arguments": {"pattern": "E"}}', '{"pattern":"E"}'],
      ['{"name": "agent__final_report", "arguments": {"x": 1}}', '{"x":1}'],
      ['{"name": "read_log", "arguments": {"log"}}', '{"log"}'],
    ])
      expect(
        replyContent(
          { text: text!, nativeCalls: [] },
          { known: tools, recover: true, takeNoArguments, callId },
        ),
      ).toMatchObject({ content: [{ input }] });
  });
});

describe("replyCallIds", () => {
  const reading = (prompt: number[]) => ({
    known: new Set(["grep", "read"]),
    recover: true,
    callId: replyCallIds(prompt),
  });
  const idsOf = (prompt: number[]) =>
    replyContent(
      {
        text: '{"name": "grep", "arguments": {"pattern": "E"}}\n{"name": "read", "arguments": {}}',
        nativeCalls: [],
      },
      reading(prompt),
    ).content.map((part) => (part.type === "tool-call" ? part.toolCallId : part.type));

  it("gives the calls of a reply to one prompt the same ids in every run", () => {
    const first = idsOf([151644, 8948, 198, 42]);
    expect(first).toHaveLength(2);
    for (const id of first) expect(id).toMatch(/^call_[0-9a-z]{26}$/);
    expect(idsOf([151644, 8948, 198, 42])).toEqual(first);
  });

  it("gives each call of a reply, and the calls of another prompt, ids of their own", () => {
    const [a, b] = idsOf([151644, 8948, 198, 42]);
    expect(a).not.toBe(b);
    const other = idsOf([151644, 8948, 198, 43]);
    expect(other).not.toContain(a);
    expect(other).not.toContain(b);
  });

  it("draws native calls' ids the same way", () => {
    const native = (prompt: number[]) =>
      replyContent(
        { text: "", nativeCalls: [{ functionName: "grep", params: { pattern: "E" } }] },
        reading(prompt),
      ).content[0];
    expect(native([7, 8, 9])).toEqual(native([7, 8, 9]));
    expect(native([7, 8, 9])).toMatchObject({ type: "tool-call", toolName: "grep" });
  });
});

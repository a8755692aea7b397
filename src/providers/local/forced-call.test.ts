import { describe, expect, it } from "vitest";
import { forcedCall, prefillReply, syntaxText } from "./forced-call.js";

/** Qwen's call syntax as node-llama-cpp's chat wrapper holds it (special token + text). */
const qwen = {
  prefix: { values: [{ value: "<tool_call>" }, '\n{"name": "'] },
  paramsPrefix: '", "arguments": ',
};
const report = {
  name: "agent__final_report",
  params: { type: "object", properties: { report: { type: "string" } } },
};
const grep = {
  name: "grep",
  params: {
    type: "object",
    properties: { pattern: { type: "string" }, context: { type: "number" } },
  },
};

describe("forced calls for local models", () => {
  it("renders a chat wrapper's setting, special tokens included", () => {
    expect(syntaxText(qwen.prefix)).toBe('<tool_call>\n{"name": "');
    expect(syntaxText("plain")).toBe("plain");
  });

  it("with one string-argument tool, opens the argument so the model writes only the value", () => {
    const forced = forcedCall(qwen, [report]);
    expect(forced.prefill).toBe(
      '<tool_call>\n{"name": "agent__final_report", "arguments": {"report": "',
    );
    // What the real model wrote after that prefill (experiment with Qwen2.5-Coder 1.5B).
    expect(forced.read('The error code is E-7734 (card declined)."}}')).toEqual({
      toolName: "agent__final_report",
      input: JSON.stringify({ report: "The error code is E-7734 (card declined)." }),
    });
    // Still being written: no call yet.
    expect(forced.read("The error code is")).toBeUndefined();
  });

  it("reads an unescaped quote or newline leniently, and an unclosed value as written", () => {
    const forced = forcedCall(qwen, [report]);
    const quoted = forced.readLeniently('It said "declined"\nline 2"}}\n</tool_call>');
    expect(JSON.parse(quoted!.input)).toEqual({ report: 'It said "declined"\nline 2' });
    const unclosed = forced.readLeniently("cut short by max tokens");
    expect(JSON.parse(unclosed!.input)).toEqual({ report: "cut short by max tokens" });
  });

  it("with several tools, starts only the call syntax and reads the tool the model names", () => {
    const forced = forcedCall(qwen, [report, grep]);
    expect(forced.prefill).toBe('<tool_call>\n{"name": "');
    expect(forced.read('grep", "arguments": {"pattern": "ERROR"}}\n</tool_call>')).toEqual({
      toolName: "grep",
      input: '{"pattern":"ERROR"}',
    });
    expect(forced.read('nope", "arguments": {}}')).toBeUndefined();
    expect(forced.readLeniently('nope", "arguments": {}}')).toBeUndefined();
  });

  it("with several tools, reads a whole reply that left out its closing brace or escapes", () => {
    const forced = forcedCall(qwen, [report, grep]);
    // The call's own closing brace left out: generation ended after the arguments.
    const unclosed = 'agent__final_report", "arguments": {"report": "品番: MS-17188  状態: 通常"}';
    expect(forced.read(unclosed)).toBeUndefined();
    expect(forced.settle(unclosed, true)).toEqual({
      toolName: "agent__final_report",
      input: JSON.stringify({ report: "品番: MS-17188  状態: 通常" }),
    });
    // A tab and quotes left unescaped, both braces left out.
    const raw =
      'agent__final_report", "arguments": {"report": "Workstation Name:\tWS-DEV-2102 "ok" here"';
    expect(JSON.parse(forced.readLeniently(raw)!.input)).toEqual({
      report: 'Workstation Name:\tWS-DEV-2102 "ok" here',
    });
    // Not for a reply still being written, nor for a tool the model was not given.
    expect(forced.settle(unclosed)).toBeUndefined();
    expect(forced.readLeniently('nope", "arguments": {"report": "x"}')).toBeUndefined();
    // A sole string argument left unclosed (the reply's length limit ended it) is read as
    // written, as when the provider opened it; another tool's cut arguments are not read.
    expect(
      forced.readLeniently('agent__final_report", "arguments": {"report": "cut at the li'),
    ).toEqual({ toolName: "agent__final_report", input: '{"report":"cut at the li"}' });
    expect(forced.readLeniently('grep", "arguments": {"pattern": "E')).toBeUndefined();
  });

  it("reads a whole reply nothing else reads as the call it names, arguments as written", () => {
    const forced = forcedCall(qwen, [report, grep]);
    expect(forced.asWritten('test_01", "arguments": null}')).toEqual({
      toolName: "test_01",
      input: "null",
    });
    expect(forced.asWritten('nope"}\n</tool_call>')).toEqual({ toolName: "nope", input: "{}" });
    expect(forced.asWritten('grep", "arguments": {"pattern": "E')).toEqual({
      toolName: "grep",
      input: '{"pattern": "E',
    });
    // A closed call ends where its object closes, whatever follows it.
    expect(
      forced.asWritten(
        'nope", "arguments": {"a": 1}}\n</tool_call>\n<tool_call>\n{"name": "grep"}',
      ),
    ).toEqual({ toolName: "nope", input: '{"a": 1}' });
    // A name the model did not finish, or none: nothing to answer as a call.
    expect(forced.asWritten("agent__fin")).toBeUndefined();
    expect(forced.asWritten("1}")).toBeUndefined();
  });

  it("a tool with several arguments gets its name and the model writes the object", () => {
    const forced = forcedCall(qwen, [grep]);
    expect(forced.prefill).toBe('<tool_call>\n{"name": "grep", "arguments": ');
    expect(forced.read('{"pattern": "E-77", "context": 2}}')?.input).toBe(
      '{"pattern":"E-77","context":2}',
    );
  });

  it("prefills a new model turn, or the last one after its calls' results", () => {
    const fresh: Parameters<typeof prefillReply>[0] = [{ type: "user", text: "hi" }];
    prefillReply(fresh, "<tool_call>");
    expect(fresh.at(-1)).toEqual({ type: "model", response: ["<tool_call>"] });
    const afterResults: Parameters<typeof prefillReply>[0] = [
      {
        type: "model",
        response: [{ type: "functionCall", name: "grep", params: {}, result: "x" }],
      },
    ];
    prefillReply(afterResults, "<tool_call>");
    expect(afterResults).toHaveLength(1);
    expect((afterResults[0] as { response: unknown[] }).response.at(-1)).toBe("<tool_call>");
  });

  it("a call the model broke is still read as that call (repaired when it can be)", async () => {
    const { malformedToolCall } = await import("./recover-tool-calls.js");
    const forced = forcedCall(qwen, [report, grep]);
    // What the 1.5B model wrote after the prefill in a triage run.
    const written = 'grep", "arguments": {"pattern": "ERROR", "context=2"}}';
    expect(forced.read(written)).toBeUndefined();
    expect(malformedToolCall(forced.prefill + written, new Set(["grep"]))).toEqual({
      toolName: "grep",
      input: '{"pattern":"ERROR","context":2}',
    });
  });
});

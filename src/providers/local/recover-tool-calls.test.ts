import { describe, expect, it } from "vitest";
import { malformedToolCall, mayBeToolCallText, recoverToolCalls } from "./recover-tool-calls.js";

const tools = new Set(["get_tool_output", "agent__final_report"]);

describe("recoverToolCalls", () => {
  it("reads a call written as a fenced JSON block (what Qwen2.5-Coder 1.5B sometimes writes)", () => {
    const text =
      '```json\n{\n  "name": "get_tool_output",\n  "arguments": {\n    "id": "out_abc",\n    "mode": "grep",\n    "pattern": "ERROR"\n  }\n}\n```';
    expect(recoverToolCalls(text, tools)).toEqual([
      { toolName: "get_tool_output", input: '{"id":"out_abc","mode":"grep","pattern":"ERROR"}' },
    ]);
  });

  it("reads bare objects, tagged calls, several calls, and string arguments", () => {
    expect(
      recoverToolCalls(
        '<tool_call>\n{"name": "get_tool_output", "arguments": "{\\"id\\": \\"a\\"}"}\n</tool_call>\n<tool_call>\n{"name": "agent__final_report", "arguments": {"report": "done {x}"}}\n</tool_call>',
        tools,
      ),
    ).toEqual([
      { toolName: "get_tool_output", input: '{"id":"a"}' },
      { toolName: "agent__final_report", input: '{"report":"done {x}"}' },
    ]);
  });

  it("leaves prose, unknown tools and malformed JSON as text", () => {
    expect(recoverToolCalls('I will call {"name": "get_tool_output"}', tools)).toBeUndefined();
    expect(recoverToolCalls('{"name": "rm_rf", "arguments": {}}', tools)).toBeUndefined();
    expect(recoverToolCalls('{"name": "get_tool_output", "arguments": {', tools)).toBeUndefined();
    expect(recoverToolCalls('{"id": 1}', tools)).toBeUndefined();
    expect(
      recoverToolCalls('{"name": "get_tool_output", "arguments": {}}', new Set()),
    ).toBeUndefined();
  });

  it("keeps one call to a known tool with broken arguments as that call: the key=value slip repaired, else verbatim", () => {
    // What Qwen2.5-Coder 1.5B wrote in CI: a "key=value" string where a property belongs.
    const text =
      '```json\n{"name": "get_tool_output", "arguments": {"id": "out_abc", "mode": "grep", "pattern": "ERROR", "context=2"}}\n```';
    expect(recoverToolCalls(text, tools)).toBeUndefined();
    expect(malformedToolCall(text, tools)).toEqual({
      toolName: "get_tool_output",
      input: '{"id":"out_abc","mode":"grep","pattern":"ERROR","context":2}',
    });
    // Twice in a row (a global regex keeps no state between calls); strings stay strings.
    expect(
      malformedToolCall(
        '{"name": "get_tool_output", "arguments": {"mode=grep", "regex=true"}}',
        tools,
      )?.input,
    ).toBe('{"mode":"grep","regex":true}');
    // Anything else broken stays verbatim, for an error naming the tool.
    expect(
      malformedToolCall(
        '{"name": "get_tool_output", "arguments": {"id": "out_abc", "mode"}}',
        tools,
      ),
    ).toEqual({ toolName: "get_tool_output", input: '{"id": "out_abc", "mode"}' });
    // A call still being written is not one yet.
    expect(
      malformedToolCall('{"name": "get_tool_output", "arguments": {"id": "out_abc", "x"}', tools),
    ).toBeUndefined();
    // Readable calls, unknown tools, prose and non-object arguments are not its business.
    expect(
      malformedToolCall('{"name": "get_tool_output", "arguments": {}}', tools),
    ).toBeUndefined();
    expect(malformedToolCall('{"name": "rm_rf", "arguments": {"a"}}', tools)).toBeUndefined();
    expect(
      malformedToolCall('I will call {"name": "get_tool_output", "arguments": {"a"}}', tools),
    ).toBeUndefined();
    expect(malformedToolCall('{"name": "get_tool_output", "arguments": 7}', tools)).toBeUndefined();
  });

  it("says while streaming whether text could still be a call", () => {
    expect(mayBeToolCallText("")).toBe(true);
    expect(mayBeToolCallText("``")).toBe(true);
    expect(mayBeToolCallText('```json\n{"na')).toBe(true);
    expect(mayBeToolCallText("<tool")).toBe(true);
    expect(mayBeToolCallText("The first error")).toBe(false);
  });
});

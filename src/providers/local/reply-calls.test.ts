import { describe, expect, it } from "vitest";
import { forcedCall } from "./forced-call.js";
import { replyContent } from "./reply-calls.js";

const known = new Set(["grep", "agent__final_report"]);
const qwen = { prefix: '<tool_call>\n{"name": "', paramsPrefix: '", "arguments": ' };

describe("replyContent", () => {
  it("native calls come with the reply's text", () => {
    const { content, source } = replyContent(
      { text: "Looking.", nativeCalls: [{ functionName: "grep", params: { pattern: "E" } }] },
      { known, recover: true },
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
      { known, recover: true, forced },
    );
    expect(source).toBe("forced");
    expect(content).toMatchObject([
      { type: "tool-call", toolName: "agent__final_report", input: '{"report":"E-7734"}' },
    ]);
  });

  it("a JSON call written as text is recovered, broken arguments included; prose stays text", () => {
    expect(
      replyContent(
        { text: '{"name": "grep", "arguments": {"x"}}', nativeCalls: [] },
        { known, recover: true },
      ),
    ).toMatchObject({ source: "recovered", content: [{ toolName: "grep", input: '{"x"}' }] });
    expect(
      replyContent(
        { text: '{"name": "grep", "arguments": {}}', nativeCalls: [] },
        { known, recover: false },
      ),
    ).toMatchObject({ source: "none", content: [{ type: "text" }] });
    expect(replyContent({ text: "", nativeCalls: [] }, { known, recover: true })).toEqual({
      content: [],
      source: "none",
    });
  });
});

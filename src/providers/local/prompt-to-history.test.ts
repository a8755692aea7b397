import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../../core/errors.js";
import { promptToHistory, toolResultText } from "./prompt-to-history.js";

describe("promptToHistory", () => {
  it("maps system, user, assistant calls with their results, and the reply after them as one model turn", () => {
    const history = promptToHistory([
      { role: "system", content: "Be exact." },
      { role: "user", content: [{ type: "text", text: "Find the error." }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Searching." },
          { type: "tool-call", toolCallId: "c1", toolName: "grep", input: { pattern: "ERROR" } },
          { type: "tool-call", toolCallId: "c2", toolName: "grep", input: { pattern: "WARN" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "grep",
            output: { type: "json", value: { n: 2 } },
          },
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "grep",
            output: { type: "text", value: "7: ERROR x" },
          },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c3", toolName: "slice", input: { line: 7 } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c3",
            toolName: "slice",
            output: { type: "error-text", value: "bad line" },
          },
        ],
      },
      { role: "user", content: [{ type: "text", text: "[notice] turn 3 of 8" }] },
    ]);
    expect(history).toEqual([
      { type: "system", text: "Be exact." },
      { type: "user", text: "Find the error." },
      {
        type: "model",
        response: [
          "Searching.",
          {
            type: "functionCall",
            name: "grep",
            params: { pattern: "ERROR" },
            result: "7: ERROR x",
            startsNewChunk: true,
          },
          { type: "functionCall", name: "grep", params: { pattern: "WARN" }, result: '{"n":2}' },
          {
            type: "functionCall",
            name: "slice",
            params: { line: 7 },
            result: "bad line",
            startsNewChunk: true,
          },
        ],
      },
      { type: "user", text: "[notice] turn 3 of 8" },
    ]);
  });

  it("joins consecutive user messages into one turn (the task, then the notice)", () => {
    expect(
      promptToHistory([
        { role: "user", content: [{ type: "text", text: "task" }] },
        { role: "user", content: [{ type: "text", text: "notice" }] },
      ]),
    ).toEqual([{ type: "user", text: "task\n\nnotice" }]);
  });

  it("starts a new model turn after a user message", () => {
    const history = promptToHistory([
      { role: "user", content: [{ type: "text", text: "a" }] },
      { role: "assistant", content: [{ type: "text", text: "b" }] },
      { role: "user", content: [{ type: "text", text: "c" }] },
      { role: "assistant", content: [{ type: "text", text: "d" }] },
    ]);
    expect(history.map((item) => item.type)).toEqual(["user", "model", "user", "model"]);
  });

  it("refuses file parts with INVALID_ARGUMENT", () => {
    try {
      promptToHistory([
        { role: "user", content: [{ type: "file", data: "aGk=", mediaType: "image/png" }] },
      ]);
      expect.unreachable();
    } catch (error) {
      expect(isSpillwayError(error, "INVALID_ARGUMENT")).toBe(true);
      expect((error as Error).message).toContain("image/png");
    }
  });

  it("renders every tool result kind as text", () => {
    expect(toolResultText({ type: "execution-denied", reason: "no" })).toBe(
      "The tool call was denied: no",
    );
    expect(
      toolResultText({
        type: "content",
        value: [
          { type: "text", text: "one" },
          { type: "text", text: "two" },
        ],
      }),
    ).toBe("one\ntwo");
    expect(toolResultText({ type: "error-json", value: { code: 1 } })).toBe('{"code":1}');
  });
});

import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../store/history.js";
import { coveredCallsOf, fullIndexText, indexLine, renderIndex } from "./compaction-index.js";

const H = (n: number) => `out_${String(n).padStart(26, "0")}`;

function message(
  seq: number,
  role: HistoryMessage["role"],
  parts: HistoryMessage["parts"],
): HistoryMessage {
  return { seq, turn: seq, role, parts, createdAt: 0 };
}

describe("the compaction index", () => {
  it("takes every call's handles from the canonical history: outputs, attachments, batches, async, reads, errors", () => {
    const calls = coveredCallsOf([
      message(1, "assistant", [
        { type: "text", text: "reading" },
        { type: "tool-call", toolCallId: "c1", toolName: "fs__read", argsText: '{"path":"a.log"}' },
        { type: "tool-call", toolCallId: "c2", toolName: "agent__batch", argsText: "{}" },
      ]),
      message(2, "tool", [
        {
          type: "tool-result",
          toolCallId: "c2",
          toolName: "agent__batch",
          result: {
            kind: "batch",
            items: [
              {
                toolName: "x",
                argsText: "{}",
                ref: { kind: "output", outputId: H(2), isError: false, shown: "inline" },
              },
              {
                toolName: "y",
                argsText: "{}",
                ref: { kind: "async", outputId: H(3), trigger: "time" },
              },
            ],
          },
        },
      ]),
      message(3, "tool", [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "fs__read",
          result: {
            kind: "output",
            outputId: H(1),
            isError: false,
            shown: "handle",
            attachments: [H(4)],
          },
        },
      ]),
      message(4, "assistant", [
        {
          type: "tool-call",
          toolCallId: "c3",
          toolName: "get_tool_output",
          argsText: `{"id":"${H(1)}"}`,
        },
        { type: "tool-call", toolCallId: "c4", toolName: "nope", argsText: "{" },
      ]),
      message(5, "tool", [
        {
          type: "tool-result",
          toolCallId: "c3",
          toolName: "get_tool_output",
          result: { kind: "retrieval", text: "…", outputId: H(1) },
        },
      ]),
      message(6, "tool", [
        {
          type: "tool-result",
          toolCallId: "c4",
          toolName: "nope",
          result: { kind: "error", code: "UNKNOWN_TOOL", message: "no" },
        },
      ]),
    ]);
    expect(
      calls.map((c) => [c.toolCallId, c.turn, c.outputIds, c.readOutputId, c.isError]),
    ).toEqual([
      ["c1", 1, [H(1), H(4)], undefined, false],
      ["c2", 1, [H(2), H(3)], undefined, false],
      ["c3", 4, [], H(1), false],
      ["c4", 4, [], undefined, true],
    ]);
    expect(indexLine(calls[0]!)).toBe(`t1 · fs__read · c1 → ${H(1)}, ${H(4)} · {"path":"a.log"}`);
    expect(indexLine(calls[2]!)).toContain(`(read ${H(1)})`);
    expect(indexLine(calls[3]!)).toBe("t4 · nope · c4 · error · {");
    expect(fullIndexText(calls).split("\n")).toHaveLength(5);
  });

  it("shows the newest calls that fit and names the stored index for the older ones", () => {
    const calls = Array.from({ length: 50 }, (_, i) => ({
      turn: i + 1,
      toolCallId: `call_${i}`,
      toolName: "fs__read",
      argsText: `{"path":"file-${i}.log","note":"${"x".repeat(200)}"}`,
      outputIds: [H(i)],
      isError: false,
    }));
    const text = renderIndex({
      calls,
      maxTokens: 300,
      count: (line) => Math.ceil(line.length / 4),
      indexOutputId: H(99),
      surface: "get_tool_output",
      outputsReadable: true,
    });
    const lines = text.split("\n").filter((l) => l.startsWith("  t"));
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.length).toBeLessThan(50);
    expect(lines.at(-1)).toContain("call_49");
    expect(lines.every((l) => l.length < 200)).toBe(true);
    const older = 50 - lines.length;
    expect(text).toContain(`(${older} older calls are listed in the stored index ${H(99)}`);
    expect(text).toContain(`get_tool_output(id="${H(99)}", mode="grep"`);
    expect(text.split("\n").at(-1)).toMatch(/^Read any output above again with get_tool_output/);
    expect(
      renderIndex({
        calls: [],
        maxTokens: 10,
        count: () => 1,
        indexOutputId: null,
        surface: "tool_output",
        outputsReadable: true,
      }),
    ).toBe("No tool calls were made in those turns.");
  });
});

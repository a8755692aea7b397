import { describe, expect, it } from "vitest";
import {
  focusedReadingNote,
  focusedReadingPrompt,
  parseFocusedReading,
  shownRows,
  verifiedReading,
} from "./focused-reading.js";

describe("the focused reading's texts", () => {
  it("takes each numbered row of a handle message once, with thousands separators read", () => {
    const message = [
      "[spillway] The output of x is stored whole as out_1.",
      "  1,235| WARN refund=ANS-1",
      '  get_tool_output(id="out_1", mode="slice")   lines by number',
      "First lines:",
      "  1| head",
      "  1,235| WARN refund=ANS-1 (again)",
      "  0| not a line",
      "  9| 50%\r100%\r",
    ].join("\n");
    expect(shownRows(message)).toEqual([
      { line: 1235, text: "WARN refund=ANS-1" },
      { line: 1, text: "head" },
      { line: 9, text: "50%\r100%" },
    ]);
  });

  it("puts the task before the rows, numbered as the handle message numbers them", () => {
    expect(focusedReadingPrompt("  Which refund?\n", [{ line: 7, text: "refund=A" }])).toBe(
      "Task: Which refund?\n\nLines:\n  7| refund=A",
    );
  });

  it("reads a line and a value, unwrapping quotes, and declines anything else", () => {
    expect(parseFocusedReading("LINE: 1,235\nVALUE: ANS-1")).toEqual({
      line: 1235,
      value: "ANS-1",
    });
    expect(parseFocusedReading("line: 12\nvalue: `E42`")).toEqual({ line: 12, value: "E42" });
    expect(parseFocusedReading('Sure.\nLINE: 3\nVALUE: "a b"\n')).toEqual({
      line: 3,
      value: "a b",
    });
    expect(parseFocusedReading("NONE")).toBeUndefined();
    expect(parseFocusedReading("LINE: 3")).toBeUndefined();
    expect(parseFocusedReading("LINE: 0\nVALUE: x")).toBeUndefined();
    expect(parseFocusedReading("LINE: 4\nVALUE: ")).toBeUndefined();
    expect(parseFocusedReading(`LINE: 4\nVALUE: ${"x".repeat(201)}`)).toBeUndefined();
  });

  it("keeps a reading only when the stored line holds its value and the message showed it", () => {
    const rows = [{ line: 12, text: "code=E42 …(clipped)" }];
    expect(verifiedReading({ line: 12, value: "E42" }, rows, "code=E42 tail")).toBe(true);
    // A value past the clipped part is still the line's own.
    expect(verifiedReading({ line: 12, value: "tail" }, rows, "code=E42 tail")).toBe(true);
    expect(verifiedReading({ line: 12, value: "E43" }, rows, "code=E42 tail")).toBe(false);
    expect(verifiedReading({ line: 13, value: "E42" }, rows, "code=E42")).toBe(false);
    expect(verifiedReading({ line: 12, value: "E42" }, rows, undefined)).toBe(false);
    // Not cut out of a longer word or number; punctuation at an edge may touch anything.
    expect(verifiedReading({ line: 12, value: "23" }, rows, "order=ord_1234aa")).toBe(false);
    expect(verifiedReading({ line: 12, value: "23" }, rows, "ord_1234aa took 23 ms")).toBe(true);
    expect(verifiedReading({ line: 12, value: "=E4" }, rows, "code=E42")).toBe(false);
    expect(verifiedReading({ line: 12, value: "[E42]" }, rows, "x[E42]y")).toBe(true);
    expect(verifiedReading({ line: 12, value: "東京" }, rows, "city=東京都")).toBe(false);
  });

  it("names the line and the value as a pointer to check", () => {
    // Quoted, not escaped: the value as the line holds it, which a model copies.
    const note = focusedReadingNote({ line: 12, value: 'C:\\tmp "x"' });
    expect(note).toContain('line 12: "C:\\tmp "x"".');
    expect(note).toContain("check that line answers the task before you report it");
  });
});

/**
 * A length the task gives a value ("the 13-digit code", "64 hex characters") describes the
 * value's shape: the task search does not look for its number or its unit as words (SW-69),
 * which found a date's 13th day for "the 13-digit barcode".
 */
import { describe, expect, it } from "vitest";
import { taskSearchSection } from "../../test/helpers/handle-sections.js";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";
import { withoutStatedLengths } from "./task-value-forms.js";

describe("withoutStatedLengths", () => {
  it("drops a count of digits or characters, in English or Japanese", () => {
    expect(withoutStatedLengths("Which 13-digit barcode is in the notes?")).toBe(
      "Which  barcode is in the notes?",
    );
    expect(withoutStatedLengths("the digest (sha256 followed by 64 hex characters)")).toBe(
      "the digest (sha256 followed by )",
    );
    expect(withoutStatedLengths("Give me the 40-character SHA and the 6 digits PIN")).toBe(
      "Give me the  SHA and the  PIN",
    );
    expect(withoutStatedLengths("13桁のバーコードは?")).toBe("のバーコードは?");
  });

  it("keeps every other number: a layout's groups, an id, a count of things", () => {
    for (const task of [
      "Which UUID (8-4-4-4-12 hex digits) names the job?",
      "What did order 13 ship under?",
      "Which of the 3 hosts restarted at 13:05?",
    ])
      expect(withoutStatedLengths(task)).toBe(task);
  });
});

/** Shift notes of a month: a dated heading every tenth line, one 13-digit number among them. */
function shiftNotes(): string {
  const lines: string[] = [];
  for (let day = 1; day <= 30; day++) {
    const date = `2026-05-${String(day).padStart(2, "0")}`;
    lines.push(`## ${date} shift notes (night crew)`);
    for (let i = 0; i < 9; i++)
      lines.push(`- bay ${(day * 9 + i) % 40}: pallets moved ${(day * 7 + i) % 60}, no damage`);
  }
  lines[155] = "- bay 17: supplier sent a new barcode 4901234567894 for the glue, labels replaced";
  return lines.join("\n");
}

async function handleFor(task: string): Promise<string> {
  const { store } = await tempStore();
  const record = await store.put(origin("fs__read_text_file", "{}"), shiftNotes());
  return defaultHandleMessage(record, store, SCOPE, 5, { taskText: task, formLines: true });
}

describe("the task search of a task that gives a value's length", () => {
  it("does not search the length's number: the value's line is shown, no date for `13`", async () => {
    const message = await handleFor("Which 13-digit barcode number do the shift notes mention?");
    const search = taskSearchSection(message);
    expect(search).not.toContain("2026-05-13");
    expect(message).not.toMatch(/query="[^"]*13/);
    expect(message).toContain("156| - bay 17: supplier sent a new barcode 4901234567894");
  });

  it("still searches the task's other words", async () => {
    const message = await handleFor("Which 13-digit number is the new barcode?");
    expect(taskSearchSection(message)).toContain("156| - bay 17: supplier sent a new barcode");
  });
});

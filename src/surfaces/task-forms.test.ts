/**
 * The handle message's search for the task finds values of a kind the task names (SW-33): "the
 * IPv6 address" is in no line's words, yet the one line holding an IPv6 address answers it. A
 * kind that many lines hold points nowhere, the task's own identifier still leads, and between
 * lines holding the same kind, the one whose record speaks of the task comes first.
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";
import { taskFormLines } from "./task-forms.js";
import { searchForTask } from "./task-search.js";

async function stored(text: string) {
  const { store } = await tempStore();
  const record = await store.put(origin("fs__read_text_file", '{"path":"logs/app.log"}'), text);
  return { store, record };
}

/**
 * The lines the handle message's search section lists, in order: a record shown around a line
 * counts as that line (its other lines are not listed).
 */
async function shownLines(text: string, task: string): Promise<number[]> {
  const { store, record } = await stored(text);
  const message = await defaultHandleMessage(record, store, SCOPE, 5, {
    taskText: task,
    taskRecord: true,
    valueKinds: true,
  });
  const section = message.split("\nRead it with:")[0]!.split("found these lines")[1] ?? "";
  const shown: number[] = [];
  let recordLines = { from: 0, to: -1 };
  for (const line of section.split("\n")) {
    const head = /lines (\d+)-(\d+); the search found lines? (\d+)/.exec(line);
    if (head) {
      recordLines = { from: Number(head[1]), to: Number(head[2]) };
      shown.push(Number(head[3]));
      continue;
    }
    const numbered = /^ {2}(\d+)\| /.exec(line);
    if (!numbered) continue;
    const at = Number(numbered[1]);
    if (at < recordLines.from || at > recordLines.to) shown.push(at);
  }
  return shown;
}

const logLine = (i: number) =>
  `2026-03-14T08:${String(i % 60).padStart(2, "0")}:00Z INFO client 10.0.${i % 250}.${i % 200} served request ${i}`;

describe("the task search's values of a named kind", () => {
  it("shows the one line holding an IPv6 address when the task asks for it, though no task word is on it", async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => logLine(i));
    lines[1499] = "2026-03-14T09:59:00Z WARN upstream 2001:db8:b2c1:e8f2::c207 slow to respond";
    const shown = await shownLines(
      lines.join("\n"),
      "There is exactly one IPv6 address in the log. Which one?",
    );
    expect(shown[0]).toBe(1500);
  });

  it("leaves out a kind that many lines hold: an IP on every line points nowhere", async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => logLine(i));
    const { store, record } = await stored(lines.join("\n"));
    const search = await searchForTask(store, record, SCOPE, "Which IP address was refused?", 5, {
      valueKinds: true,
    });
    expect(search.valueShapes).toBeUndefined();
    expect(search.matches).toEqual([]);
  });

  it("shows the line holding the task's own identifier before lines holding only a value of the kind", async () => {
    const lines = Array.from({ length: 600 }, (_, i) => `Event ${i}: service state changed`);
    lines[99] = "  User: S-1-5-18";
    lines[199] = "  User: S-1-5-19";
    lines[449] = "  Security ID: S-1-5-21-2450158491-3519772340-73269514-8739";
    const shown = await shownLines(
      lines.join("\n"),
      "Find the full S-1-5-21-… SID and copy it exactly.",
    );
    expect(shown[0]).toBe(450);
    expect(shown).toContain(100);
  });

  it("puts first, of lines holding the same kind, the one whose record holds the task's words", async () => {
    // "added" is on too many lines to be shown for itself; it still tells the two events apart.
    const block = (i: number, member: string, action: string) =>
      `Event ${i}:\n  Subject: svc-${i}\n  Member: ${member}\n  Action: ${action}\n`;
    const blocks = Array.from({ length: 40 }, (_, i) =>
      block(i, `user-${i}`, i % 3 === 0 ? "removed" : "added"),
    );
    blocks[9] = block(9, "S-1-5-21-1730461429-2130333130-61709185-1001", "removed");
    blocks[30] = block(30, "S-1-5-21-1730461429-2130333130-61709185-4501", "added");
    const shown = await shownLines(blocks.join("\n"), "Which SID was added?");
    // Event 30's member line, before event 9's (line 48), which comes first in the log.
    expect(shown[0]).toBe(153);
    expect(shown).toContain(48);
  });

  it("leaves out a kind not found within its time budget, and still answers", async () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => logLine(i));
    lines[59_999] = "2026-03-14T09:59:00Z WARN upstream 2001:db8::c207 slow";
    const { store, record } = await stored(lines.join("\n"));
    const opened = await store.open(record.id, SCOPE);
    try {
      const task = "Which IPv6 address is in the log?";
      const inTime = await taskFormLines(opened, task, 60_000, 20, undefined, 120_000);
      expect(inTime.matches.map((m) => m.line)).toEqual([60_000]);
      const late = await taskFormLines(opened, task, 60_000, 20, undefined, 1);
      expect(late).toEqual({ matches: [], shapes: [] });
    } finally {
      await opened.close();
    }
  });
});

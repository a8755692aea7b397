/**
 * With the task search's lines shown, the handle message leaves out the output's first and last
 * lines (the `taskFocus` switch, SW-43): they are positions, not evidence for the task, and a
 * model copies what it is shown. A JSON outline stays: it says how to query the document, but
 * without its first values, which are one record's, a position too (SW-72).
 */
import { describe, expect, it } from "vitest";
import { SCOPE, SESSION, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";

const LOG = Array.from({ length: 400 }, (_, i) =>
  i === 211
    ? "2026-03-14T08:31:00Z WARN job 211 wrote BOOT-MARKER-ALPHA"
    : `2026-03-14T08:${String(i % 60).padStart(2, "0")}:00Z INFO job ${i} step done`,
).join("\n");

async function message(text: string, options: Parameters<typeof defaultHandleMessage>[4]) {
  const { store } = await tempStore();
  const record = await store.put(
    { sessionId: SESSION, toolName: "fs__read_text_file", toolArgs: '{"path":"a.log"}' },
    text,
  );
  return defaultHandleMessage(record, store, SCOPE, 5, options);
}

describe("taskFocus: the task's lines without the output's edges", () => {
  it("leaves out the first and last lines when the task search found lines", async () => {
    const focused = await message(LOG, {
      taskText: "which job wrote the boot marker?",
      taskFocus: true,
    });
    expect(focused).toContain("212| 2026-03-14T08:31:00Z WARN job 211 wrote BOOT-MARKER-ALPHA");
    expect(focused).not.toContain("First lines:");
    expect(focused).not.toContain("Last lines:");
    // The edges stay one read away.
    expect(focused).toContain('mode="page", cursor=0');
    // Off, the same message shows them.
    const off = await message(LOG, { taskText: "which job wrote the boot marker?" });
    expect(off).toContain("First lines:");
    expect(off).toContain("  400| 2026-03-14T08:39:00Z INFO job 399 step done");
    expect(focused.length).toBeLessThan(off.length);
  });

  it("keeps them when the search found nothing, or the task is unknown", async () => {
    const nothing = await message(LOG, {
      taskText: "which quasar emitted gamma rays?",
      taskFocus: true,
    });
    expect(nothing).not.toContain("A search of it for the words of your task");
    expect(nothing).toContain("First lines:");
    const noTask = await message(LOG, { taskFocus: true });
    expect(noTask).toContain("Last lines:");
  });

  it("keeps a JSON document's outline", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      id: `ord-${1000 + i}`,
      status: i === 77 ? "lost" : "shipped",
    }));
    const focused = await message(JSON.stringify(rows, null, 2), {
      taskText: "which order is lost?",
      taskFocus: true,
    });
    expect(focused).toContain('"status": "lost"');
    expect(focused).toContain("Shape (JSON outline):");
  });

  it("gives the outline's keys without their first values beside found lines", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      id: 52000 + i,
      status: i === 77 ? "refunded" : "shipped",
      tracking: `1Z${String(70000000 + i * 7919).padStart(14, "0")}`,
    }));
    const text = JSON.stringify(rows, null, 2);
    const task = { taskText: "which tracking code has order 52077?" };
    const focused = await message(text, { ...task, taskFocus: true });
    expect(focused).toContain('"id": 52077');
    expect(focused).toMatch(/\.tracking: string$/m);
    // The first order's tracking code is nowhere: it is not order 52077's.
    expect(focused).not.toContain("1Z00000070000000");
    expect(focused).toContain(".id: number 52000..52299");
    // Without found lines, or with the switch off, the outline gives each key's first value.
    const nothing = await message(text, { taskText: "which quasar?", taskFocus: true });
    expect(nothing).toContain('.tracking: string, first value "1Z00000070000000"');
    const off = await message(text, task);
    expect(off).toContain('.tracking: string, first value "1Z00000070000000"');
  });
});

/**
 * With the task search's lines shown, the handle message leaves out the output's first and last
 * lines (the `taskFocus` switch, SW-43): they are positions, not evidence for the task, and a
 * model copies what it is shown. A JSON outline stays: it says how to query the document.
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
});

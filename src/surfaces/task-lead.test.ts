/**
 * Which lines lead the handle message's task search (SW-59, SW-60): a task word the output holds
 * whole leads over its parts found apart, but not over a rarer word of the task.
 */
import { describe, expect, it } from "vitest";
import { taskSearchSection } from "../../test/helpers/handle-sections.js";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";
import { compoundWords, leadingLiterals } from "./task-search.js";

async function handleFor(text: string, task: string): Promise<string> {
  const { store } = await tempStore();
  const record = await store.put(origin("fs__read_text_file", "{}"), text);
  return defaultHandleMessage(record, store, SCOPE, 5, { taskText: task, taskRecord: true });
}

/** The lines the task search shows, after its heading. */
const searchLines = (message: string) => taskSearchSection(message).trim().split("\n").slice(1);

/**
 * Package records of a status file: every record has the field the task names, on one of its
 * twelve lines (under a tenth of the lines, so the field name is a word specific to them).
 */
function statusFile(count: number, named: number, name: string): string {
  const description = Array.from({ length: 6 }, (_, k) => ` text of the description, part ${k}`);
  return Array.from({ length: count }, (_, i) =>
    [
      `Package: ${i === named ? name : `lib-${i}`}`,
      "Status: install ok installed",
      `Installed-Size: ${i === named ? 1746 : 10 + (i % 40)}`,
      `Version: 1.${i}-1`,
      "Description: a library",
      ...description,
      "",
    ].join("\n"),
  ).join("\n");
}

describe("the task search's leading lines", () => {
  it("leads with the record of the task's rarest word, not with a field name every record has", async () => {
    const message = await handleFor(
      statusFile(300, 217, "findutils"),
      "What is the Installed-Size of the package findutils?",
    );
    const shown = searchLines(message);
    // The findutils record (lines 2605-2616) comes first, its size in sight.
    expect(shown[0]).toMatch(/the search found line 2,605\]/);
    expect(shown.slice(0, 5).join("\n")).toContain("2607| Installed-Size: 1746");
    // The rarest word stays the grep example.
    expect(message).toContain('mode="grep", pattern="findutils"');
  });

  it("still leads with an identifier held whole, the task's rarest word", async () => {
    const lines = Array.from(
      { length: 400 },
      (_, i) => `08:${String(i % 60).padStart(2, "0")} INFO req=req-${1000 + i} ok`,
    );
    lines[120] = "    at handleRequest (/srv/app/worker.js:880:19)";
    lines[340] = "08:07 INFO req=req-qmldj8 user=u-66287 order=ord-00478 status=200";
    const message = await handleFor(lines.join("\n"), "Which order did request req-qmldj8 handle?");
    expect(searchLines(message)[0]).toContain("341| 08:07 INFO req=req-qmldj8");
  });
});

describe("a number the search splits into equal terms", () => {
  it("leads with the line holding it whole, beyond the task's four rarest words", async () => {
    const lines: string[] = [];
    for (let lesson = 1; lesson <= 7; lesson++) {
      for (let part = 1; part <= 5; part++) {
        lines.push(`      Lesson ${lesson}.${part}: TOPIC ${lesson * 10 + part}`);
        for (let k = 0; k < 20; k++)
          lines.push(`  ${(k % 9) + 1}. Press 3 keys, then move ${k % 3} lines.`);
        lines.push(`  Save the file, then read the summary of lesson ${lesson}.`);
        lines.push(`  The title of this tutor page is shown above.`);
      }
    }
    const message = await handleFor(
      lines.join("\n"),
      "In the tutor file, what is the title of lesson 3.3, before its summary?",
    );
    expect(searchLines(message)[0]).toMatch(/^ {2}\d+\| +Lesson 3\.3: TOPIC 33$/);
  });
});

describe("leadingLiterals", () => {
  it("keeps the words held whole on no more lines than the task's rarest term", () => {
    const literals = [
      { word: "Installed-Size", lines: 712 },
      { word: "req-4hpi75", lines: 1 },
    ];
    expect(leadingLiterals(literals, 3)).toEqual(["req-4hpi75"]);
    expect(leadingLiterals(literals, 712)).toEqual(["Installed-Size", "req-4hpi75"]);
    expect(leadingLiterals([], 1)).toEqual([]);
  });
});

describe("compoundWords", () => {
  it("keeps a word the search splits, into equal terms too, and leaves a one-term word out", () => {
    expect(compoundWords(["req-4hpi75", "status", "podIP", "3.3", "memory"])).toEqual([
      "req-4hpi75",
      "podIP",
      "3.3",
    ]);
  });
});

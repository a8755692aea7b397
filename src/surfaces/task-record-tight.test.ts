/**
 * The task search shows the tightest record that holds the task's words (SW-32): when another
 * found line's own record lies inside the best line's record and holds as much of the task, that
 * line leads with it, so the values beside the answer are the answer's own.
 */
import { describe, expect, it } from "vitest";
import { taskSearchSection } from "../../test/helpers/handle-sections.js";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";

/** A test run: many passing files, then one file with two failures, listed and then detailed. */
function testRun(): string {
  const passing = Array.from({ length: 120 }, (_, i) =>
    [`PASS src/mod${i}.test.ts`, `  mod${i}`, `    ✓ handles case ${i} (3 ms)`, ""].join("\n"),
  );
  const failure = (name: string, expected: number, received: number, line: number) => [
    `  ● parser › ${name}`,
    "",
    "    expect(received).toBe(expected)",
    "",
    `    Expected: ${expected}`,
    `    Received: ${received}`,
    "",
    `      at Object.toBe (src/parser.test.ts:${line}:7)`,
    "",
  ];
  return [
    ...passing,
    "FAIL src/parser.test.ts",
    "  parser",
    "    ✕ keeps trailing commas in nested arrays (12 ms)",
    "    ✓ reads an empty file (1 ms)",
    "    ✕ folds quoted keys across lines (9 ms)",
    "",
    ...failure("keeps trailing commas in nested arrays", 4120, 3310, 31),
    ...failure("folds quoted keys across lines", 7702, 7917, 58),
    "Tests:       2 failed, 121 passed, 123 total",
    "",
  ].join("\n");
}

describe("the task search's record", () => {
  it("is the failure block of the test the task names, not the file's block that lists both", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin("fs__read_text_file", "{}"), testRun());
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: 'What value did the test "folds quoted keys across lines" receive?',
      taskRecord: true,
    });
    const shown = taskSearchSection(message);
    expect(shown).toMatch(/\[record: block, lines [\d,]+-[\d,]+; the search found line [\d,]+\]/);
    expect(shown).toContain("Received: 7917");
    // The other failure's values are not beside it.
    expect(shown).not.toContain("Received: 3310");
    // The listing line the search also found is still shown, after the record.
    expect(shown).toContain("✕ folds quoted keys across lines (9 ms)");
  });

  it("stays the enclosing item when the inner one lacks a word of the task", async () => {
    const pods = Array.from({ length: 40 }, (_, i) =>
      [
        `- name: web-${i}`,
        "  containers:",
        `    - name: ${i === 7 ? "nginx" : `side-${i}`}`,
        `      image: registry/img-${i}:1.${i}`,
        `    - name: logger-${i}`,
        `      image: registry/log-${i}:2.${i}`,
      ].join("\n"),
    ).join("\n");
    const { store } = await tempStore();
    const record = await store.put(origin("fs__read_text_file", "{}"), `${pods}\n`);
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: "Which image does the nginx container of pod web-7 run?",
      taskRecord: true,
    });
    const shown = taskSearchSection(message);
    // The pod's item, not the container's inside it, which does not name the pod.
    expect(shown).toContain("[record: list item, lines 43-48;");
    expect(shown).toContain("- name: web-7");
    expect(shown).toContain("image: registry/img-7:1.7");
  });
});

/**
 * Which of the live benchmark's questions name a value by a form the handle message reads
 * (`formLines`, src/surfaces/task-value-forms.ts): the pre-registered arm for it plays the
 * pattern questions of the shapes where every one names a form; the other cells that name one
 * are pinned here, so a new phrasing that names one is noticed (docs/evaluation.md).
 */
import { describe, expect, it } from "vitest";
import { drawTasks } from "../../eval/tasks/draw.js";
import { valueFormsNamed } from "../../src/surfaces/task-value-forms.js";

describe("the live benchmark's questions naming a value's form", () => {
  const tasks = [7, 123457, 604231].flatMap((seed) =>
    drawTasks({ seed, count: 400, chars: 4_000 }),
  );
  const naming = tasks.filter((task) => valueFormsNamed(task.question).length > 0);

  it("hold most pattern questions outside test-run output and none about a test run", () => {
    const aimed = tasks.filter((task) => task.kind === "pattern" && task.shape !== "test-output");
    const silent = aimed.filter((task) => !naming.includes(task));
    expect(aimed.length).toBeGreaterThan(200);
    expect(silent.length / aimed.length).toBeLessThan(0.25);
    // Some phrasings there name the value by words the output writes too ("which CVE").
    expect(new Set(silent.map((task) => task.shape))).toEqual(
      new Set(["access-log", "build-log", "html", "non-latin"]),
    );
    expect(naming.filter((task) => task.shape === "test-output")).toEqual([]);
  });

  it("name forms in these cells of the other kinds", () => {
    const cells = new Set(
      naming.filter((task) => task.kind !== "pattern").map((task) => `${task.shape}/${task.kind}`),
    );
    expect([...cells].sort()).toEqual([
      "access-log/cross-field",
      "access-log/lookup",
      "crlf-text/cross-field",
      "json-api/cross-field",
      "json-min/cross-field",
      "jsonl-log/cross-field",
      "jsonl-log/lookup",
      "markdown/lookup",
      "yaml-list/cross-field",
    ]);
  });
});

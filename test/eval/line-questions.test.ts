/**
 * Which of the live benchmark's questions ask about a line (`lineNumberNote`,
 * src/surfaces/task-line-numbers.ts): the pre-registered arm for it plays the test-output
 * cross-field questions, every phrasing of which asks for a source file and line the output
 * prints (docs/evaluation.md). Pinned over every phrasing of several draws, so a new phrasing
 * that asks about a line is noticed.
 */
import { describe, expect, it } from "vitest";
import { drawTasks } from "../../eval/tasks/draw.js";
import { asksAboutALine } from "../../src/surfaces/task-line-numbers.js";

describe("the live benchmark's questions about a line", () => {
  const tasks = [7, 123457, 604231].flatMap((seed) =>
    drawTasks({ seed, count: 400, chars: 4_000 }),
  );
  const asking = tasks.filter((task) => asksAboutALine(task.question, Number.MAX_SAFE_INTEGER));

  it("include every test-output cross-field question", () => {
    const aimed = tasks.filter(
      (task) => task.shape === "test-output" && task.kind === "cross-field",
    );
    expect(aimed.length).toBeGreaterThan(10);
    expect(aimed.every((task) => asking.includes(task))).toBe(true);
  });

  it("are of these shapes and kinds only", () => {
    const cells = new Set(asking.map((task) => `${task.shape} · ${task.kind}`));
    expect([...cells].sort()).toEqual([
      "access-log · ordinal",
      "app-log · ordinal",
      "build-log · ordinal",
      "non-latin · cross-field",
      "non-latin · ordinal",
      "test-output · cross-field",
      "test-output · lookup",
    ]);
  });
});

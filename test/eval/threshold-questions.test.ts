/**
 * Which of the live benchmark's questions state a threshold the handle message reads
 * (`thresholdLines`, src/surfaces/task-threshold.ts): the pre-registered arm for it plays the
 * test-output pattern questions on the claim that they are the only ones, so that the handle
 * message of every other task is the same with the behaviour on or off (docs/evaluation.md).
 * Pinned over every phrasing of several draws, so a new phrasing that states one is noticed.
 */
import { describe, expect, it } from "vitest";
import { drawTasks } from "../../eval/tasks/draw.js";
import { taskThreshold } from "../../src/surfaces/task-threshold.js";

describe("the live benchmark's threshold questions", () => {
  it("are its test-output pattern questions, and each of those states one", () => {
    const tasks = [7, 123457, 604231].flatMap((seed) =>
      drawTasks({ seed, count: 400, chars: 4_000 }),
    );
    const stating = tasks.filter((task) => taskThreshold(task.question) !== undefined);
    const aimed = tasks.filter((task) => task.shape === "test-output" && task.kind === "pattern");
    expect(aimed.length).toBeGreaterThan(10);
    expect(stating.map((task) => task.id)).toEqual(aimed.map((task) => task.id));
    expect(new Set(stating.map((task) => taskThreshold(task.question)!.label))).toEqual(
      new Set(["over 10 s"]),
    );
  });
});

import { describe, expect, it } from "vitest";
import { DEVELOPMENT_SEED, drawTasks, freshSeed } from "../../eval/tasks/draw.js";
import { holdsValue, scoreLiveReport, valueTokens } from "../../eval/tasks/score.js";
import { SHAPE_LIST } from "../../eval/tasks/shapes/index.js";
import { QUESTION_KINDS } from "../../eval/tasks/types.js";
import { Rng } from "../../src/core/rng.js";

const CHARS = 60_000;

describe("live benchmark shapes", () => {
  for (const shape of SHAPE_LIST) {
    describe(shape.name, () => {
      for (const seed of [1, 2, 3, 11, 97]) {
        it(`seed ${seed}: a file of the asked size whose questions hold their answers and decoys`, () => {
          const file = shape.generate(new Rng(seed), CHARS);
          expect(file.text.length).toBeGreaterThan(CHARS * 0.7);
          expect(file.text.length).toBeLessThan(CHARS * 1.6);
          const kinds = new Set(file.questions.map((q) => q.kind));
          expect(kinds.size).toBeGreaterThanOrEqual(3);
          for (const q of file.questions) {
            expect(QUESTION_KINDS).toContain(q.kind);
            expect(q.phrasings.length).toBeGreaterThanOrEqual(5);
            for (const p of q.phrasings) expect(p).toContain("{file}");
            // The answer is in the file, as written, and no phrasing gives it away.
            expect(file.text.includes(q.expected), `${q.kind}: ${q.expected}`).toBe(true);
            for (const p of q.phrasings) expect(holdsValue(p, q.expected), p).toBe(false);
            // Every decoy is a value of the file too, and none is the answer.
            const decoys = q.decoys.filter((d) => d !== "");
            expect(decoys.length, `${q.kind} has decoys`).toBeGreaterThan(0);
            for (const d of decoys) {
              expect(file.text.includes(d), `${q.kind} decoy ${d}`).toBe(true);
              expect(d).not.toBe(q.expected);
            }
          }
        });
      }
    });
  }
});

describe("drawTasks", () => {
  it("draws the same tasks for the same seed, and others for another", () => {
    const a = drawTasks({ seed: 4242, count: 8 });
    const b = drawTasks({ seed: 4242, count: 8 });
    const c = drawTasks({ seed: 4243, count: 8 });
    expect(a.map((t) => [t.question, t.expected])).toEqual(b.map((t) => [t.question, t.expected]));
    expect(a.map((t) => t.question)).not.toEqual(c.map((t) => t.question));
  });

  it("covers every shape in as many consecutive tasks, and balances question kinds", () => {
    const tasks = drawTasks({ seed: 99, count: SHAPE_LIST.length * 2 });
    expect(new Set(tasks.slice(0, SHAPE_LIST.length).map((t) => t.shape)).size).toBe(
      SHAPE_LIST.length,
    );
    const perKind = new Map<string, number>();
    for (const t of tasks) perKind.set(t.kind, (perKind.get(t.kind) ?? 0) + 1);
    const counts = [...perKind.values()];
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(2);
    for (const t of tasks) {
      expect(t.question).toContain(t.fileName);
      expect(t.question).not.toContain("{file}");
    }
  });

  it("never draws the development seed as a fresh one", () => {
    let calls = 0;
    const stuck = () => (calls++ === 0 ? (DEVELOPMENT_SEED - 1000) / 999_000 : 0.5);
    expect(freshSeed(stuck)).not.toBe(DEVELOPMENT_SEED);
  });
});

describe("scoreLiveReport", () => {
  const task = drawTasks({ seed: 5, count: 1 })[0]!;
  const shown = task.text;

  it("takes a report naming the answer", () => {
    expect(scoreLiveReport(task, `The answer is ${task.expected}.`, shown).correct).toBe(true);
  });

  it("refuses a report naming a decoy beside the answer, or nothing", () => {
    const decoy = task.decoys[0]!;
    const both = scoreLiveReport(task, `Either ${task.expected} or ${decoy}.`, shown);
    expect(both.correct).toBe(false);
    expect(both.decoysNamed).toContain(decoy);
    expect(scoreLiveReport(task, "I could not find it.", shown).correct).toBe(false);
    expect(scoreLiveReport(task, null, shown).correct).toBe(false);
  });

  it("counts a value nothing showed as invented, and a shown one not", () => {
    const scored = scoreLiveReport(task, "It is ZZQ-90817 (see the log).", "nothing here");
    expect(scored.inventedValues).toEqual(["zzq-90817"]);
    expect(scoreLiveReport(task, `It is ${task.expected}.`, shown).inventedValues).toEqual([]);
  });

  it("says whether a tool result held an answer the file holds once, whatever the report", () => {
    const once = { ...task, text: `a ${task.expected} b`, accepted: [] };
    expect(scoreLiveReport(once, "I could not find it.", `x ${task.expected}`).answerShown).toBe(
      true,
    );
    expect(scoreLiveReport(once, `It is ${task.expected}.`, "nothing here").answerShown).toBe(
      false,
    );
    const twice = { ...once, text: `${task.expected} and ${task.expected}` };
    expect(scoreLiveReport(twice, "no", `x ${task.expected}`).answerShown).toBeNull();
  });

  it("ends a value where Japanese or Chinese text attaches to it", () => {
    expect(valueTokens("品番はYH-53302です。")).toEqual(["yh-53302"]);
    expect(valueTokens("在庫メモのRN-72815、KT-31944")).toEqual(["rn-72815", "kt-31944"]);
    expect(scoreLiveReport(task, "YH-53302です", "品番: YH-53302").inventedValues).toEqual([]);
    expect(valueTokens("order ord-58213 at 09:26")).toEqual(["ord-58213", "09:26"]);
  });

  it("matches whole values only", () => {
    expect(holdsValue("latency 18430 ms", "1843")).toBe(false);
    expect(holdsValue("latency 1,843 ms", "1843")).toBe(true);
    expect(holdsValue("image: shop/checkout:4.1.2-canary.3.", "shop/checkout:4.1.2-canary.3")).toBe(
      true,
    );
  });
});

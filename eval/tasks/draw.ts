/**
 * Drawing a run's tasks from a seed: shapes in turn (a shuffled order, so any 13 consecutive
 * tasks cover every shape), a question kind per task balanced across the run, a phrasing at
 * random. Each task has a file of its own, generated from the seed and its index: the same seed
 * gives the same tasks, byte for byte, so a run can be resumed or split across sessions.
 */
import { Rng, seedOf } from "../../src/core/rng.js";
import { SHAPE_LIST } from "./shapes/index.js";
import type { GeneratedFile, LiveTask, QuestionSpec, Shape, ShapeName } from "./types.js";

/** The characters of each task's file, by default: over every peer's inline limit, small enough to be quick. */
export const DEFAULT_FILE_CHARS = 60_000;

/** The random seed documented for iterating (figures never come from it). */
export const DEVELOPMENT_SEED = 7;

export interface DrawOptions {
  readonly seed: number;
  readonly count: number;
  readonly chars?: number;
  /** Only these shapes (default: all). */
  readonly shapes?: readonly Shape[];
}

/**
 * A fresh seed for a reported run: random, printed by the caller, never the development seed.
 *
 * @example
 * const seed = freshSeed(); // e.g. 418263
 */
export function freshSeed(random: () => number = Math.random): number {
  for (;;) {
    const seed = 1000 + Math.floor(random() * 999_000);
    if (seed !== DEVELOPMENT_SEED) return seed;
  }
}

/** Decoys that could be taken for the answer or contain it are dropped; so are empty ones. */
function cleanDecoys(spec: QuestionSpec): string[] {
  const expected = spec.expected.toLowerCase();
  const accepted = (spec.accepted ?? []).map((a) => a.toLowerCase());
  return [...new Set(spec.decoys)].filter((d) => {
    const lower = d.toLowerCase();
    return (
      lower.length > 0 &&
      !lower.includes(expected) &&
      !expected.includes(lower) &&
      !accepted.some((a) => a.includes(lower) || lower.includes(a))
    );
  });
}

/**
 * The tasks of a run.
 *
 * @example
 * const tasks = drawTasks({ seed: 418263, count: 30 });
 * tasks[0].question; // "Which order did request req-7f3a2c handle in data/app.log?"
 */
export function drawTasks(options: DrawOptions): LiveTask[] {
  const shapes = options.shapes ?? SHAPE_LIST;
  const rng = new Rng(seedOf(`live-tasks/${options.seed}`));
  const order = [...shapes];
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const kindsUsed = new Map<string, number>();
  const tasks: LiveTask[] = [];
  for (let index = 0; index < options.count; index++) {
    const shape = order[index % order.length]!;
    const fileRng = new Rng(seedOf(`live-file/${options.seed}/${index}`));
    const file = shape.generate(fileRng, options.chars ?? DEFAULT_FILE_CHARS);
    // The least used kind so far among this file's questions, ties broken at random.
    const least = Math.min(...file.questions.map((q) => kindsUsed.get(q.kind) ?? 0));
    const candidates = file.questions.filter((q) => (kindsUsed.get(q.kind) ?? 0) === least);
    const spec = candidates[rng.int(candidates.length)]!;
    kindsUsed.set(spec.kind, (kindsUsed.get(spec.kind) ?? 0) + 1);
    tasks.push(taskOf(options.seed, index, shape.name, file, spec, rng.int(spec.phrasings.length)));
  }
  return tasks;
}

/**
 * One task: a file, one of its questions in one phrasing, numbered `index` (0-based) in its run.
 *
 * @example
 * const file = appLog.generate(new Rng(1), 30_000);
 * taskOf(1, 0, "app-log", file, file.questions[0], 2).question; // "Find request req-… in data/01-app.log and …"
 */
export function taskOf(
  seed: number,
  index: number,
  shape: ShapeName,
  file: GeneratedFile,
  spec: QuestionSpec,
  phrasing: number,
): LiveTask {
  const number = String(index + 1).padStart(2, "0");
  const path = `data/${number}-${file.name}`;
  return {
    id: `${seed}-${number}`,
    seed,
    shape,
    kind: spec.kind,
    phrasing,
    question: spec.phrasings[phrasing]!.replaceAll("{file}", path),
    fileName: path,
    text: file.text,
    expected: spec.expected,
    accepted: spec.accepted ?? [],
    decoys: cleanDecoys(spec),
  };
}

/**
 * The live benchmark's tasks: a file of a common shape, a question a person would ask about it,
 * and what the scorer needs (the expected value, the decoys a careless reader would report).
 * No agent ever sees a task: only its file (through the file server) and its question.
 */

/** The output shapes the benchmark draws files of. */
export const SHAPES = [
  "app-log",
  "jsonl-log",
  "access-log",
  "json-api",
  "json-min",
  "yaml-list",
  "csv",
  "test-output",
  "build-log",
  "html",
  "markdown",
  "non-latin",
  "crlf-text",
] as const;
export type ShapeName = (typeof SHAPES)[number];

/**
 * The kinds of question: a value by an id (`lookup`); the first, last or earliest occurrence of
 * something (`ordinal`); a field of the record another field identifies (`cross-field`); a value
 * described by its form, which only a regular expression (or reading) finds (`pattern`).
 */
export const QUESTION_KINDS = ["lookup", "ordinal", "cross-field", "pattern"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** One question of a file: its phrasings (one is drawn) and how its answer is scored. */
export interface QuestionSpec {
  readonly kind: QuestionKind;
  /** At least five ways a person asks it; `{file}` stands for the file's path. */
  readonly phrasings: readonly string[];
  /** The exact value the report must name. */
  readonly expected: string;
  /** Other spellings of the same value that also count (e.g. without a unit). */
  readonly accepted?: readonly string[];
  /** Values in the file a careless reader would report instead: a report naming one is wrong. */
  readonly decoys: readonly string[];
}

/** A generated file and the questions it answers. */
export interface GeneratedFile {
  /** The file's name (its extension matches its shape). */
  readonly name: string;
  readonly text: string;
  readonly questions: readonly QuestionSpec[];
}

/** A shape: draws one file of about `chars` characters with its questions from `rng`. */
export interface Shape {
  readonly name: ShapeName;
  generate(rng: import("../../src/core/rng.js").Rng, chars: number): GeneratedFile;
}

/** One task of a run: a file, one question about it in one phrasing. */
export interface LiveTask {
  /** `<seed>-<index>`: unique in a run, stable for the same seed. */
  readonly id: string;
  readonly seed: number;
  readonly shape: ShapeName;
  readonly kind: QuestionKind;
  /** Which of the question's phrasings was drawn (0-based). */
  readonly phrasing: number;
  /** The question as the agent gets it, the file's path filled in. */
  readonly question: string;
  readonly fileName: string;
  readonly text: string;
  readonly expected: string;
  readonly accepted: readonly string[];
  readonly decoys: readonly string[];
}

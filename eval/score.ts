/**
 * Scoring from the report alone: what the run's final report says, checked against the task's
 * expected value, and against everything the model was shown (for invented values). The
 * scorer reads no agent state; it gets the report text, and the prompt and tool results as sent.
 */
import { ANSWER_PATTERN, type Task, TXN_PATTERN } from "./workload.js";

/** Values shaped like the workload's answers (`ANS-…`, `TXN-dddd-LLLL`). */
const ANSWER_SHAPED = new RegExp(`${ANSWER_PATTERN}|${TXN_PATTERN.replace(/\\b/g, "")}`, "g");
/**
 * Values a model might state as an answer: capitals and digits joined by dashes (`ANS-4K2P9X`,
 * `REF-12345`), or any word of six or more letters and digits holding a digit (`1234567890`,
 * `a1b2c3d4`).
 */
const VALUE_LIKE =
  /(?<![\w-])(?:[A-Z0-9]{2,}(?:-[A-Z0-9]+)+|(?=[A-Za-z0-9_]*\d)[A-Za-z0-9_]{6,})(?![\w-])/g;

export interface Scored {
  /** The report names the expected value and no other answer-shaped value. */
  readonly correct: boolean;
  /** The answer-shaped value the report names first, if any. */
  readonly answer: string | null;
  /** The report states a value (code-like, or a word with digits) that nothing shown to the model held. */
  readonly invented: boolean;
  /** The invented values. */
  readonly inventedValues: readonly string[];
}

/**
 * Scores a final report.
 *
 * @example
 * scoreReport(task, "The refund reference is ANS-4K2P9X.", shownTexts.join("\n"));
 * // { correct: true, answer: "ANS-4K2P9X", invented: false, inventedValues: [] }
 */
export function scoreReport(task: Task, report: string | null, shown: string): Scored {
  const text = report ?? "";
  const named = [...new Set(text.match(ANSWER_SHAPED) ?? [])];
  const invented = [...new Set(text.match(VALUE_LIKE) ?? [])].filter((v) => !shown.includes(v));
  return {
    correct: named.length === 1 && named[0] === task.expected,
    answer: named[0] ?? null,
    invented: invented.length > 0,
    inventedValues: invented,
  };
}

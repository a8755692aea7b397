/**
 * The handle message's lines past the task's threshold (the `thresholdLines` guidance switch):
 * when the task compares with a measured number ("which suite ran over 10 s"), the lines holding
 * a value past it, in the output's order, with how many there are. The values share no word
 * with the question, so the task search cannot find them (docs/agent-runtime.md).
 */
import { grepOutput } from "../retrieval/grep.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { withoutLocations } from "./task-search.js";
import {
  type Dimension,
  type Threshold,
  taskThreshold,
  valuePattern,
  valuesPast,
} from "./task-threshold.js";

/** Lines shown; the rest are counted. */
const SHOWN_LINES = 5;
/** Lines holding a value of the dimension that are checked, at most (a page of grep each 1,000). */
const CHECKED_LINES = 5_000;
const PAGE = 1_000;
const LINE_CHARS = 200;

/** One line holding a value past the threshold. */
export interface PastLine {
  readonly line: number;
  readonly text: string;
}

export interface ThresholdLines {
  readonly bound: Threshold;
  /** The first lines past it, in the output's order. */
  readonly lines: readonly PastLine[];
  /** Lines past it among those checked. */
  readonly count: number;
  /** False when more lines held a value of its dimension than were checked. */
  readonly complete: boolean;
}

/**
 * The lines of the output holding a value past the threshold the task states, or undefined
 * when the task states none (or the output is binary).
 *
 * @example
 * await thresholdLines(outputs, record, scope, "Which suite ran over 10 s?");
 * // { bound: { label: "over 10 s", … }, lines: [{ line: 974, text: "PASS src/totals.test.ts (17.576 s)" }], count: 2, complete: true }
 */
export async function thresholdLines(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  task: string,
): Promise<ThresholdLines | undefined> {
  if (record.kind === "binary") return undefined;
  const bound = taskThreshold(withoutLocations(task, record.toolArgs));
  if (!bound) return undefined;
  const opened = await outputs.open(record.id, scope);
  try {
    const lines: PastLine[] = [];
    let count = 0;
    let checked = 0;
    let cursor: number | null = 0;
    while (cursor !== null && checked < CHECKED_LINES) {
      const page = await grepOutput(opened, {
        pattern: valuePattern(bound.dimension),
        regex: true,
        ignoreCase: true,
        maxMatches: PAGE,
        maxLineChars: LINE_CHARS,
        cursor,
      });
      for (const match of page.matches) {
        checked++;
        if (valuesPast(match.text, bound).length === 0) continue;
        count++;
        if (lines.length < SHOWN_LINES) lines.push({ line: match.line, text: match.text });
      }
      cursor = page.nextCursor;
    }
    return { bound, lines, count, complete: cursor === null };
  } finally {
    await opened.close();
  }
}

const IN_ANY_UNIT: Readonly<Record<Dimension, string>> = {
  time: "in any unit of time",
  size: "in any unit of data size",
  percent: "as a percentage",
};

/**
 * The section as the handle message shows it: a head naming the comparison and the count, then
 * the lines (`  LINE| text`); when no line holds such a value, one sentence saying so.
 */
export function thresholdSectionLines(found: ThresholdLines | undefined): string[] {
  if (!found) return [];
  const { bound, lines, count, complete } = found;
  const label = bound.label;
  if (count === 0) {
    const where = complete
      ? "no line of it"
      : `none of the first ${CHECKED_LINES.toLocaleString("en-US")} lines with such a value`;
    return [
      "",
      `Your task compares with a number (${label}): ${where} holds a value ${label} (${IN_ANY_UNIT[bound.dimension]}).`,
    ];
  }
  const total = `${complete ? "" : "at least "}${count.toLocaleString("en-US")}`;
  const shown = count > lines.length ? `; the first ${lines.length} shown` : "";
  return [
    "",
    `Your task compares with a number (${label}). The lines of it holding a value ${label}, ${IN_ANY_UNIT[bound.dimension]} (${total} line${count === 1 ? "" : "s"}${shown}, in their order):`,
    ...lines.map((l) => `  ${l.line}| ${l.text}`),
  ];
}

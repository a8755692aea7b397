/**
 * The handle message's lines past the task's threshold (the `thresholdLines` guidance switch):
 * when the task compares with a measured number ("which request took longer than 2 s"), the
 * lines holding a value past it, in the output's order, with how many there are. The values
 * share no word with the question, so the task search cannot find them (docs/agent-runtime.md).
 */
import { defaultPatternTimeoutMs, grepOutput } from "../retrieval/grep.js";
import type { GrepMatch } from "../retrieval/grep-types.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { withoutLocations } from "./task-search.js";
import {
  type Dimension,
  isPast,
  measuredValues,
  type Threshold,
  taskThreshold,
  valuePattern,
} from "./task-threshold.js";

/** Lines shown; the rest are counted. */
const SHOWN_LINES = 5;
/**
 * Grep entries checked at most: lines the coarse pattern finds (a digit and a unit after it),
 * an entry per match on a long line.
 */
const CHECKED_ENTRIES = 5_000;
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
  /** Lines holding a value of the bound's dimension, past it or not, among those checked. */
  readonly valueLines: number;
  /** False when the scan stopped before the end (its entry cap, or its deadline). */
  readonly complete: boolean;
}

/**
 * Where a grep entry's values are read from: an excerpt of a long line may start inside a
 * number, so a value at its very start is not read.
 */
const readFrom = (match: GrepMatch) => (match.clipped ? 1 : 0);

/**
 * The lines of the output holding a value past the threshold the task states, or undefined
 * when the task states none (or the output is binary). One deadline bounds the whole scan.
 *
 * @example
 * await thresholdLines(outputs, record, scope, "Which request took longer than 2 seconds?");
 * // { bound: { label: "over 2 s", … }, lines: [{ line: 141, text: "… 2350ms" }], count: 3, valueLines: 600, complete: true }
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
  const deadline = performance.now() + defaultPatternTimeoutMs(record.byteSize ?? 0);
  const opened = await outputs.open(record.id, scope);
  try {
    const lines: PastLine[] = [];
    const past = new Set<number>();
    const withValue = new Set<number>();
    let checked = 0;
    let cursor: number | null = 0;
    while (cursor !== null && checked < CHECKED_ENTRIES) {
      const left = deadline - performance.now();
      if (left <= 0) break;
      const page = await grepOutput(opened, {
        pattern: valuePattern(bound.dimension),
        regex: true,
        ignoreCase: true,
        maxMatches: PAGE,
        maxLineChars: LINE_CHARS,
        timeoutMs: Math.ceil(left),
        cursor,
      });
      for (const match of page.matches) {
        checked++;
        // Each entry is read once: its values of the dimension, then those past the bound.
        const values = measuredValues(match.text, bound.dimension, readFrom(match));
        if (values.length > 0) withValue.add(match.line);
        if (past.has(match.line) || !values.some((v) => isPast(v.base, bound))) continue;
        past.add(match.line);
        if (lines.length < SHOWN_LINES) lines.push({ line: match.line, text: match.text });
      }
      cursor = page.nextCursor;
    }
    return {
      bound,
      lines,
      count: past.size,
      valueLines: withValue.size,
      complete: cursor === null,
    };
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
 * the lines (`  LINE| text`). When no line past the bound was found among lines holding values
 * of its dimension, one sentence says so; when no line holds such a value at all, nothing (the
 * output may write them in a form not read, such as a `duration_ms` column).
 */
export function thresholdSectionLines(found: ThresholdLines | undefined): string[] {
  if (!found || found.valueLines === 0) return [];
  const { bound, lines, count, valueLines, complete } = found;
  const label = bound.label;
  const units = IN_ANY_UNIT[bound.dimension];
  const atLeast = complete ? "" : "at least ";
  if (count === 0) {
    const searched = complete ? "" : " (the first part searched)";
    return [
      "",
      `Your task compares with a number (${label}): of the ${atLeast}${valueLines.toLocaleString("en-US")} lines of it holding a value ${units}${searched}, none holds one ${label}.`,
    ];
  }
  const total = `${atLeast}${count.toLocaleString("en-US")}`;
  const shown = count > lines.length ? `; the first ${lines.length} shown` : "";
  return [
    "",
    `Your task compares with a number (${label}). The lines of it holding a value ${label}, ${units} (${total} line${count === 1 ? "" : "s"}${shown}, in their order):`,
    ...lines.map((l) => `  ${l.line}| ${l.text}`),
  ];
}

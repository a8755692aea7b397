/**
 * The task search's best result in a handle message, as a model reading it top down meets it
 * first: the record the best line was found in (its numbered lines within the record's range),
 * or the first line the search shows. A weak model tends to take what it is shown first, so the
 * proxy counts the tasks whose expected value is there apart from those where it is anywhere.
 */
import { TASK_SEARCH_HEAD } from "../src/surfaces/task-section.js";
import { VALUE_TOKEN } from "./tasks/score.js";

/** A record's header line: `[record: log entry, lines 3,482-3,486; …]` or `line 12; …`. */
const RECORD_RANGE = /^\s*\[record: [^\]]*?\blines? ([\d,]+)(?:-([\d,]+))?/;
/** The line number the handle message puts before a line of the output (`  1482| `). */
const NUMBERED = /^\s*(\d+)\| /;

const lineNumber = (text: string) => Number(text.replaceAll(",", ""));

/**
 * The lines of the search's best result, or an empty list when the message shows no search.
 *
 * @example
 * bestResult("A search of it for the words of your task found these lines (best first).\n  12| a\n  40| b\n");
 * // ["  12| a"]
 */
export function bestResult(message: string): string[] {
  const lines = message.split("\n");
  const start = lines.findIndex((line) => line.startsWith(TASK_SEARCH_HEAD));
  if (start === -1) return [];
  const section: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") break;
    section.push(line);
  }
  const range = RECORD_RANGE.exec(section[0] ?? "");
  if (!range) return section.slice(0, 1);
  const from = lineNumber(range[1]!);
  const to = range[2] ? lineNumber(range[2]) : from;
  return section.slice(1).filter((line) => {
    const numbered = NUMBERED.exec(line);
    return numbered !== null && Number(numbered[1]) >= from && Number(numbered[1]) <= to;
  });
}

/** A value's form: its letters and digits by class, the rest as it is (`ord-58213` → `aaa-99999`). */
const formOf = (value: string) =>
  value
    .replace(/\p{Lu}/gu, "A")
    .replace(/\p{Ll}/gu, "a")
    .replace(/\p{N}/gu, "9");
/** The lines without the numbers the handle message put before them: those are not the output's. */
export const withoutLineNumbers = (lines: readonly string[]) =>
  lines.map((line) => line.replace(NUMBERED, ""));

/**
 * How many distinct values of the same form as the answer (`values`: the expected value and its
 * accepted spellings; the form of the first), other than those, the best result's lines hold:
 * what a reader could take for the answer beside it. Line numbers are not the output's and are
 * not counted; a value is a run of letters, digits and `._:/@+-`, so an answer with a space or a
 * comma in it has no look-alikes.
 *
 * @example
 * lookAlikes(["  64|     Expected: 6869", "  65|     Received: 8022"], ["8022"]) // 1
 */
export function lookAlikes(best: readonly string[], values: readonly string[]): number {
  const form = formOf(values[0] ?? "");
  const found = new Set<string>();
  for (const line of withoutLineNumbers(best)) {
    for (const token of line.match(VALUE_TOKEN) ?? []) {
      if (!values.includes(token) && formOf(token) === form) found.add(token);
    }
  }
  return found.size;
}

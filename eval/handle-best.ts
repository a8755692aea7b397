/**
 * The task search's best result in a handle message, as a model reading it top down meets it
 * first: the record the best line was found in (its numbered lines within the record's range),
 * or the first line the search shows. A weak model tends to take what it is shown first, so the
 * proxy counts the tasks whose expected value is there apart from those where it is anywhere.
 */
import { TASK_SEARCH_HEAD } from "../src/surfaces/handle-message.js";

/** A record's header line: `[record: log entry, lines 3,482-3,486; …]` or `line 12; …`. */
const RECORD_RANGE = /^\s*\[record: [^\]]*?\blines? ([\d,]+)(?:-([\d,]+))?/;
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

/**
 * The handle message numbers the lines it shows (`  1381| text`): those numbers are places in
 * the stored output. Many outputs print line numbers of their own (a compiler's `file.ts:42`, a
 * stack frame, a code frame, `grep -n`), and a task asking for one of those can be answered with
 * spillway's number by mistake. When the task speaks of a line and names none of the output's
 * lines by number, the message says which numbers are whose (the `lineNumberNote` guidance
 * switch, docs/agent-runtime.md).
 */
import { taskLines } from "./task-lines.js";

/**
 * A line, or a line number, in English, Japanese or Chinese: "line", "line number", "file:line",
 * "行番号", "3行目", "行号", "哪一行", "第3行". Words that only hold "line" ("deadline",
 * "pipeline", "online", "lines of output" aside) do not count.
 */
const LINE_WORDS =
  /(?<![\p{L}\p{N}])line(?:\s*(?:number|no\.?)s?)?(?![\p{L}])|行番号|行目|行号|哪一?行|第\s*[\d０-９一二三四五六七八九十百]+\s*行/iu;

/** The sentence that tells the two kinds of line numbers apart. */
export const LINE_NUMBER_NOTE =
  "Your task asks about a line: the number before `|` on each line shown here is the line's place in this stored output, added by spillway; a line number the output itself prints (like `file.ts:42`) is in the text after `|`.";

/**
 * Whether the handle message should say which line numbers are whose: the task speaks of a line
 * and does not name one of the output's lines by number (then the task means spillway's
 * numbers, and the handle message offers to read exactly those lines).
 *
 * @example
 * asksAboutALine("Where did the test fail? Give the file:line.", 1388); // true
 * asksAboutALine("Read line 135 and report its checksum.", 300); // false: line 135 is the output's
 * asksAboutALine("Which pipeline step failed?", 300); // false
 */
export function asksAboutALine(taskText: string, lineCount: number): boolean {
  return LINE_WORDS.test(taskText) && taskLines(taskText, lineCount) === undefined;
}

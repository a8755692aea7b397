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
 * "行番号", "3行目", "何行目", "どの行", "行号", "哪一行", "第3行", "第几行". Words that only hold
 * "line" ("deadline", "pipeline", "online", "lines of output" aside) do not count, nor do words
 * that only hold 行 (発行番号 is an issue number, 実行目的 a purpose, 银行号码 a bank's number,
 * 第一行动 a first action). English may sit beside kana or Han with no space ("file:lineを").
 */
const LINE_WORDS = new RegExp(
  [
    String.raw`(?<![A-Za-z0-9])line(?:\s*(?:number|no\.?)s?)?(?![A-Za-z])`,
    // 行番号 / 行号, not as the end of a word for an issuer, a bank, a run or a trip.
    "(?<![発發发銀银実實执執運运旅航流進进])行(?:番号|号)",
    // The n-th line: a number or a question word before 行目; 第 N 行, not 第一行动 (an action).
    String.raw`(?:[\d０-９一二三四五六七八九十百]|何)\s*行目`,
    String.raw`第\s*(?:[\d０-９一二三四五六七八九十百]+|几)\s*行(?![动動为為政列])`,
    "どの行|哪一?行(?![业當当])",
  ].join("|"),
  "iu",
);

/** The sentence that tells the two kinds of line numbers apart. */
export const LINE_NUMBER_NOTE =
  "Your task asks about a line: the number before `|` on each line shown here is the line's place in this stored output, added by spillway; a line number the output itself prints (like `file.ts:42`) is in the text after `|`.";

/**
 * Whether the handle message should say which line numbers are whose: the task speaks of a line
 * and does not name one of the output's lines by number in English (`taskLines`: then the task
 * means spillway's numbers, and the handle message offers to read exactly those lines).
 *
 * @example
 * asksAboutALine("Where did the test fail? Give the file:line.", 1388); // true
 * asksAboutALine("Read line 135 and report its checksum.", 300); // false: line 135 is the output's
 * asksAboutALine("Which pipeline step failed?", 300); // false
 */
export function asksAboutALine(taskText: string, lineCount: number): boolean {
  return LINE_WORDS.test(taskText) && taskLines(taskText, lineCount) === undefined;
}

/**
 * The focused reading (the `focusedReading` guidance switch, SW-54 in docs/architecture.md): the
 * numbered lines a handle message shows are read once more, alone with the task, in a short
 * request of their own, and the line it points to is named under them. A model that has to pick a
 * value out of a long context often reports a neighbour of it; the same model given only the task
 * and a few lines picks better, because nothing else competes for its attention. What it points
 * to is named only when the stored line holds the value exactly: the pointer never adds a value
 * the output does not hold.
 */

/** The reading request's instructions; a scripted model server recognises the request by them. */
export const FOCUSED_READING_SYSTEM = [
  "You point to evidence. You get a task and some numbered lines of a tool's output.",
  "Find the one line that answers the task. Reply with exactly two lines:",
  "LINE: <the line's number>",
  "VALUE: <the answer, copied character for character from that line>",
  "If no line answers the task, reply NONE.",
].join("\n");

/** Lines given to the reading at most: a handle message shows fewer. */
const MAX_ROWS = 60;
/** The reply's length limit in tokens: a number and a value. */
export const FOCUSED_READING_MAX_TOKENS = 80;
/** A value longer than this is a passage, not a value to point to. */
const MAX_VALUE_CHARS = 200;

/** A numbered row of a handle message (`  195| text`). */
const ROW = /^ *([\d,]+)\| ([^\n]*)$/;

/** One line a handle message shows: its number in the output and its text as shown. */
export interface ShownRow {
  readonly line: number;
  readonly text: string;
}

/**
 * The numbered rows a handle message shows, each line once (the first time it appears), in order.
 *
 * @example
 * shownRows("Lines:\n  12| level=error code=E42\n  13| done");
 * // [{ line: 12, text: "level=error code=E42" }, { line: 13, text: "done" }]
 */
export function shownRows(message: string): ShownRow[] {
  const rows = new Map<number, string>();
  for (const row of message.split("\n")) {
    const match = ROW.exec(row.replace(/\r$/, ""));
    if (!match) continue;
    const line = Number(match[1]!.replaceAll(",", ""));
    if (Number.isSafeInteger(line) && line > 0 && !rows.has(line)) rows.set(line, match[2]!);
    if (rows.size >= MAX_ROWS) break;
  }
  return [...rows].map(([line, text]) => ({ line, text }));
}

/**
 * The reading's user message: the task, then the rows as the handle message numbers them.
 *
 * @example
 * focusedReadingPrompt("Which code did the error have?", [{ line: 12, text: "code=E42" }]);
 * // "Task: Which code did the error have?\n\nLines:\n  12| code=E42"
 */
export function focusedReadingPrompt(task: string, rows: readonly ShownRow[]): string {
  return [`Task: ${task.trim()}`, "", "Lines:", ...rows.map((r) => `  ${r.line}| ${r.text}`)].join(
    "\n",
  );
}

/** What the reading pointed to: a line and a value it says that line holds. */
export interface FocusedReading {
  readonly line: number;
  readonly value: string;
}

/** Quotes and backticks a model wraps a copied value in, which the line itself may not hold. */
const WRAPPED = /^(["'`])(.*)\1$/s;

/**
 * The line and value of a reading's reply, or nothing when it declined or did not answer in form.
 *
 * @example
 * parseFocusedReading("LINE: 12\nVALUE: E42"); // { line: 12, value: "E42" }
 * parseFocusedReading("NONE"); // undefined
 */
export function parseFocusedReading(reply: string): FocusedReading | undefined {
  const line = /^\s*LINE:\s*([\d,]+)\s*$/im.exec(reply)?.[1];
  const raw = /^\s*VALUE:[ \t]*(.*?)\s*$/im.exec(reply)?.[1];
  if (line === undefined || raw === undefined) return undefined;
  const value = (WRAPPED.exec(raw)?.[2] ?? raw).trim();
  const number = Number(line.replaceAll(",", ""));
  if (!Number.isSafeInteger(number) || number <= 0) return undefined;
  if (value.length === 0 || value.length > MAX_VALUE_CHARS) return undefined;
  return { line: number, value };
}

/**
 * Whether a reading may be shown: it points to a line the message showed, and that line, as
 * stored, holds the value exactly. Anything else is dropped, so the pointer never names a value
 * the output does not hold where it says.
 *
 * @example
 * verifiedReading({ line: 12, value: "E42" }, [{ line: 12, text: "code=E42" }], "code=E42"); // true
 */
export function verifiedReading(
  reading: FocusedReading,
  rows: readonly ShownRow[],
  storedLine: string | undefined,
): boolean {
  if (!rows.some((row) => row.line === reading.line)) return false;
  return storedLine !== undefined && standsWhole(storedLine, reading.value);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Whether `value` occurs in `line` not cut out of a longer word or number: "23" is not a value
 * of "ord_1234aa". An edge of the value that is itself punctuation or space may touch anything.
 */
function standsWhole(line: string, value: string): boolean {
  const first = WORD_CHAR.test(value[0]!);
  const last = WORD_CHAR.test(value.at(-1)!);
  for (let at = line.indexOf(value); at >= 0; at = line.indexOf(value, at + 1)) {
    const before = line[at - 1];
    const after = line[at + value.length];
    const cutBefore = first && before !== undefined && WORD_CHAR.test(before);
    const cutAfter = last && after !== undefined && WORD_CHAR.test(after);
    if (!cutBefore && !cutAfter) return true;
  }
  return false;
}

/**
 * The note under the handle message: a pointer to check, not the answer.
 *
 * @example
 * focusedReadingNote({ line: 12, value: "E42" });
 * // 'A second, separate reading of the lines above for your task points to line 12: "E42". It can be wrong: check that line answers the task before you report it.'
 */
export function focusedReadingNote(reading: FocusedReading): string {
  // The value as the line holds it, quoted but not escaped: a model copies what it sees.
  return `A second, separate reading of the lines above for your task points to line ${reading.line}: "${reading.value}". It can be wrong: check that line answers the task before you report it.`;
}

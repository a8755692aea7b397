/**
 * The header row of an HTML table, for a record that is one of its rows (records.ts): a row's
 * cells say nothing of which column they are in, and the table's `<th>` cells name them, as a
 * CSV header row names its columns ([SW-32](../../docs/architecture.md#spillways-own)). Found by
 * the table's own tags above the row, within the same `<table>`.
 */
import type { LineWindow } from "./record-lines.js";
import type { FoundRecord } from "./record-types.js";

/** Lines above a row searched for its table's header cells, at most. */
const LOOK_BACK = 2_000;
/** Lines of one header row, at most. */
const HEADER_LINES = 20;

const DATA_CELL = /<td[\s>]/i;
const HEADER_CELL = /<th[\s>]/i;
const TABLE_START = /<table[\s>]/i;
const TABLE_END = /<\/table\s*>/i;

/** The text of each `<th>` cell, tags and entities' markup aside, trimmed. */
function headerNames(text: string): string[] {
  return [...text.matchAll(/<th[^>]*>([\s\S]*?)<\/th\s*>/gi)].map((m) =>
    m[1]!
      .replace(/<[^>]*>/g, "")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

/**
 * `row` with the header row of its table, when `row` holds data cells (`<td>`) and the lines
 * above it, within the same table, hold header cells (`<th>`); otherwise `row` as it is.
 *
 * @example
 * await withTableHeader(window, rowBlock);
 * // { …rowBlock, header: { charStart: 812, charEnd: 941, names: ["Service", "Region", "p95 latency"] } }
 */
export async function withTableHeader(window: LineWindow, row: FoundRecord): Promise<FoundRecord> {
  if (row.header || !(await holdsOnlyDataCells(window, row))) return row;
  let last = -1;
  let first = -1;
  for (let i = row.first - 1; i >= Math.max(0, row.first - LOOK_BACK); i--) {
    const line = await window.line(i);
    if (!line?.whole || TABLE_END.test(line.text)) break;
    if (HEADER_CELL.test(line.text)) {
      if (last < 0) last = i;
      first = i;
    } else if (last >= 0) break; // the header row's lines end here
    if (TABLE_START.test(line.text) || (last >= 0 && last - first + 1 >= HEADER_LINES)) break;
  }
  if (last < 0) return row;
  const top = (await window.line(first))!;
  const bottom = (await window.line(last))!;
  let text = "";
  for (let i = first; i <= last; i++) text += `${(await window.line(i))!.text}\n`;
  const names = headerNames(text);
  if (names.length < 2) return row;
  return {
    ...row,
    header: { charStart: top.start, charEnd: bottom.start + bottom.text.length, names },
  };
}

/** True when the record holds data cells and no header cell: a body row, not a whole table. */
async function holdsOnlyDataCells(window: LineWindow, row: FoundRecord): Promise<boolean> {
  let data = false;
  for (let i = row.first; i <= row.last; i++) {
    const line = await window.line(i);
    if (!line) continue;
    if (HEADER_CELL.test(line.text)) return false;
    data ||= DATA_CELL.test(line.text);
  }
  return data;
}

/**
 * Rows of pipe tables (Markdown, and text tables drawn the same way) as records (records.ts): a
 * row with the header row's names, found by the table's own shape: rows of `|`-separated cells
 * under a header row and a separator row of dashes. Cells are compared by count, never by what
 * they say.
 */
import type { LineWindow } from "./record-lines.js";
import type { FoundRecord, RecordField } from "./record-types.js";

/** Rows above a match searched for the table's separator row, at most. */
const MAX_TABLE_ROWS = 2_000;

/** A line drawn as a table row: it starts and ends with `|` (spaces aside). */
const isTableLine = (text: string) => /^\s*\|.*\|\s*$/.test(text);

/** The separator row under a table's header: cells of dashes, with optional alignment colons. */
const isSeparatorRow = (text: string) => /^\s*\|(\s*:?-{1,}:?\s*\|)+\s*$/.test(text);

/**
 * A table row's cells, trimmed: split on `|` not escaped with a backslash (`a \| b` is one cell).
 *
 * @example
 * cellsOf("| Payments | EU | Tomas Larsen |"); // ["Payments", "EU", "Tomas Larsen"]
 */
export function cellsOf(row: string): string[] {
  const inner = row.trim().slice(1, -1);
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|"));
}

/**
 * The pipe-table row at line `at` (0-based) with its fields named by the table's header row, or
 * null when the line is not a body row of such a table (the header and separator rows included)
 * or its cells do not match the header's in number.
 */
export async function tableRow(window: LineWindow, at: number): Promise<FoundRecord | null> {
  const row = await window.line(at);
  if (!row?.whole || !isTableLine(row.text) || isSeparatorRow(row.text)) return null;
  for (let i = at - 1; i >= Math.max(0, at - MAX_TABLE_ROWS); i--) {
    const line = await window.line(i);
    if (!line?.whole || !isTableLine(line.text)) return null;
    if (!isSeparatorRow(line.text)) continue;
    const head = await window.line(i - 1);
    if (!head?.whole || !isTableLine(head.text) || isSeparatorRow(head.text)) return null;
    const names = cellsOf(head.text);
    const cells = cellsOf(row.text);
    if (cells.length !== names.length) return null;
    const fields: RecordField[] = names.map((name, k) => ({ name, value: cells[k]! }));
    return {
      kind: "table-row",
      first: at,
      last: at,
      charStart: row.start,
      charEnd: row.start + row.text.length,
      header: { charStart: head.start, charEnd: head.start + head.text.length, names },
      fields,
    };
  }
  return null;
}

/**
 * The records of a grep's matches (grep.ts): each match's record, computed once for the
 * matches it holds.
 */
import type { OpenedOutput } from "../store/output-store.js";
import type { MatchRecord, RecordField, RecordLimits } from "./record-types.js";
import { recordAround } from "./records.js";

/** A match by its 1-based line and character offset. */
export interface MatchAt {
  readonly line: number;
  readonly matchCharStart: number;
}

/**
 * True when `record` shows the match: its line and offset are inside the shown text. A match
 * in a clipped record's left-out part is not shown by it, and gets its own view.
 *
 * @example
 * recordShows(record, { line: 12, matchCharStart: 480 }); // true when line 12 is shown
 */
export function recordShows(record: MatchRecord, match: MatchAt): boolean {
  const p = record.provenance;
  return (
    p.lineStart <= match.line &&
    match.line <= p.lineEnd &&
    p.charStart <= match.matchCharStart &&
    match.matchCharStart <= p.charEnd
  );
}

/** Each match's record, in order; a match already shown by an earlier record reuses it. */
export async function recordsOfMatches(
  output: OpenedOutput,
  matches: readonly MatchAt[],
  limits: RecordLimits,
): Promise<{ records: MatchRecord[]; indexes: number[] }> {
  const records: MatchRecord[] = [];
  const indexes: number[] = [];
  for (const match of matches) {
    let index = records.findIndex((r) => recordShows(r, match));
    if (index < 0) {
      records.push(
        await recordAround(output, { line: match.line, charOffset: match.matchCharStart }, limits),
      );
      index = records.length - 1;
    }
    indexes.push(index);
  }
  return { records, indexes };
}

/**
 * A CSV row's fields as one line, `name=value, …`; a value is quoted (JSON) when it is empty
 * or holds what would make the line ambiguous (a comma, `=`, a quote, a newline, edge spaces).
 *
 * @example
 * fieldsLine([{ name: "order_id", value: "A-1" }, { name: "warehouse", value: "Leeds, UK" }]);
 * // 'order_id=A-1, warehouse="Leeds, UK"'
 */
export function fieldsLine(fields: readonly RecordField[]): string {
  const value = (v: string) => (v === "" || /[,="\n\r]|^\s|\s$/.test(v) ? JSON.stringify(v) : v);
  return fields.map((f) => `${f.name}=${value(f.value)}`).join(", ");
}

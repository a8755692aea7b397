import type { OutputRecord } from "./output-store.js";
import { toRecord as fromSqliteRow, type OutputRow } from "./sqlite-output-rows.js";

/** An `outputs` row as the pool returns it (bigint columns as numbers, `sanitized` a boolean). */
export interface PgOutputRow extends Omit<OutputRow, "sanitized"> {
  sanitized: boolean;
}

/** The record of an `outputs` row: the same fields as SQLite's. */
export function toRecord(row: PgOutputRow): OutputRecord {
  return fromSqliteRow({ ...row, sanitized: row.sanitized ? 1 : 0 });
}

import type { OutputKind } from "../core/kinds.js";
import type { OutputRecord } from "./output-store.js";
import { toRecord as fromSqliteRow } from "./sqlite-output-rows.js";

/** An `outputs` row as `pg` returns it (bigint columns come back as text, booleans as booleans). */
export interface PgOutputRow {
  id: string;
  session_id: string;
  tool_name: string;
  tool_args: string;
  tool_call_id: string | null;
  status: OutputRecord["status"];
  error: string | null;
  created_at: string;
  completed_at: string | null;
  blob_sha256: string | null;
  byte_size: string | null;
  char_count: string | null;
  line_count: string | null;
  token_estimate: string | null;
  token_method: string | null;
  kind: OutputKind | null;
  media_type: string | null;
  sanitized: boolean;
  read_count: string;
}

const num = (value: string | null): number | null => (value === null ? null : Number(value));

/** The record of an `outputs` row: the same fields as SQLite's, once its numbers are numbers. */
export function toRecord(row: PgOutputRow): OutputRecord {
  return fromSqliteRow({
    ...row,
    created_at: Number(row.created_at),
    completed_at: num(row.completed_at),
    byte_size: num(row.byte_size),
    char_count: num(row.char_count),
    line_count: num(row.line_count),
    token_estimate: num(row.token_estimate),
    sanitized: row.sanitized ? 1 : 0,
    read_count: Number(row.read_count),
  });
}

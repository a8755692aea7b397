import type { OutputKind } from "../core/kinds.js";
import type { OutputRecord } from "./output-store.js";

/** An `outputs` row as SQLite returns it. */
export interface OutputRow {
  id: string;
  session_id: string;
  tool_name: string;
  tool_args: string;
  tool_call_id: string | null;
  status: OutputRecord["status"];
  error: string | null;
  created_at: number;
  completed_at: number | null;
  blob_sha256: string | null;
  byte_size: number | null;
  char_count: number | null;
  line_count: number | null;
  token_estimate: number | null;
  token_method: string | null;
  kind: OutputKind | null;
  media_type: string | null;
  sanitized: number;
  read_count: number;
}

/** A `blobs` row as SQLite returns it. */
export interface BlobRow {
  sha256: string;
  byte_size: number;
  storage: "inline" | "file";
  inline_data: Buffer | null;
  line_index: Buffer;
}

/** The record of an `outputs` row. */
export function toRecord(row: OutputRow): OutputRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    toolName: row.tool_name,
    toolArgs: row.tool_args,
    toolCallId: row.tool_call_id,
    status: row.status,
    error: row.error,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    byteSize: row.byte_size,
    charCount: row.char_count,
    lineCount: row.line_count,
    tokenEstimate: row.token_estimate,
    tokenMethod: row.token_method,
    kind: row.kind,
    mediaType: row.media_type,
    sha256: row.blob_sha256,
    sanitized: row.sanitized === 1,
    readCount: row.read_count,
  };
}

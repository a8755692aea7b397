import type Database from "better-sqlite3";
import { SpillwayError } from "../core/errors.js";
import type { CoveredCall, NewSummary, SummaryRecord } from "./history.js";

/**
 * Compaction summaries in SQLite (`summaries`, migration 4): one row a summary, beside the
 * history it stands in for, which it never changes.
 */

interface SummaryRow {
  session_id: string;
  seq: number;
  from_seq: number;
  through_seq: number;
  from_turn: number;
  through_turn: number;
  summary: string;
  text: string;
  calls: string;
  index_output_id: string | null;
  model: string;
  tokens_before: number;
  tokens_after: number;
  text_tokens: number;
  created_at: number;
}

function toSummary(row: SummaryRow, parse: (text: string, where: string) => unknown) {
  const record: SummaryRecord = {
    sessionId: row.session_id,
    seq: row.seq,
    fromSeq: row.from_seq,
    throughSeq: row.through_seq,
    fromTurn: row.from_turn,
    throughTurn: row.through_turn,
    summary: row.summary,
    text: row.text,
    calls: parse(row.calls, `summary ${row.session_id}#${row.seq} calls`) as CoveredCall[],
    indexOutputId: row.index_output_id,
    model: row.model,
    tokensBefore: row.tokens_before,
    tokensAfter: row.tokens_after,
    textTokens: row.text_tokens,
    createdAt: row.created_at,
  };
  return record;
}

function rangeError(summary: NewSummary, why: string): SpillwayError {
  return new SpillwayError(
    "INVALID_ARGUMENT",
    `A summary of messages ${summary.fromSeq}-${summary.throughSeq} of session ${summary.sessionId} cannot be stored: ${why}.`,
    { sessionId: summary.sessionId, fromSeq: summary.fromSeq, throughSeq: summary.throughSeq },
    { fault: "internal" },
  );
}

/** Inserts a summary after checking its range (one immediate transaction). */
export function insertSummary(
  db: Database.Database,
  summary: NewSummary,
  now: number,
): SummaryRecord {
  return db
    .transaction(() => {
      if (summary.throughSeq < summary.fromSeq) throw rangeError(summary, "the range is empty");
      const last = db
        .prepare(
          "SELECT seq, through_seq FROM summaries WHERE session_id = ? ORDER BY seq DESC LIMIT 1",
        )
        .get(summary.sessionId) as { seq: number; through_seq: number } | undefined;
      if (last && summary.fromSeq <= last.through_seq) {
        throw rangeError(
          summary,
          `summary ${last.seq} already covers messages through ${last.through_seq} (nothing is summarized twice)`,
        );
      }
      const messages = db
        .prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE session_id = ?")
        .get(summary.sessionId) as { seq: number };
      if (summary.throughSeq > messages.seq) {
        throw rangeError(summary, `the session has only ${messages.seq} messages`);
      }
      const seq = (last?.seq ?? 0) + 1;
      db.prepare(
        `INSERT INTO summaries (session_id, seq, from_seq, through_seq, from_turn, through_turn, summary,
           text, calls, index_output_id, model, tokens_before, tokens_after, text_tokens, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        summary.sessionId,
        seq,
        summary.fromSeq,
        summary.throughSeq,
        summary.fromTurn,
        summary.throughTurn,
        summary.summary,
        summary.text,
        JSON.stringify(summary.calls),
        summary.indexOutputId,
        summary.model,
        summary.tokensBefore,
        summary.tokensAfter,
        summary.textTokens,
        now,
      );
      return { ...summary, seq, createdAt: now };
    })
    .immediate();
}

/** A session's summaries, oldest first. */
export function selectSummaries(
  db: Database.Database,
  sessionId: string,
  parse: (text: string, where: string) => unknown,
): SummaryRecord[] {
  const rows = db
    .prepare("SELECT * FROM summaries WHERE session_id = ? ORDER BY seq")
    .all(sessionId) as SummaryRow[];
  return rows.map((row) => toSummary(row, parse));
}

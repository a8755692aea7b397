import type Database from "better-sqlite3";
import type { NewSummary, SummaryRecord } from "./history.js";
import { checkSummaryRange, type SummaryRow, toSummary } from "./history-rows.js";

/**
 * Compaction summaries in SQLite (`summaries`, migration 4): one row a summary, beside the
 * history it stands in for, which it never changes.
 */

/** Inserts a summary after checking its range (one immediate transaction). */
export function insertSummary(
  db: Database.Database,
  summary: NewSummary,
  now: number,
): SummaryRecord {
  return db
    .transaction(() => {
      const last = db
        .prepare(
          "SELECT seq, through_seq FROM summaries WHERE session_id = ? ORDER BY seq DESC LIMIT 1",
        )
        .get(summary.sessionId) as { seq: number; through_seq: number } | undefined;
      const messages = db
        .prepare("SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE session_id = ?")
        .get(summary.sessionId) as { seq: number };
      checkSummaryRange(summary, last, messages.seq);
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

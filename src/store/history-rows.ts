/**
 * History rows as a database returns them, and the records they become: one mapping for
 * every engine (SQLite, PostgreSQL), so a record reads the same whichever stored it.
 */
import { SpillwayError } from "../core/errors.js";
import type {
  CoveredCall,
  MessageRole,
  NewSummary,
  SessionRecord,
  SessionStatus,
  SummaryRecord,
  ToolCallRecord,
  ToolCallStatus,
} from "./history.js";

export interface SessionRow {
  id: string;
  parent_session_id: string | null;
  parent_tool_call_id: string | null;
  agent_name: string;
  agent_path: string | null;
  prompt: string;
  status: SessionStatus;
  settings: string;
  final_report: string | null;
  error: string | null;
  turns: number;
  accounting: string | null;
  created_at: number;
  updated_at: number;
}

export interface MessageRow {
  seq: number;
  turn: number;
  role: MessageRole;
  parts: string;
  created_at: number;
}

export interface ToolCallRow {
  session_id: string;
  tool_call_id: string;
  turn: number;
  tool_name: string;
  args: string;
  status: ToolCallStatus;
  output_id: string | null;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

/** Parses JSON this store wrote itself; a failure means the row was changed outside spillway. */
export function storedJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SpillwayError(
      "STORE_CORRUPT",
      `Stored JSON in ${where} is unreadable.`,
      { where },
      { fault: "store", cause: error },
    );
  }
}

export function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    parentSessionId: row.parent_session_id,
    parentToolCallId: row.parent_tool_call_id,
    agentName: row.agent_name,
    agentPath: row.agent_path,
    prompt: row.prompt,
    status: row.status,
    settings: storedJson(row.settings, `session ${row.id} settings`),
    finalReport: row.final_report,
    error: row.error,
    turns: row.turns,
    accounting:
      row.accounting === null ? null : storedJson(row.accounting, `session ${row.id} accounting`),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toToolCall(row: ToolCallRow): ToolCallRecord {
  return {
    sessionId: row.session_id,
    toolCallId: row.tool_call_id,
    turn: row.turn,
    toolName: row.tool_name,
    argsText: row.args,
    status: row.status,
    outputId: row.output_id,
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

export interface SummaryRow {
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

export function toSummary(row: SummaryRow, parse: (text: string, where: string) => unknown) {
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

/** INVALID_ARGUMENT (internal): a summary range a store must refuse. */
export function rangeError(summary: NewSummary, why: string): SpillwayError {
  return new SpillwayError(
    "INVALID_ARGUMENT",
    `A summary of messages ${summary.fromSeq}-${summary.throughSeq} of session ${summary.sessionId} cannot be stored: ${why}.`,
    { sessionId: summary.sessionId, fromSeq: summary.fromSeq, throughSeq: summary.throughSeq },
    { fault: "internal" },
  );
}

/**
 * Throws (INVALID_ARGUMENT, internal) unless `summary` may follow the session's `last` summary
 * and stays within its `lastMessageSeq` messages: nothing summarized twice, nothing that is not
 * there. Every engine runs it inside the transaction that inserts the summary.
 */
export function checkSummaryRange(
  summary: NewSummary,
  last: { readonly seq: number; readonly through_seq: number } | undefined,
  lastMessageSeq: number,
): void {
  if (summary.throughSeq < summary.fromSeq) throw rangeError(summary, "the range is empty");
  if (last && summary.fromSeq <= last.through_seq)
    throw rangeError(
      summary,
      `summary ${last.seq} already covers messages through ${last.through_seq} (nothing is summarized twice)`,
    );
  if (summary.throughSeq > lastMessageSeq)
    throw rangeError(summary, `the session has only ${lastMessageSeq} messages`);
}

import type { Pool, PoolClient } from "pg";
import { type Clock, systemClock } from "../core/clock.js";
import { SpillwayError } from "../core/errors.js";
import type {
  HistoryMessage,
  HistoryPart,
  HistoryStore,
  MessageRole,
  NewSession,
  NewSummary,
  SessionRecord,
  SummaryRecord,
  ToolCallRecord,
  ToolCallStatus,
  ToolResultRef,
} from "./history.js";
import {
  checkSummaryRange,
  type MessageRow,
  type SessionRow,
  type SummaryRow,
  storedJson,
  type ToolCallRow,
  toSession,
  toSummary,
  toToolCall,
} from "./history-rows.js";
import { withTransaction } from "./postgres-database.js";

/** A row lock per session, so two writers of one session number its messages one after the other. */
const lockSession = (client: PoolClient, sessionId: string) =>
  client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`spillway:session:${sessionId}`]);

/**
 * The PostgreSQL implementation of {@link HistoryStore}: the same rows as SQLite's, in the
 * database the outputs live in. Open it with `openPostgresStores`.
 *
 * @example
 * const { history } = await openPostgresStores({ connectionString: "postgres://localhost/spillway" });
 * for (const message of await history.messages("ses_42")) console.log(message.seq, message.role);
 */
export class PostgresHistoryStore implements HistoryStore {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock = systemClock,
  ) {}

  async createSession(session: NewSession): Promise<SessionRecord> {
    const now = this.clock();
    await this.pool.query(
      `INSERT INTO sessions (id, parent_session_id, parent_tool_call_id, agent_name, agent_path, prompt,
         status, settings, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $8)`,
      [
        session.id,
        session.parentSessionId ?? null,
        session.parentToolCallId ?? null,
        session.agentName,
        session.agentPath ?? null,
        session.prompt,
        JSON.stringify(session.settings),
        now,
      ],
    );
    return this.getSession(session.id);
  }

  async getSession(id: string): Promise<SessionRecord> {
    const { rows } = await this.pool.query<SessionRow>("SELECT * FROM sessions WHERE id = $1", [
      id,
    ]);
    if (!rows[0])
      throw new SpillwayError(
        "SESSION_NOT_FOUND",
        `No session "${id}" in this store. Run "spillway sessions list" to see session ids.`,
        { sessionId: id },
      );
    return toSession(rows[0]);
  }

  async listSessions(
    filter: { limit?: number; offset?: number; parentSessionId?: string | null } = {},
  ): Promise<SessionRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.parentSessionId === null) where.push("parent_session_id IS NULL");
    else if (filter.parentSessionId !== undefined) {
      params.push(filter.parentSessionId);
      where.push(`parent_session_id = $${params.length}`);
    }
    params.push(filter.limit ?? 100, filter.offset ?? 0);
    const { rows } = await this.pool.query<SessionRow>(
      `SELECT * FROM sessions ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY created_at DESC, row_seq DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toSession);
  }

  async updateSession(
    id: string,
    patch: Partial<
      Pick<SessionRecord, "status" | "finalReport" | "error" | "turns" | "accounting" | "settings">
    >,
  ): Promise<void> {
    const params: unknown[] = [this.clock()];
    const sets: string[] = ["updated_at = $1"];
    const columns: [keyof typeof patch, string, (value: unknown) => unknown][] = [
      ["status", "status", (v) => v],
      ["finalReport", "final_report", (v) => v],
      ["error", "error", (v) => v],
      ["turns", "turns", (v) => v],
      ["accounting", "accounting", (v) => JSON.stringify(v)],
      ["settings", "settings", (v) => JSON.stringify(v)],
    ];
    for (const [key, column, encode] of columns) {
      if (patch[key] === undefined) continue;
      params.push(encode(patch[key]));
      sets.push(`${column} = $${params.length}`);
    }
    params.push(id);
    const result = await this.pool.query(
      `UPDATE sessions SET ${sets.join(", ")} WHERE id = $${params.length}`,
      params,
    );
    if (result.rowCount === 0) await this.getSession(id);
  }

  async appendMessage(
    sessionId: string,
    turn: number,
    role: MessageRole,
    parts: readonly HistoryPart[],
  ): Promise<HistoryMessage> {
    return withTransaction(this.pool, (client) =>
      this.insertMessage(client, sessionId, turn, role, parts),
    );
  }

  private async insertMessage(
    client: PoolClient,
    sessionId: string,
    turn: number,
    role: MessageRole,
    parts: readonly HistoryPart[],
  ): Promise<HistoryMessage> {
    await lockSession(client, sessionId);
    const { rows } = await client.query<{ seq: number }>(
      "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM messages WHERE session_id = $1",
      [sessionId],
    );
    const seq = rows[0]!.seq;
    const createdAt = this.clock();
    await client.query(
      "INSERT INTO messages (session_id, seq, turn, role, parts, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
      [sessionId, seq, turn, role, JSON.stringify(parts), createdAt],
    );
    return { seq, turn, role, parts, createdAt };
  }

  async messages(
    sessionId: string,
    options: { readonly afterSeq?: number; readonly limit?: number } = {},
  ): Promise<HistoryMessage[]> {
    const { rows } = await this.pool.query<MessageRow>(
      "SELECT seq, turn, role, parts, created_at FROM messages WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [sessionId, options.afterSeq ?? 0, options.limit ?? null],
    );
    return rows.map((row) => ({
      seq: row.seq,
      turn: row.turn,
      role: row.role,
      parts: storedJson(row.parts, `message ${sessionId}#${row.seq}`) as HistoryPart[],
      createdAt: row.created_at,
    }));
  }

  async startToolCall(
    call: Omit<ToolCallRecord, "status" | "outputId" | "error" | "finishedAt">,
  ): Promise<void> {
    await this.pool.query(
      `INSERT INTO tool_calls (session_id, tool_call_id, turn, tool_name, args, status, started_at)
       VALUES ($1, $2, $3, $4, $5, 'running', $6)`,
      [call.sessionId, call.toolCallId, call.turn, call.toolName, call.argsText, call.startedAt],
    );
  }

  async finishToolCall(
    sessionId: string,
    toolCallId: string,
    outcome: { status: Exclude<ToolCallStatus, "running">; outputId?: string; error?: string },
    result: { turn: number; toolName: string; ref: ToolResultRef },
  ): Promise<HistoryMessage> {
    return withTransaction(this.pool, async (client) => {
      const updated = await client.query(
        `UPDATE tool_calls SET status = $1, output_id = $2, error = $3, finished_at = $4
         WHERE session_id = $5 AND tool_call_id = $6 AND status = 'running'`,
        [
          outcome.status,
          outcome.outputId ?? null,
          outcome.error ?? null,
          this.clock(),
          sessionId,
          toolCallId,
        ],
      );
      if (updated.rowCount !== 1)
        throw new SpillwayError(
          "INVALID_ARGUMENT",
          `Tool call ${toolCallId} of session ${sessionId} is not running, so it cannot get a result.`,
          { sessionId, toolCallId },
          { fault: "internal" },
        );
      return this.insertMessage(client, sessionId, result.turn, "tool", [
        { type: "tool-result", toolCallId, toolName: result.toolName, result: result.ref },
      ]);
    });
  }

  async toolCalls(sessionId: string): Promise<ToolCallRecord[]> {
    const { rows } = await this.pool.query<ToolCallRow>(
      "SELECT * FROM tool_calls WHERE session_id = $1 ORDER BY started_at, row_seq",
      [sessionId],
    );
    return rows.map(toToolCall);
  }

  async appendSummary(summary: NewSummary): Promise<SummaryRecord> {
    return withTransaction(this.pool, async (client) => {
      await lockSession(client, summary.sessionId);
      const last = (
        await client.query<{ seq: number; through_seq: number }>(
          "SELECT seq, through_seq FROM summaries WHERE session_id = $1 ORDER BY seq DESC LIMIT 1",
          [summary.sessionId],
        )
      ).rows[0];
      const messages = (
        await client.query<{ seq: number }>(
          "SELECT COALESCE(MAX(seq), 0) AS seq FROM messages WHERE session_id = $1",
          [summary.sessionId],
        )
      ).rows[0]!;
      checkSummaryRange(summary, last, messages.seq);
      const seq = (last?.seq ?? 0) + 1;
      const now = this.clock();
      await client.query(
        `INSERT INTO summaries (session_id, seq, from_seq, through_seq, from_turn, through_turn, summary,
           text, calls, index_output_id, model, tokens_before, tokens_after, text_tokens, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [
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
        ],
      );
      return { ...summary, seq, createdAt: now };
    });
  }

  async summaries(sessionId: string): Promise<SummaryRecord[]> {
    const { rows } = await this.pool.query<SummaryRow>(
      "SELECT * FROM summaries WHERE session_id = $1 ORDER BY seq",
      [sessionId],
    );
    return rows.map((row) => toSummary(row, storedJson));
  }
}

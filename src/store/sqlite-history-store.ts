import type Database from "better-sqlite3";
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
  type MessageRow,
  type SessionRow,
  storedJson,
  type ToolCallRow,
  toSession,
  toToolCall,
} from "./history-rows.js";
import { type SessionLeases, sqlLeases } from "./session-leases.js";
import { openSqliteDatabase } from "./sqlite-database.js";
import { SqliteExtractionCache } from "./sqlite-extraction-cache.js";
import { SqliteOutputStore, type SqliteOutputStoreOptions } from "./sqlite-output-store.js";
import { insertSummary, selectSummaries } from "./sqlite-summaries.js";
import type { SpillwayStores } from "./stores.js";

export type { SpillwayStores } from "./stores.js";

/** The SQLite implementation of {@link HistoryStore}, in the same database as the outputs. */
export class SqliteHistoryStore implements HistoryStore {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock = systemClock,
  ) {}

  async createSession(session: NewSession): Promise<SessionRecord> {
    const now = this.clock();
    this.db
      .prepare(
        `INSERT INTO sessions (id, parent_session_id, parent_tool_call_id, agent_name, agent_path, prompt,
           status, settings, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)`,
      )
      .run(
        session.id,
        session.parentSessionId ?? null,
        session.parentToolCallId ?? null,
        session.agentName,
        session.agentPath ?? null,
        session.prompt,
        JSON.stringify(session.settings),
        now,
        now,
      );
    return this.getSession(session.id);
  }

  async getSession(id: string): Promise<SessionRecord> {
    const row = this.db.prepare("SELECT * FROM sessions WHERE id = ?").get(id) as
      | SessionRow
      | undefined;
    if (!row) {
      throw new SpillwayError(
        "SESSION_NOT_FOUND",
        `No session "${id}" in this store. Run "spillway sessions list" to see session ids.`,
        { sessionId: id },
      );
    }
    return toSession(row);
  }

  async listSessions(
    filter: { limit?: number; offset?: number; parentSessionId?: string | null } = {},
  ): Promise<SessionRecord[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.parentSessionId === null) where.push("parent_session_id IS NULL");
    else if (filter.parentSessionId !== undefined) {
      where.push("parent_session_id = ?");
      params.push(filter.parentSessionId);
    }
    params.push(filter.limit ?? 100, filter.offset ?? 0);
    const rows = this.db
      .prepare(
        `SELECT * FROM sessions ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
         ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      )
      .all(...params) as SessionRow[];
    return rows.map(toSession);
  }

  async updateSession(
    id: string,
    patch: Partial<
      Pick<SessionRecord, "status" | "finalReport" | "error" | "turns" | "accounting" | "settings">
    >,
  ): Promise<void> {
    const sets: string[] = ["updated_at = ?"];
    const params: unknown[] = [this.clock()];
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
      sets.push(`${column} = ?`);
      params.push(encode(patch[key]));
    }
    params.push(id);
    const result = this.db
      .prepare(`UPDATE sessions SET ${sets.join(", ")} WHERE id = ?`)
      .run(...params);
    if (result.changes === 0) await this.getSession(id);
  }

  async appendMessage(
    sessionId: string,
    turn: number,
    role: MessageRole,
    parts: readonly HistoryPart[],
  ): Promise<HistoryMessage> {
    return this.db.transaction(() => this.insertMessage(sessionId, turn, role, parts)).immediate();
  }

  private insertMessage(
    sessionId: string,
    turn: number,
    role: MessageRole,
    parts: readonly HistoryPart[],
  ): HistoryMessage {
    const next = this.db
      .prepare("SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM messages WHERE session_id = ?")
      .get(sessionId) as { seq: number };
    const createdAt = this.clock();
    this.db
      .prepare(
        "INSERT INTO messages (session_id, seq, turn, role, parts, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(sessionId, next.seq, turn, role, JSON.stringify(parts), createdAt);
    return { seq: next.seq, turn, role, parts, createdAt };
  }

  async messages(
    sessionId: string,
    options: { readonly afterSeq?: number; readonly limit?: number } = {},
  ): Promise<HistoryMessage[]> {
    const rows = this.db
      .prepare(
        "SELECT seq, turn, role, parts, created_at FROM messages WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?",
      )
      .all(sessionId, options.afterSeq ?? 0, options.limit ?? -1) as MessageRow[];
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
    this.db
      .prepare(
        `INSERT INTO tool_calls (session_id, tool_call_id, turn, tool_name, args, status, started_at)
         VALUES (?, ?, ?, ?, ?, 'running', ?)`,
      )
      .run(
        call.sessionId,
        call.toolCallId,
        call.turn,
        call.toolName,
        call.argsText,
        call.startedAt,
      );
  }

  async finishToolCall(
    sessionId: string,
    toolCallId: string,
    outcome: { status: Exclude<ToolCallStatus, "running">; outputId?: string; error?: string },
    result: { turn: number; toolName: string; ref: ToolResultRef },
  ): Promise<HistoryMessage> {
    return this.db
      .transaction(() => {
        const updated = this.db
          .prepare(
            `UPDATE tool_calls SET status = ?, output_id = ?, error = ?, finished_at = ?
             WHERE session_id = ? AND tool_call_id = ? AND status = 'running'`,
          )
          .run(
            outcome.status,
            outcome.outputId ?? null,
            outcome.error ?? null,
            this.clock(),
            sessionId,
            toolCallId,
          );
        if (updated.changes !== 1) {
          throw new SpillwayError(
            "INVALID_ARGUMENT",
            `Tool call ${toolCallId} of session ${sessionId} is not running, so it cannot get a result.`,
            { sessionId, toolCallId },
            { fault: "internal" },
          );
        }
        return this.insertMessage(sessionId, result.turn, "tool", [
          { type: "tool-result", toolCallId, toolName: result.toolName, result: result.ref },
        ]);
      })
      .immediate();
  }

  async toolCalls(sessionId: string): Promise<ToolCallRecord[]> {
    const rows = this.db
      .prepare("SELECT * FROM tool_calls WHERE session_id = ? ORDER BY started_at, rowid")
      .all(sessionId) as ToolCallRow[];
    return rows.map(toToolCall);
  }

  async appendSummary(summary: NewSummary): Promise<SummaryRecord> {
    return insertSummary(this.db, summary, this.clock());
  }

  async summaries(sessionId: string): Promise<SummaryRecord[]> {
    return selectSummaries(this.db, sessionId, storedJson);
  }
}

/** The SQLite stores: {@link SpillwayStores} with the SQLite classes. */
export interface SqliteStores extends SpillwayStores {
  readonly outputs: SqliteOutputStore;
  readonly history: SqliteHistoryStore;
  readonly extractionCache: SqliteExtractionCache;
  readonly leases: SessionLeases;
}

/**
 * Opens both canonical stores in one directory (`$SPILLWAY_HOME` by default).
 *
 * @example
 * const stores = await openSqliteStores();
 * const session = await stores.history.createSession({ id: "ses_1", agentName: "triage", prompt: "…", settings: {} });
 * await stores.close();
 */
export async function openSqliteStores(
  options: SqliteOutputStoreOptions = {},
): Promise<SqliteStores> {
  const clock = options.clock ?? systemClock;
  const { home, db, blobs } = await openSqliteDatabase(options.home, clock, options.synchronous);
  const outputs = new SqliteOutputStore(home, db, blobs, options, false);
  const history = new SqliteHistoryStore(db, clock);
  return {
    home,
    outputs,
    history,
    extractionCache: new SqliteExtractionCache(db, clock),
    leases: sqlLeases(async (sql, params) => {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
      statement.run(...params);
      return [];
    }, clock),
    close: async () => {
      if (db.open) db.close();
    },
  };
}

import type { Database } from "better-sqlite3";

/**
 * Schema migrations of the SQLite store, applied in order and recorded in
 * `schema_migrations`. Types stay portable (TEXT, BIGINT, BLOB/BYTEA) so a PostgreSQL store can
 * mirror them. The canonical history (sessions, messages, tool calls) joins this database in
 * later migrations; outputs reference sessions by id only, so those tables can arrive without
 * rewriting this one.
 */
const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE blobs (
        sha256      TEXT PRIMARY KEY,
        byte_size   BIGINT NOT NULL,
        storage     TEXT NOT NULL CHECK (storage IN ('inline', 'file')),
        inline_data BLOB,
        line_index  BLOB NOT NULL,
        created_at  BIGINT NOT NULL
      );
      CREATE TABLE outputs (
        id             TEXT PRIMARY KEY,
        session_id     TEXT NOT NULL,
        tool_name      TEXT NOT NULL,
        tool_args      TEXT NOT NULL,
        tool_call_id   TEXT,
        status         TEXT NOT NULL CHECK (status IN ('running', 'ready', 'failed')),
        error          TEXT,
        created_at     BIGINT NOT NULL,
        completed_at   BIGINT,
        blob_sha256    TEXT REFERENCES blobs (sha256),
        byte_size      BIGINT,
        char_count     BIGINT,
        line_count     BIGINT,
        token_estimate BIGINT,
        token_method   TEXT,
        kind           TEXT,
        media_type     TEXT,
        sanitized      INTEGER NOT NULL DEFAULT 0,
        read_count     BIGINT NOT NULL DEFAULT 0
      );
      CREATE INDEX outputs_by_session ON outputs (session_id, created_at);
      CREATE INDEX outputs_by_created ON outputs (created_at);
    `,
  },
  {
    // The canonical history: sessions, their messages and tool calls, written as they happen.
    version: 2,
    sql: `
      CREATE TABLE sessions (
        id                  TEXT PRIMARY KEY,
        parent_session_id   TEXT REFERENCES sessions (id),
        parent_tool_call_id TEXT,
        agent_name          TEXT NOT NULL,
        agent_path          TEXT,
        prompt              TEXT NOT NULL,
        status              TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'aborted')),
        settings            TEXT NOT NULL,
        final_report        TEXT,
        error               TEXT,
        turns               INTEGER NOT NULL DEFAULT 0,
        accounting          TEXT,
        created_at          BIGINT NOT NULL,
        updated_at          BIGINT NOT NULL
      );
      CREATE INDEX sessions_by_created ON sessions (created_at);
      CREATE INDEX sessions_by_parent ON sessions (parent_session_id);
      CREATE TABLE messages (
        session_id TEXT NOT NULL REFERENCES sessions (id),
        seq        INTEGER NOT NULL,
        turn       INTEGER NOT NULL,
        role       TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
        parts      TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
      CREATE TABLE tool_calls (
        session_id   TEXT NOT NULL REFERENCES sessions (id),
        tool_call_id TEXT NOT NULL,
        turn         INTEGER NOT NULL,
        tool_name    TEXT NOT NULL,
        args         TEXT NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('running', 'ok', 'error', 'aborted')),
        output_id    TEXT REFERENCES outputs (id),
        error        TEXT,
        started_at   BIGINT NOT NULL,
        finished_at  BIGINT,
        PRIMARY KEY (session_id, tool_call_id)
      );
    `,
  },
  {
    // Extraction answers, so a repeated question costs no model call.
    version: 3,
    sql: `
      CREATE TABLE extraction_cache (
        cache_key  TEXT PRIMARY KEY,
        kind       TEXT NOT NULL CHECK (kind IN ('result', 'chunk')),
        value      TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
    `,
  },
  {
    // Compaction summaries: separate records standing in for older history
    // messages in the projection; the messages they cover are never changed.
    version: 4,
    sql: `
      CREATE TABLE summaries (
        session_id      TEXT NOT NULL REFERENCES sessions (id),
        seq             INTEGER NOT NULL,
        from_seq        INTEGER NOT NULL,
        through_seq     INTEGER NOT NULL,
        from_turn       INTEGER NOT NULL,
        through_turn    INTEGER NOT NULL,
        summary         TEXT NOT NULL,
        text            TEXT NOT NULL,
        calls           TEXT NOT NULL,
        index_output_id TEXT REFERENCES outputs (id),
        model           TEXT NOT NULL,
        tokens_before   BIGINT NOT NULL,
        tokens_after    BIGINT NOT NULL,
        text_tokens     BIGINT NOT NULL,
        created_at      BIGINT NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
  },
  {
    // Session leases: one process runs a session at a time (src/store/session-leases.ts).
    version: 5,
    sql: `
      CREATE TABLE session_leases (
        session_id TEXT PRIMARY KEY,
        holder     TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Brings a database up to the latest schema, each migration in its own transaction. */
export function migrate(db: Database, now: number): void {
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)",
  );
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
      (row) => row.version,
    ),
  );
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      // Another process may have applied it between our read and this write lock.
      const done = db
        .prepare("SELECT 1 FROM schema_migrations WHERE version = ?")
        .get(migration.version);
      if (done) return;
      db.exec(migration.sql);
      db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(
        migration.version,
        now,
      );
    }).immediate();
  }
}

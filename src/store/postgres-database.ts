/**
 * A PostgreSQL connection pool for spillway's stores, with versioned migrations. `pg` is
 * loaded only when a PostgreSQL store is opened, so SQLite users never load it.
 */
import type { Pool, PoolClient, PoolConfig } from "pg";
import { InvalidArgumentError, SpillwayError } from "../core/errors.js";

/** Options of a PostgreSQL store. */
export interface PostgresOptions {
  /** `postgres://user:password@host:5432/database` (or `postgresql://…`). */
  readonly connectionString: string;
  /** Most connections this process opens (default 10). */
  readonly maxConnections?: number;
}

/**
 * The schema, one entry per version. Applied in order inside one transaction each, under an
 * advisory lock, so several workers starting together migrate once. Never edit a released
 * entry: add the next one.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE blobs (
     sha256 text PRIMARY KEY,
     byte_size bigint NOT NULL,
     chunk_bytes integer NOT NULL,
     line_index bytea NOT NULL,
     created_at bigint NOT NULL
   );
   CREATE TABLE blob_chunks (
     sha256 text NOT NULL REFERENCES blobs (sha256) ON DELETE CASCADE,
     seq integer NOT NULL,
     data bytea NOT NULL,
     PRIMARY KEY (sha256, seq)
   );
   CREATE TABLE outputs (
     id text PRIMARY KEY,
     session_id text NOT NULL,
     tool_name text NOT NULL,
     tool_args text NOT NULL,
     tool_call_id text,
     status text NOT NULL CHECK (status IN ('running', 'ready', 'failed')),
     error text,
     created_at bigint NOT NULL,
     completed_at bigint,
     blob_sha256 text REFERENCES blobs (sha256),
     byte_size bigint,
     char_count bigint,
     line_count bigint,
     token_estimate bigint,
     token_method text,
     kind text,
     media_type text,
     sanitized boolean NOT NULL DEFAULT false,
     read_count bigint NOT NULL DEFAULT 0,
     row_seq bigserial
   );
   CREATE INDEX outputs_by_session ON outputs (session_id, created_at DESC, row_seq DESC);
   CREATE INDEX outputs_by_time ON outputs (created_at DESC, row_seq DESC);
   CREATE TABLE extraction_cache (
     cache_key text PRIMARY KEY,
     kind text NOT NULL,
     value text NOT NULL,
     created_at bigint NOT NULL
   );`,
  // The canonical history (sessions, messages, tool calls) and compaction summaries, as on SQLite.
  `CREATE TABLE sessions (
     id text PRIMARY KEY,
     parent_session_id text REFERENCES sessions (id),
     parent_tool_call_id text,
     agent_name text NOT NULL,
     agent_path text,
     prompt text NOT NULL,
     status text NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'aborted')),
     settings text NOT NULL,
     final_report text,
     error text,
     turns integer NOT NULL DEFAULT 0,
     accounting text,
     created_at bigint NOT NULL,
     updated_at bigint NOT NULL,
     row_seq bigserial
   );
   CREATE INDEX sessions_by_created ON sessions (created_at DESC, row_seq DESC);
   CREATE INDEX sessions_by_parent ON sessions (parent_session_id);
   CREATE TABLE messages (
     session_id text NOT NULL REFERENCES sessions (id),
     seq integer NOT NULL,
     turn integer NOT NULL,
     role text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
     parts text NOT NULL,
     created_at bigint NOT NULL,
     PRIMARY KEY (session_id, seq)
   );
   CREATE TABLE tool_calls (
     session_id text NOT NULL REFERENCES sessions (id),
     tool_call_id text NOT NULL,
     turn integer NOT NULL,
     tool_name text NOT NULL,
     args text NOT NULL,
     status text NOT NULL CHECK (status IN ('running', 'ok', 'error', 'aborted')),
     output_id text REFERENCES outputs (id),
     error text,
     started_at bigint NOT NULL,
     finished_at bigint,
     row_seq bigserial,
     PRIMARY KEY (session_id, tool_call_id)
   );
   CREATE TABLE summaries (
     session_id text NOT NULL REFERENCES sessions (id),
     seq integer NOT NULL,
     from_seq integer NOT NULL,
     through_seq integer NOT NULL,
     from_turn integer NOT NULL,
     through_turn integer NOT NULL,
     summary text NOT NULL,
     text text NOT NULL,
     calls text NOT NULL,
     index_output_id text REFERENCES outputs (id),
     model text NOT NULL,
     tokens_before bigint NOT NULL,
     tokens_after bigint NOT NULL,
     text_tokens bigint NOT NULL,
     created_at bigint NOT NULL,
     PRIMARY KEY (session_id, seq)
   );`,
  // Session leases: one worker runs a session at a time (src/store/session-leases.ts).
  `CREATE TABLE session_leases (
     session_id text PRIMARY KEY,
     holder text NOT NULL,
     expires_at bigint NOT NULL
   );`,
  // Messages too long for NOTIFY's 8,000-byte payload, passed by reference (postgres-channel.ts).
  `CREATE TABLE channel_messages (
     id bigserial PRIMARY KEY,
     topic text NOT NULL,
     body text NOT NULL,
     created_at bigint NOT NULL
   );
   CREATE INDEX channel_messages_by_time ON channel_messages (created_at);`,
  // Payload chunks compressed with lz4 instead of pglz: large payloads are written faster for a
  // little more disk (`npm run bench:postgres`; docs/scale-out.md). Servers without lz4 (before 14,
  // or built without it) keep the default: EXECUTE defers the statement so its error is caught.
  `DO $$ BEGIN
     EXECUTE 'ALTER TABLE blob_chunks ALTER COLUMN data SET COMPRESSION lz4';
   EXCEPTION WHEN OTHERS THEN
     RAISE NOTICE 'lz4 TOAST compression unavailable; blob_chunks keep the default';
   END $$;`,
  // Which tenant owns which agent session (serve --tokens-file), shared by every worker.
  `CREATE TABLE session_owners (
     session_id text PRIMARY KEY,
     tenant text NOT NULL,
     claimed_at bigint NOT NULL,
     row_seq bigserial
   );
   CREATE INDEX session_owners_by_tenant ON session_owners (tenant, claimed_at DESC, row_seq DESC);`,
];

/** The schema version this build writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** PostgreSQL's type id of bigint. */
const INT8_OID = 20;

/** Any fixed number: the advisory lock that serialises migrations across workers. */
const MIGRATION_LOCK = 0x5350_4c57;

/** The connection string with its password replaced, for messages and logs. */
export function redactConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(an unparseable connection string)";
  }
}

/** True for a `postgres://` or `postgresql://` URL (what `--store` and SPILLWAY_STORE take). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

function checkOptions(options: PostgresOptions): void {
  if (typeof options?.connectionString !== "string" || !isPostgresUrl(options.connectionString))
    throw new InvalidArgumentError(
      "connectionString",
      `got ${typeof options?.connectionString === "string" ? JSON.stringify(redactConnectionString(options.connectionString)) : typeof options?.connectionString}`,
      "a PostgreSQL URL such as postgres://user:password@host:5432/spillway",
    );
  const max = options.maxConnections;
  if (max !== undefined && (!Number.isSafeInteger(max) || max < 1))
    throw new InvalidArgumentError("maxConnections", `got ${max}`, "a whole number >= 1");
}

/** STORE_UNAVAILABLE naming the server (never the password) and what to check. */
export function unreachable(connectionString: string, error: unknown): SpillwayError {
  const reason = error instanceof Error ? error.message : String(error);
  return new SpillwayError(
    "STORE_UNAVAILABLE",
    `Cannot use the PostgreSQL store at ${redactConnectionString(connectionString)}: ${reason}. ` +
      "Check that the server runs and accepts this user and database (psql with the same URL shows it).",
    { store: redactConnectionString(connectionString) },
    { fault: "user", cause: error },
  );
}

/**
 * Opens a pool and brings the schema to this build's version.
 *
 * @example
 * const pool = await openPostgresPool({ connectionString: "postgres://localhost/spillway" });
 */
export async function openPostgresPool(options: PostgresOptions): Promise<Pool> {
  checkOptions(options);
  const pg = await import("pg");
  const config: PoolConfig = {
    connectionString: options.connectionString,
    // bigint columns (times, sizes, counts) as numbers: every value spillway stores fits in 2^53.
    // Set on this pool only, never on the pg module other code may share.
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID
          ? Number
          : pg.default.types.getTypeParser(
              oid,
              format as "text",
            )) as typeof pg.default.types.getTypeParser,
    },
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 10_000,
  };
  const pool = new pg.default.Pool(config);
  // An idle connection the server drops must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  try {
    await migrate(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof SpillwayError) throw error;
    throw unreachable(options.connectionString, error);
  }
  return pool;
}

/** Applies the migrations this database lacks; returns the versions applied. */
export async function migrate(pool: Pool): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS spillway_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL)",
    );
    const { rows } = await client.query<{ v: number | null }>(
      "SELECT max(version) AS v FROM spillway_migrations",
    );
    const current = rows[0]?.v ?? 0;
    if (current > MIGRATIONS.length)
      throw new SpillwayError(
        "STORE_UNAVAILABLE",
        `The PostgreSQL store is at schema version ${current}; this spillway knows up to ${MIGRATIONS.length}. Upgrade spillway on this worker.`,
        { schemaVersion: current, supported: MIGRATIONS.length },
        { fault: "user" },
      );
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      await inTransaction(client, async () => {
        await client.query(MIGRATIONS[version - 1]!);
        await client.query(
          "INSERT INTO spillway_migrations (version, applied_at) VALUES ($1, $2)",
          [version, Date.now()],
        );
      });
      applied.push(version);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  return applied;
}

/** Runs `work` in a transaction on `client`: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Runs `work` on one pooled connection in a transaction. */
export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    return await inTransaction(client, () => work(client));
  } finally {
    client.release();
  }
}

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pool, PoolClient } from "pg";
import { type Clock, systemClock } from "../core/clock.js";
import {
  isSpillwayError,
  OutputFailedError,
  OutputNotFoundError,
  OutputNotReadyError,
  StoreCorruptError,
} from "../core/errors.js";
import { type IdGenerator, OUTPUT_ID_PREFIX, randomId } from "../core/ids.js";
import type { TokenizerName } from "../core/tokens.js";
import { BlobDirectory, BlobSink } from "./blob-files.js";
import { type IngestResult, ingest, type OutputContent } from "./ingest.js";
import type { LineIndex } from "./line-index.js";
import type {
  ListOutputsFilter,
  OpenedOutput,
  OutputOrigin,
  OutputRecord,
  OutputStore,
  PutOutputOptions,
  ReadScope,
  VerifyResult,
} from "./output-store.js";
import {
  checkFailureText,
  checkReadTimes,
  LineIndexCache,
  notRunningError,
  verifyStored,
} from "./output-store-common.js";
import { ChunkSpill, commitPayload, PostgresBlobSource } from "./postgres-blobs.js";
import {
  openPostgresPool,
  type PostgresOptions,
  redactConnectionString,
  withTransaction,
} from "./postgres-database.js";
import { type PgOutputRow, toRecord } from "./postgres-output-rows.js";
import { storedOrRebuilt } from "./rebuild-line-index.js";
import { checkQuota, payloadLimit, type SessionQuota, sessionQuotaError } from "./session-quota.js";
import { DEFAULT_INLINE_MAX_BYTES, DEFAULT_MAX_OUTPUT_BYTES } from "./sqlite-output-store.js";
import * as check from "./store-arguments.js";

export interface PostgresOutputStoreOptions extends PostgresOptions {
  /** Largest accepted output in bytes (default 1 GiB). */
  readonly maxOutputBytes?: number;
  /** Most bytes one session's outputs may take (default no limit); past it SESSION_QUOTA_EXCEEDED. */
  readonly maxSessionBytes?: number;
  /** Tokenizer for token estimates (default o200k_base). */
  readonly tokenizer?: TokenizerName;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
}

/**
 * Opens the output store in a PostgreSQL database (migrating it first): records and payloads
 * in one database, so every worker that shares it can read every output.
 *
 * @example
 * const store = await openPostgresOutputStore({ connectionString: "postgres://localhost/spillway" });
 * const record = await store.put(
 *   { sessionId: "ses_demo", toolName: "shell__run", toolArgs: '{"cmd":"cat app.log"}' },
 *   logText,
 * );
 */
export async function openPostgresOutputStore(
  options: PostgresOutputStoreOptions,
): Promise<PostgresOutputStore> {
  return outputStoreOnPool(await openPostgresPool(options), options, true);
}

/**
 * The output store over an open pool, with its local scratch directory (where a payload is
 * gathered before it is copied in). `ownsPool`: closing the store ends the pool.
 */
export async function outputStoreOnPool(
  pool: Pool,
  options: PostgresOutputStoreOptions,
  ownsPool: boolean,
): Promise<PostgresOutputStore> {
  const scratch = await mkdtemp(join(tmpdir(), "spillway-pg-ingest-"));
  const blobs = new BlobDirectory(scratch);
  await blobs.prepare();
  return new PostgresOutputStore(pool, scratch, blobs, options, ownsPool);
}

/**
 * The PostgreSQL implementation of {@link OutputStore}. Open it with {@link openPostgresOutputStore}.
 *
 * @example
 * const store = await openPostgresOutputStore({ connectionString: "postgres://localhost/spillway" });
 * const slice = await readOutput(store, "out_…", { sessionId: "ses_42" }, { mode: "slice", start: 0, length: 4096 });
 */
export class PostgresOutputStore implements OutputStore {
  readonly location: string;
  readonly maxOutputBytes: number;
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly indexes = new LineIndexCache();

  constructor(
    private readonly pool: Pool,
    /** A local directory where a payload is gathered before it is copied in. */
    private readonly scratch: string,
    private readonly blobs: BlobDirectory,
    private readonly options: PostgresOutputStoreOptions,
    /** False when the pool is shared with other stores that close it. */
    private readonly ownsPool: boolean,
  ) {
    this.location = redactConnectionString(options.connectionString);
    this.maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.clock = options.clock ?? systemClock;
    this.ids = options.ids ?? randomId;
  }

  async put(
    origin: OutputOrigin,
    content: OutputContent,
    options: PutOutputOptions = {},
  ): Promise<OutputRecord> {
    origin = check.checkOrigin(origin);
    options = check.checkPutOptions(options);
    content = check.checkContent(content);
    const id = this.ids(OUTPUT_ID_PREFIX);
    const createdAt = origin.createdAt ?? this.clock();
    await this.storeAndRecord(content, options, origin.sessionId, async (client, stored) => {
      await this.insertRunning(client, id, origin, createdAt);
      await this.markReady(client, id, stored, options);
    });
    return this.getRow(id);
  }

  async begin(origin: OutputOrigin): Promise<OutputRecord> {
    origin = check.checkOrigin(origin);
    const id = this.ids(OUTPUT_ID_PREFIX);
    await this.insertRunning(this.pool, id, origin, origin.createdAt ?? this.clock());
    return this.getRow(id);
  }

  async complete(
    id: string,
    content: OutputContent,
    options: PutOutputOptions = {},
  ): Promise<OutputRecord> {
    id = check.checkOutputId(id);
    options = check.checkPutOptions(options);
    content = check.checkContent(content);
    const sessionId = await this.requireRunning(this.pool, id);
    await this.storeAndRecord(content, options, sessionId, async (client, stored) => {
      await this.requireRunning(client, id, true);
      await this.markReady(client, id, stored, options);
    });
    return this.getRow(id);
  }

  async fail(id: string, error: string): Promise<OutputRecord> {
    id = check.checkOutputId(id);
    checkFailureText(error);
    await withTransaction(this.pool, async (client) => {
      await this.requireRunning(client, id, true);
      await client.query(
        "UPDATE outputs SET status = 'failed', error = $1, completed_at = $2 WHERE id = $3",
        [error, this.clock(), id],
      );
    });
    return this.getRow(id);
  }

  async get(id: string, scope: ReadScope): Promise<OutputRecord> {
    id = check.checkOutputId(id);
    const checked = check.checkReadScope(scope);
    const { rows } = await this.pool.query<PgOutputRow>("SELECT * FROM outputs WHERE id = $1", [
      id,
    ]);
    const row = rows[0];
    const scoped = "sessionId" in checked;
    if (!row || (scoped && row.session_id !== checked.sessionId))
      throw new OutputNotFoundError(id, scoped);
    return toRecord(row);
  }

  async list(filter: ListOutputsFilter = {}): Promise<OutputRecord[]> {
    filter = check.checkListFilter(filter);
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.sessionId !== undefined) {
      params.push(filter.sessionId);
      where.push(`session_id = $${params.length}`);
    }
    if (filter.status !== undefined) {
      params.push(filter.status);
      where.push(`status = $${params.length}`);
    }
    params.push(filter.limit ?? 100, filter.offset ?? 0);
    const { rows } = await this.pool.query<PgOutputRow>(
      `SELECT * FROM outputs ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ` +
        `ORDER BY created_at DESC, row_seq DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toRecord);
  }

  async open(id: string, scope: ReadScope): Promise<OpenedOutput> {
    id = check.checkOutputId(id);
    const checked = check.checkReadScope(scope);
    // One round trip for the record and its payload's size; the line index only when not cached.
    const { rows } = await this.pool.query<
      PgOutputRow & { blob_size: number | null; chunk_bytes: number | null }
    >(
      `SELECT o.*, b.byte_size AS blob_size, b.chunk_bytes FROM outputs o
       LEFT JOIN blobs b ON b.sha256 = o.blob_sha256 WHERE o.id = $1`,
      [id],
    );
    const row = rows[0];
    const scoped = "sessionId" in checked;
    if (!row || (scoped && row.session_id !== checked.sessionId))
      throw new OutputNotFoundError(id, scoped);
    const record = toRecord(row);
    if (record.status === "running") throw new OutputNotReadyError(id, record.toolName);
    if (record.status === "failed")
      throw new OutputFailedError(id, record.toolName, record.error ?? "unknown error");
    const sha256 = record.sha256;
    if (!sha256 || row.blob_size === null || row.chunk_bytes === null)
      throw new StoreCorruptError(`Output "${id}" is ready but its payload record is missing.`, {
        outputId: id,
        sha256,
      });
    const source = new PostgresBlobSource(
      this.pool,
      sha256,
      Number(row.blob_size),
      row.chunk_bytes,
    );
    const index =
      record.kind === "binary"
        ? null
        : await this.indexFor(sha256, source).catch(async (error: unknown) => {
            await source.close();
            throw error;
          });
    return {
      record: { ...record, status: "ready", sha256 },
      source,
      index,
      close: () => source.close(),
    };
  }

  async countRead(id: string, times = 1): Promise<void> {
    checkReadTimes(times);
    await this.pool.query("UPDATE outputs SET read_count = read_count + $1 WHERE id = $2", [
      times,
      id,
    ]);
  }

  async verify(id: string, scope: ReadScope): Promise<VerifyResult> {
    return verifyStored(this, id, scope);
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end().catch(() => {});
    await rm(this.scratch, { recursive: true, force: true });
  }

  /**
   * Ingests content (hashing, indexing, counting as it streams in) and, in one transaction,
   * writes the payload in chunks and lets `record` write the output's row: a record never
   * appears without its payload. A payload larger than one 4 MiB batch streams into PostgreSQL
   * while it is ingested (`ChunkSpill`: the transaction opens at the first batch); a smaller
   * one is written from memory once ingested.
   */
  private async storeAndRecord(
    content: OutputContent,
    options: PutOutputOptions,
    sessionId: string,
    record: (client: PoolClient, stored: IngestResult) => Promise<void>,
  ): Promise<void> {
    const spill = new ChunkSpill(this.pool, this.clock());
    const sink = new BlobSink(this.blobs, DEFAULT_INLINE_MAX_BYTES, spill);
    const quota = await this.quota(this.pool, sessionId);
    const maxBytes = payloadLimit(this.maxOutputBytes, quota);
    let stored: IngestResult;
    try {
      stored = await ingest(content, sink, {
        maxBytes,
        ...(options.binary ? { binary: true } : {}),
        ...(this.options.tokenizer ? { tokenizer: this.options.tokenizer } : {}),
      });
    } catch (error) {
      await sink.abort();
      if (quota && maxBytes < this.maxOutputBytes && isSpillwayError(error, "OUTPUT_TOO_LARGE"))
        throw sessionQuotaError(sessionId, quota.usedBytes, maxBytes, quota.maxSessionBytes, true);
      throw error;
    }
    await commitPayload(this.pool, spill, stored, this.clock(), async (client) => {
      checkQuota(sessionId, stored.byteSize, await this.quota(client, sessionId));
      await record(client, stored);
    });
  }

  private async insertRunning(
    db: Pool | PoolClient,
    id: string,
    origin: OutputOrigin,
    createdAt: number,
  ): Promise<void> {
    await db.query(
      `INSERT INTO outputs (id, session_id, tool_name, tool_args, tool_call_id, status, created_at)
       VALUES ($1, $2, $3, $4, $5, 'running', $6)`,
      [
        id,
        origin.sessionId,
        origin.toolName,
        origin.toolArgs,
        origin.toolCallId ?? null,
        createdAt,
      ],
    );
  }

  private async markReady(
    client: PoolClient,
    id: string,
    stored: IngestResult,
    options: PutOutputOptions,
  ): Promise<void> {
    await client.query(
      `UPDATE outputs SET status = 'ready', completed_at = $1, blob_sha256 = $2, byte_size = $3,
         char_count = $4, line_count = $5, token_estimate = $6, token_method = $7, kind = $8,
         media_type = $9, sanitized = $10
       WHERE id = $11`,
      [
        this.clock(),
        stored.sha256,
        stored.byteSize,
        stored.charCount,
        stored.lineCount,
        stored.tokenEstimate,
        stored.tokenMethod,
        stored.kind,
        options.mediaType ?? null,
        stored.sanitized,
        id,
      ],
    );
  }

  private async quota(db: Pool | PoolClient, sessionId: string): Promise<SessionQuota | undefined> {
    const maxSessionBytes = this.options.maxSessionBytes;
    if (maxSessionBytes === undefined) return undefined;
    const { rows } = await db.query<{ used: string }>(
      "SELECT COALESCE(SUM(byte_size), 0) AS used FROM outputs WHERE session_id = $1 AND status = 'ready'",
      [sessionId],
    );
    return { usedBytes: Number(rows[0]?.used ?? 0), maxSessionBytes };
  }

  /** Checks that `id` is running (locking its row inside a transaction); returns its session. */
  private async requireRunning(db: Pool | PoolClient, id: string, lock = false): Promise<string> {
    const { rows } = await db.query<{ status: string; tool_name: string; session_id: string }>(
      `SELECT status, tool_name, session_id FROM outputs WHERE id = $1${lock ? " FOR UPDATE" : ""}`,
      [id],
    );
    const row = rows[0];
    if (!row) throw new OutputNotFoundError(id);
    if (row.status !== "running") throw notRunningError(id, row.tool_name, row.status);
    return row.session_id;
  }

  private async getRow(id: string): Promise<OutputRecord> {
    const { rows } = await this.pool.query<PgOutputRow>("SELECT * FROM outputs WHERE id = $1", [
      id,
    ]);
    if (!rows[0]) throw new OutputNotFoundError(id);
    return toRecord(rows[0]);
  }

  /** A text payload's line index, parsed once per process; a missing one is rebuilt and saved. */
  private async indexFor(sha256: string, source: PostgresBlobSource): Promise<LineIndex> {
    return this.indexes.get(sha256, async () => {
      const { rows } = await this.pool.query<{ line_index: Buffer }>(
        "SELECT line_index FROM blobs WHERE sha256 = $1",
        [sha256],
      );
      return storedOrRebuilt(rows[0]?.line_index, source, sha256, (packed) =>
        this.pool.query(
          "UPDATE blobs SET line_index = $2 WHERE sha256 = $1 AND octet_length(line_index) = 0",
          [sha256, Buffer.from(packed)],
        ),
      );
    });
  }
}

import type Database from "better-sqlite3";
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
import { type BlobDirectory, BlobSink } from "./blob-files.js";
import { type BlobSource, FileBlobSource, MemoryBlobSource } from "./blob-source.js";
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
import { isMissingIndex, rebuildLineIndex } from "./rebuild-line-index.js";
import { checkQuota, payloadLimit, sessionQuotaError, sqliteQuota } from "./session-quota.js";
import { diskFullError, openSqliteDatabase, type SqliteSynchronous } from "./sqlite-database.js";
import { type BlobRow, type OutputRow, toRecord } from "./sqlite-output-rows.js";
import * as check from "./store-arguments.js";

/** 1 GiB: the default largest output a store accepts. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;
/** Payloads up to this size live inline in the database instead of a blob file. */
export const DEFAULT_INLINE_MAX_BYTES = 32 * 1024;

export interface SqliteOutputStoreOptions {
  /** Store directory; default `$SPILLWAY_HOME` or `~/.spillway`. */
  readonly home?: string;
  /** Largest accepted output in bytes (default 1 GiB). */
  readonly maxOutputBytes?: number;
  /** Most bytes one session's outputs may take (default no limit); past it SESSION_QUOTA_EXCEEDED. */
  readonly maxSessionBytes?: number;
  readonly inlineMaxBytes?: number;
  /** Tokenizer for token estimates (default o200k_base). */
  readonly tokenizer?: TokenizerName;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  /**
   * `full` (default): every commit is fsynced (survives a power loss). `normal`: commits
   * survive a process crash, not a power loss, and take a fraction of the time.
   */
  readonly synchronous?: SqliteSynchronous;
  /** @internal Test hook: runs after a blob file is durable and before its record is written. */
  readonly afterBlobDurable?: (sha256: string) => void | Promise<void>;
}

/**
 * Opens (creating if needed) the SQLite output store in a directory: `spillway.db` (WAL,
 * synchronous=FULL) plus content-addressed blob files.
 *
 * @example
 * const store = await openSqliteOutputStore({ home: process.env.SPILLWAY_HOME });
 * const record = await store.put(
 *   { sessionId: "ses_demo", toolName: "shell__run", toolArgs: '{"cmd":"cat app.log"}' },
 *   logText,
 * );
 * console.log(record.id, record.byteSize, record.kind);
 */
export async function openSqliteOutputStore(
  options: SqliteOutputStoreOptions = {},
): Promise<SqliteOutputStore> {
  const { home, db, blobs } = await openSqliteDatabase(
    options.home,
    options.clock ?? systemClock,
    options.synchronous,
  );
  return new SqliteOutputStore(home, db, blobs, options);
}

/** The SQLite implementation of {@link OutputStore}. Open it with {@link openSqliteOutputStore}. */
export class SqliteOutputStore implements OutputStore {
  readonly maxOutputBytes: number;
  private readonly inlineMaxBytes: number;
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private readonly indexes = new LineIndexCache();

  constructor(
    readonly location: string,
    private readonly db: Database.Database,
    private readonly blobs: BlobDirectory,
    private readonly options: SqliteOutputStoreOptions,
    /** False when the database is shared with other stores that close it. */
    private readonly ownsDatabase = true,
  ) {
    this.maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.inlineMaxBytes = options.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
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
    const stored = await this.storePayload(content, options, origin.sessionId);
    this.db
      .transaction(() => {
        checkQuota(origin.sessionId, stored.byteSize, this.quota(origin.sessionId));
        this.insertBlob(stored);
        this.insertRunning(id, origin, createdAt);
        this.markReady(id, stored, options);
      })
      .immediate();
    return this.getRow(id);
  }

  async begin(origin: OutputOrigin): Promise<OutputRecord> {
    origin = check.checkOrigin(origin);
    const id = this.ids(OUTPUT_ID_PREFIX);
    this.insertRunning(id, origin, origin.createdAt ?? this.clock());
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
    const sessionId = this.requireRunning(id);
    const stored = await this.storePayload(content, options, sessionId);
    this.db
      .transaction(() => {
        this.requireRunning(id);
        checkQuota(sessionId, stored.byteSize, this.quota(sessionId));
        this.insertBlob(stored);
        this.markReady(id, stored, options);
      })
      .immediate();
    return this.getRow(id);
  }

  async fail(id: string, error: string): Promise<OutputRecord> {
    id = check.checkOutputId(id);
    checkFailureText(error);
    this.db
      .transaction(() => {
        this.requireRunning(id);
        this.db
          .prepare("UPDATE outputs SET status = 'failed', error = ?, completed_at = ? WHERE id = ?")
          .run(error, this.clock(), id);
      })
      .immediate();
    return this.getRow(id);
  }

  async get(id: string, scope: ReadScope): Promise<OutputRecord> {
    id = check.checkOutputId(id);
    const checked = check.checkReadScope(scope);
    const row = this.db.prepare("SELECT * FROM outputs WHERE id = ?").get(id) as
      | OutputRow
      | undefined;
    const scoped = "sessionId" in checked;
    if (!row || (scoped && row.session_id !== checked.sessionId)) {
      throw new OutputNotFoundError(id, scoped);
    }
    return toRecord(row);
  }

  async list(filter: ListOutputsFilter = {}): Promise<OutputRecord[]> {
    filter = check.checkListFilter(filter);
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.sessionId !== undefined) {
      where.push("session_id = ?");
      params.push(filter.sessionId);
    }
    if (filter.status !== undefined) {
      where.push("status = ?");
      params.push(filter.status);
    }
    const sql =
      `SELECT * FROM outputs ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ` +
      "ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?";
    params.push(filter.limit ?? 100, filter.offset ?? 0);
    return (this.db.prepare(sql).all(...params) as OutputRow[]).map(toRecord);
  }

  async open(id: string, scope: ReadScope): Promise<OpenedOutput> {
    const record = await this.get(id, scope);
    if (record.status === "running") throw new OutputNotReadyError(id, record.toolName);
    if (record.status === "failed") {
      throw new OutputFailedError(id, record.toolName, record.error ?? "unknown error");
    }
    const sha256 = record.sha256;
    const blob = sha256
      ? (this.db.prepare("SELECT * FROM blobs WHERE sha256 = ?").get(sha256) as BlobRow | undefined)
      : undefined;
    if (!sha256 || !blob) {
      throw new StoreCorruptError(`Output "${id}" is ready but its payload record is missing.`, {
        outputId: id,
        sha256,
      });
    }
    const source = await this.sourceFor(blob);
    let index: LineIndex | null = null;
    try {
      index = record.kind === "binary" ? null : await this.indexFor(blob, source);
    } catch (error) {
      await source.close();
      throw error;
    }
    return {
      record: { ...record, status: "ready", sha256 },
      source,
      index,
      close: () => source.close(),
    };
  }

  async countRead(id: string, times = 1): Promise<void> {
    checkReadTimes(times);
    this.db.prepare("UPDATE outputs SET read_count = read_count + ? WHERE id = ?").run(times, id);
  }

  async verify(id: string, scope: ReadScope): Promise<VerifyResult> {
    return verifyStored(this, id, scope);
  }

  async close(): Promise<void> {
    if (this.ownsDatabase && this.db.open) this.db.close();
  }

  /** Ingests content and makes its payload durable; records nothing yet. */
  private async storePayload(
    content: OutputContent,
    options: PutOutputOptions,
    sessionId: string,
  ): Promise<IngestResult> {
    const sink = new BlobSink(this.blobs, this.inlineMaxBytes);
    const quota = this.quota(sessionId);
    const maxBytes = payloadLimit(this.maxOutputBytes, quota);
    let result: IngestResult;
    try {
      result = await ingest(content, sink, {
        maxBytes,
        ...(options.binary ? { binary: true } : {}),
        ...(this.options.tokenizer ? { tokenizer: this.options.tokenizer } : {}),
      });
    } catch (error) {
      await sink.abort();
      if (quota && maxBytes < this.maxOutputBytes && isSpillwayError(error, "OUTPUT_TOO_LARGE")) {
        throw sessionQuotaError(sessionId, quota.usedBytes, maxBytes, quota.maxSessionBytes, true);
      }
      throw diskFullError(error, this.location) ?? error;
    }
    if ("tempPath" in result.payload) {
      await this.blobs.commit(result.payload.tempPath, result.sha256);
      await this.options.afterBlobDurable?.(result.sha256);
    }
    return result;
  }

  private insertRunning(id: string, origin: OutputOrigin, createdAt: number): void {
    this.db
      .prepare(
        `INSERT INTO outputs (id, session_id, tool_name, tool_args, tool_call_id, status, created_at)
         VALUES (?, ?, ?, ?, ?, 'running', ?)`,
      )
      .run(
        id,
        origin.sessionId,
        origin.toolName,
        origin.toolArgs,
        origin.toolCallId ?? null,
        createdAt,
      );
  }

  private insertBlob(stored: IngestResult): void {
    const inline = "inline" in stored.payload ? stored.payload.inline : null;
    this.db
      .prepare(
        // Dedupe the bytes, never the representation: a payload first stored as binary has no
        // line index, and a text output of the same bytes fills it in (rebuild-line-index.ts).
        `INSERT INTO blobs (sha256, byte_size, storage, inline_data, line_index, created_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (sha256) DO UPDATE SET line_index = excluded.line_index
           WHERE length(blobs.line_index) = 0 AND length(excluded.line_index) > 0`,
      )
      .run(
        stored.sha256,
        stored.byteSize,
        inline ? "inline" : "file",
        inline,
        Buffer.from(stored.index.buffer, stored.index.byteOffset, stored.index.byteLength),
        this.clock(),
      );
  }

  private markReady(id: string, stored: IngestResult, options: PutOutputOptions): void {
    this.db
      .prepare(
        `UPDATE outputs SET status = 'ready', completed_at = ?, blob_sha256 = ?, byte_size = ?,
           char_count = ?, line_count = ?, token_estimate = ?, token_method = ?, kind = ?,
           media_type = ?, sanitized = ?
         WHERE id = ?`,
      )
      .run(
        this.clock(),
        stored.sha256,
        stored.byteSize,
        stored.charCount,
        stored.lineCount,
        stored.tokenEstimate,
        stored.tokenMethod,
        stored.kind,
        options.mediaType ?? null,
        stored.sanitized ? 1 : 0,
        id,
      );
  }

  private quota(sessionId: string) {
    return sqliteQuota(this.db, sessionId, this.options.maxSessionBytes);
  }

  /** Checks that `id` is running; returns its session. */
  private requireRunning(id: string): string {
    const row = this.db
      .prepare("SELECT status, tool_name, session_id FROM outputs WHERE id = ?")
      .get(id) as { status: string; tool_name: string; session_id: string } | undefined;
    if (!row) throw new OutputNotFoundError(id);
    if (row.status !== "running") throw notRunningError(id, row.tool_name, row.status);
    return row.session_id;
  }

  private getRow(id: string): OutputRecord {
    const row = this.db.prepare("SELECT * FROM outputs WHERE id = ?").get(id) as
      | OutputRow
      | undefined;
    if (!row) throw new OutputNotFoundError(id);
    return toRecord(row);
  }

  private async sourceFor(blob: BlobRow): Promise<BlobSource> {
    if (blob.storage === "inline") {
      const data = blob.inline_data ?? Buffer.alloc(0);
      if (data.byteLength !== blob.byte_size) {
        throw new StoreCorruptError(
          `Inline payload ${blob.sha256} has ${data.byteLength} bytes; its record says ${blob.byte_size}.`,
          { sha256: blob.sha256, expectedSize: blob.byte_size, actualSize: data.byteLength },
        );
      }
      return new MemoryBlobSource(data);
    }
    return FileBlobSource.open(this.blobs.pathFor(blob.sha256), blob.byte_size, blob.sha256);
  }

  /** A text output's line index; a missing one is rebuilt from the bytes and saved. */
  private async indexFor(blob: BlobRow, source: BlobSource): Promise<LineIndex> {
    if (!isMissingIndex(blob.line_index)) return this.indexes.getSync(blob.sha256, blob.line_index);
    return this.indexes.get(blob.sha256, async () => {
      const packed = await rebuildLineIndex(source, blob.sha256);
      try {
        this.db
          .prepare("UPDATE blobs SET line_index = ? WHERE sha256 = ? AND length(line_index) = 0")
          .run(Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength), blob.sha256);
      } catch (error) {
        // A read-only or busy database still serves the read; the next open saves the index.
        if (!/^SQLITE_(READONLY|BUSY)/.test((error as { code?: string }).code ?? "")) throw error;
      }
      return packed;
    });
  }
}

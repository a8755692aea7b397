/**
 * Payload bytes in PostgreSQL: content-addressed, in fixed-size chunks (`blob_chunks`), so a
 * slice reads only the chunks it covers and a scan streams them in order. Callers see a
 * {@link BlobSource}, as for a blob file: an object-store backend can replace this module
 * without touching them.
 */
import { randomBytes } from "node:crypto";
import { open } from "node:fs/promises";
import type { Pool, PoolClient } from "pg";
import { StoreCorruptError } from "../core/errors.js";
import { BATCH_BYTES, type BatchSpill, type SinkPayload } from "./blob-files.js";
import type { BlobSource } from "./blob-source.js";
import { withTransaction } from "./postgres-database.js";

/** 256 KiB: a 4 KB slice reads one chunk; a 100 MB payload is 400 rows. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks per INSERT statement while writing (4 MiB per round trip, a sink's batch). */
const CHUNKS_PER_INSERT = BATCH_BYTES / CHUNK_BYTES;
/** Chunks a reader keeps, so neighbouring reads and scans do not fetch one twice. */
const CACHED_CHUNKS = 8;

/** Where a payload's bytes come from when it is written: memory, or a complete temp file. */
export type PayloadBytes = { inline: Uint8Array } | { tempPath: string };

async function* piecesOf(payload: PayloadBytes, size: number): AsyncGenerator<Uint8Array> {
  if ("inline" in payload) {
    for (let at = 0; at < size; at += CHUNK_BYTES)
      yield payload.inline.subarray(at, Math.min(size, at + CHUNK_BYTES));
    return;
  }
  const handle = await open(payload.tempPath, "r");
  try {
    for (let at = 0; at < size; at += CHUNK_BYTES) {
      const piece = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - at));
      let filled = 0;
      while (filled < piece.byteLength) {
        const { bytesRead } = await handle.read(
          piece,
          filled,
          piece.byteLength - filled,
          at + filled,
        );
        if (bytesRead === 0)
          throw new Error(`temp file ${payload.tempPath} ended at ${at + filled}`);
        filled += bytesRead;
      }
      yield piece;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Dedupe the bytes, never the representation: when the same bytes were first stored as binary
 * (no line index), a text output of them fills the index in.
 */
async function fillMissingIndex(
  client: PoolClient,
  blob: { sha256: string; lineIndex: Uint8Array },
): Promise<void> {
  if (blob.lineIndex.byteLength === 0) return;
  await client.query(
    "UPDATE blobs SET line_index = $2 WHERE sha256 = $1 AND octet_length(line_index) = 0",
    [blob.sha256, Buffer.from(blob.lineIndex)],
  );
}

/**
 * Writes a payload's chunks inside the caller's transaction, unless the same content is
 * already stored (content addressing: the `blobs` row is claimed first, and a second writer of
 * the same bytes waits for the first to commit, then skips).
 */
export async function writeBlob(
  client: PoolClient,
  blob: { sha256: string; byteSize: number; lineIndex: Uint8Array; createdAt: number },
  payload: PayloadBytes,
): Promise<void> {
  const claimed = await client.query(
    `INSERT INTO blobs (sha256, byte_size, chunk_bytes, line_index, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (sha256) DO NOTHING`,
    [blob.sha256, blob.byteSize, CHUNK_BYTES, Buffer.from(blob.lineIndex), blob.createdAt],
  );
  if (claimed.rowCount === 0) {
    await fillMissingIndex(client, blob);
    return;
  }
  let seq = 0;
  let batch: Uint8Array[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await insertChunks(client, blob.sha256, seq - batch.length, batch);
    batch = [];
  };
  for await (const piece of piecesOf(payload, blob.byteSize)) {
    batch.push(piece);
    seq++;
    if (batch.length === CHUNKS_PER_INSERT) await flush();
  }
  await flush();
}

async function insertChunks(
  client: PoolClient,
  key: string,
  firstSeq: number,
  pieces: readonly Uint8Array[],
): Promise<void> {
  const values = pieces.map((_, i) => `($1, $${i * 2 + 2}, $${i * 2 + 3})`).join(", ");
  const params: unknown[] = [key];
  for (const [i, piece] of pieces.entries()) params.push(firstSeq + i, piece);
  await client.query(`INSERT INTO blob_chunks (sha256, seq, data) VALUES ${values}`, params);
}

/**
 * Streams a large payload's chunks into PostgreSQL while it is still being ingested, inside a
 * transaction opened at the first full batch: the chunks are written under a placeholder key
 * (the content's hash is known only at the end), then {@link adoptChunks} gives them their
 * address in the same transaction that records the output. A crash or a failed ingest rolls
 * everything back; nothing partial is ever visible.
 *
 * @example
 * const spill = new ChunkSpill(pool, Date.now());
 * const sink = new BlobSink(scratch, 0, spill); // ingest(content, sink, …)
 * await adoptChunks(spill.client!, spill.key, blob); // then record the output, then COMMIT
 */
export class ChunkSpill implements BatchSpill {
  /** The connection holding the open transaction, once the first batch was written. */
  client: PoolClient | undefined;
  readonly key = `upload-${randomBytes(12).toString("hex")}`;
  private seq = 0;

  constructor(
    private readonly pool: Pool,
    private readonly createdAt: number,
  ) {}

  /** The start of the next chunk, held back until it is whole (batches need not align). */
  private carry = Buffer.allocUnsafe(CHUNK_BYTES);
  private carried = 0;

  async write(bytes: Uint8Array): Promise<void> {
    const pieces: Uint8Array[] = [];
    let at = 0;
    if (this.carried > 0) {
      at = Math.min(bytes.byteLength, CHUNK_BYTES - this.carried);
      this.carry.set(bytes.subarray(0, at), this.carried);
      this.carried += at;
      if (this.carried < CHUNK_BYTES) return;
      pieces.push(this.carry);
      this.carry = Buffer.allocUnsafe(CHUNK_BYTES);
      this.carried = 0;
    }
    for (; bytes.byteLength - at >= CHUNK_BYTES; at += CHUNK_BYTES)
      pieces.push(bytes.subarray(at, at + CHUNK_BYTES));
    this.carry.set(bytes.subarray(at), 0);
    this.carried = bytes.byteLength - at;
    await this.insert(pieces);
  }

  async finish(): Promise<void> {
    if (this.carried > 0) await this.insert([this.carry.subarray(0, this.carried)]);
    this.carried = 0;
  }

  private async insert(pieces: readonly Uint8Array[]): Promise<void> {
    if (pieces.length === 0) return;
    if (!this.client) {
      const client = await this.pool.connect();
      this.client = client;
      await client.query("BEGIN");
      await client.query(
        `INSERT INTO blobs (sha256, byte_size, chunk_bytes, line_index, created_at)
         VALUES ($1, 0, $2, $3, $4)`,
        [this.key, CHUNK_BYTES, Buffer.alloc(0), this.createdAt],
      );
    }
    await insertChunks(this.client, this.key, this.seq, pieces);
    this.seq += pieces.length;
  }

  /** Ends the transaction (committing or rolling back) and returns the connection. */
  async end(commit: boolean): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    try {
      await client.query(commit ? "COMMIT" : "ROLLBACK");
    } finally {
      client.release();
    }
  }

  async abort(): Promise<void> {
    await this.end(false).catch(() => {});
  }
}

/**
 * Gives chunks written under `key` (by a {@link ChunkSpill}) their content address, inside
 * the spill's transaction. When the same content is already stored (or another writer of it
 * commits first: the claim waits for it), the placeholder and its chunks are dropped instead.
 */
export async function adoptChunks(
  client: PoolClient,
  key: string,
  blob: { sha256: string; byteSize: number; lineIndex: Uint8Array; createdAt: number },
): Promise<void> {
  const claimed = await client.query(
    `INSERT INTO blobs (sha256, byte_size, chunk_bytes, line_index, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (sha256) DO NOTHING`,
    [blob.sha256, blob.byteSize, CHUNK_BYTES, Buffer.from(blob.lineIndex), blob.createdAt],
  );
  if (claimed.rowCount === 1)
    await client.query("UPDATE blob_chunks SET sha256 = $1 WHERE sha256 = $2", [blob.sha256, key]);
  else await fillMissingIndex(client, blob);
  await client.query("DELETE FROM blobs WHERE sha256 = $1", [key]);
}

/**
 * Writes an ingested payload and, in the same transaction, what `withPayload` writes (the
 * output's record): a spilled payload in the spill's open transaction, a payload held in memory
 * in a new one. Committed together, or not at all.
 */
export async function commitPayload(
  pool: Pool,
  spill: ChunkSpill,
  stored: { sha256: string; byteSize: number; index: Uint8Array; payload: SinkPayload },
  createdAt: number,
  withPayload: (client: PoolClient) => Promise<void>,
): Promise<void> {
  const blob = {
    sha256: stored.sha256,
    byteSize: stored.byteSize,
    lineIndex: stored.index,
    createdAt,
  };
  const payload = stored.payload;
  if ("inline" in payload) {
    await withTransaction(pool, async (client) => {
      await writeBlob(client, blob, payload);
      await withPayload(client);
    });
    return;
  }
  const client = spill.client;
  if (!("spilled" in payload) || !client)
    throw new Error("a spilled payload without its transaction (a bug in BlobSink)");
  let committed = false;
  try {
    await adoptChunks(client, spill.key, blob);
    await withPayload(client);
    await spill.end(true);
    committed = true;
  } finally {
    if (!committed) await spill.abort();
  }
}

/** The bytes of one stored payload, read chunk by chunk on demand. */
interface ChunkRow {
  readonly seq: number;
  readonly data: Buffer;
}

export class PostgresBlobSource implements BlobSource {
  private readonly cache = new Map<number, Buffer>();
  /** The stretch a forward scan will read next, already being fetched. */
  private ahead: { first: number; last: number; rows: Promise<ChunkRow[]> } | undefined;
  /** The last chunk of the previous read (-1 before any): a read right after it is a scan. */
  private lastEnd = -1;

  constructor(
    private readonly pool: Pool,
    private readonly sha256: string,
    readonly size: number,
    private readonly chunkBytes: number,
  ) {}

  async read(offset: number, length: number): Promise<Uint8Array> {
    const wanted = Math.max(0, Math.min(length, this.size - offset));
    const target = new Uint8Array(wanted);
    await this.fill(target, offset);
    return target;
  }

  async readInto(target: Uint8Array, offset: number): Promise<number> {
    const wanted = Math.max(0, Math.min(target.byteLength, this.size - offset));
    await this.fill(target.subarray(0, wanted), offset);
    return wanted;
  }

  async close(): Promise<void> {
    this.cache.clear();
    // A read-ahead still in flight must finish before the pool may be closed.
    await this.ahead?.rows.catch(() => {});
    this.ahead = undefined;
  }

  private async fill(target: Uint8Array, offset: number): Promise<void> {
    if (target.byteLength === 0) return;
    const first = Math.floor(offset / this.chunkBytes);
    const last = Math.floor((offset + target.byteLength - 1) / this.chunkBytes);
    await this.load(first, last);
    for (let seq = first; seq <= last; seq++) {
      const chunk = this.cache.get(seq)!;
      const chunkStart = seq * this.chunkBytes;
      const from = Math.max(offset, chunkStart);
      const to = Math.min(offset + target.byteLength, chunkStart + chunk.byteLength);
      target.set(chunk.subarray(from - chunkStart, to - chunkStart), from - offset);
    }
  }

  /** Fetches the chunks of [first, last] not cached, in one query, and checks their sizes. */
  private async load(first: number, last: number): Promise<void> {
    const missing: number[] = [];
    for (let seq = first; seq <= last; seq++) if (!this.cache.has(seq)) missing.push(seq);
    if (missing.length > 0) {
      const from = missing[0]!;
      const to = missing.at(-1)!;
      const ahead = this.ahead;
      this.ahead = undefined;
      const rows =
        ahead && ahead.first === from && ahead.last >= to
          ? await ahead.rows
          : await this.fetch(from, to);
      this.check(missing, rows);
      for (const row of rows) {
        this.cache.delete(row.seq);
        this.cache.set(row.seq, row.data);
      }
    }
    // A scan reads forward: fetch its next stretch while the caller works on this one.
    const span = last - first + 1;
    if (first === this.lastEnd + 1 && last + 1 < this.chunkCount && !this.ahead) {
      const next = { first: last + 1, last: Math.min(this.chunkCount - 1, last + span) };
      const rows = this.fetch(next.first, next.last);
      rows.catch(() => {}); // a failed read-ahead is fetched again, and reported, when needed
      this.ahead = { ...next, rows };
    }
    this.lastEnd = last;
    // Keep the newest few: scans move forward, and a slice rereads its neighbours.
    // (never the chunks of this read, which the caller copies next).
    for (const seq of this.cache.keys()) {
      if (this.cache.size <= Math.max(CACHED_CHUNKS, span)) break;
      if (seq < first || seq > last) this.cache.delete(seq);
    }
  }

  private get chunkCount(): number {
    return this.size === 0 ? 0 : Math.ceil(this.size / this.chunkBytes);
  }

  private async fetch(first: number, last: number): Promise<ChunkRow[]> {
    const { rows } = await this.pool.query<ChunkRow>(
      "SELECT seq, data FROM blob_chunks WHERE sha256 = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq",
      [this.sha256, first, last],
    );
    return rows;
  }

  private check(missing: readonly number[], rows: readonly ChunkRow[]): void {
    const chunks = this.chunkCount;
    for (const seq of missing) {
      const row = rows.find((r) => r.seq === seq);
      const expected = seq === chunks - 1 ? this.size - seq * this.chunkBytes : this.chunkBytes;
      if (!row || row.data.byteLength !== expected)
        throw new StoreCorruptError(
          `Chunk ${seq} of payload ${this.sha256} is ${row ? `${row.data.byteLength} bytes; its record says ${expected}` : "missing"} in the PostgreSQL store.`,
          { sha256: this.sha256, chunk: seq },
        );
    }
  }
}

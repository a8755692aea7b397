/**
 * Payload bytes in PostgreSQL: content-addressed, in fixed-size chunks (`blob_chunks`), so a
 * slice reads only the chunks it covers and a scan streams them in order. Callers see a
 * {@link BlobSource}, as for a blob file: an object-store backend can replace this module
 * without touching them.
 */
import { open } from "node:fs/promises";
import type { Pool, PoolClient } from "pg";
import { StoreCorruptError } from "../core/errors.js";
import type { BlobSource } from "./blob-source.js";

/** 256 KiB: a 4 KB slice reads one chunk; a 100 MB payload is 400 rows. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks per INSERT statement while writing (4 MiB per round trip). */
const CHUNKS_PER_INSERT = 16;
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
  if (claimed.rowCount === 0) return;
  let seq = 0;
  let batch: Uint8Array[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch.map((_, i) => `($1, $${i * 2 + 2}, $${i * 2 + 3})`).join(", ");
    const params: unknown[] = [blob.sha256];
    for (const [i, piece] of batch.entries()) params.push(seq - batch.length + i, piece);
    await client.query(`INSERT INTO blob_chunks (sha256, seq, data) VALUES ${values}`, params);
    batch = [];
  };
  for await (const piece of piecesOf(payload, blob.byteSize)) {
    batch.push(piece);
    seq++;
    if (batch.length === CHUNKS_PER_INSERT) await flush();
  }
  await flush();
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

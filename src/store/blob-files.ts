import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import {
  access,
  chmod,
  type FileHandle,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  stat,
} from "node:fs/promises";
import { join } from "node:path";

/** Directories are private to the user; so are files. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
/** A temp file older than this cannot belong to a live write. */
const ABANDONED_TEMP_AGE_MS = 24 * 3600 * 1000;

/** Creates a directory (and parents) private to the user. */
export async function makePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: DIR_MODE });
  await chmod(path, DIR_MODE);
}

async function fsyncDir(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Content-addressed blob files: `<home>/blobs/<sha[0..2]>/<sha>`, immutable once written.
 * Writes go to `<home>/tmp` first and are renamed into place after fsync, so a blob file is
 * either absent or complete.
 */
export class BlobDirectory {
  readonly blobsDir: string;
  readonly tmpDir: string;

  constructor(home: string) {
    this.blobsDir = join(home, "blobs");
    this.tmpDir = join(home, "tmp");
  }

  async prepare(): Promise<void> {
    await makePrivateDir(this.blobsDir);
    await makePrivateDir(this.tmpDir);
    await this.removeAbandonedTemps();
  }

  /**
   * Deletes temp files a crashed writer left behind. Only old ones: a younger file may belong
   * to another process writing right now.
   */
  private async removeAbandonedTemps(): Promise<void> {
    const cutoff = Date.now() - ABANDONED_TEMP_AGE_MS;
    for (const name of await readdir(this.tmpDir)) {
      if (!name.endsWith(".part")) continue;
      const path = join(this.tmpDir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
    }
  }

  pathFor(sha256: string): string {
    return join(this.blobsDir, sha256.slice(0, 2), sha256);
  }

  /** A new temp file for a payload being written. */
  async createTemp(): Promise<{ path: string; handle: FileHandle }> {
    const path = join(this.tmpDir, `${randomBytes(12).toString("hex")}.part`);
    const handle = await open(path, "wx", FILE_MODE);
    return { path, handle };
  }

  /**
   * Moves a complete, fsynced temp file to its content address. If that blob already exists
   * (same content stored before), the temp file is dropped: blobs are deduplicated.
   */
  async commit(tempPath: string, sha256: string): Promise<string> {
    const finalPath = this.pathFor(sha256);
    const shard = join(this.blobsDir, sha256.slice(0, 2));
    if (await exists(finalPath)) {
      await rm(tempPath, { force: true });
      return finalPath;
    }
    await makePrivateDir(shard);
    await rename(tempPath, finalPath);
    await fsyncDir(shard);
    return finalPath;
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }
}

const FLUSH_BYTES = 4 * 1024 * 1024;

/**
 * Receives a payload's bytes as they are produced. Payloads up to `inlineMaxBytes` stay in
 * memory (to be stored inline in the database); larger ones spill to a temp file, written in
 * batches with one write in flight while the caller keeps hashing and indexing.
 */
export class BlobSink {
  private chunks: Uint8Array[] = [];
  private chunkBytes = 0;
  private total = 0;
  private temp: { path: string; handle: FileHandle } | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly directory: BlobDirectory,
    private readonly inlineMaxBytes: number,
  ) {}

  get byteCount(): number {
    return this.total;
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength === 0) return;
    this.chunks.push(bytes);
    this.chunkBytes += bytes.byteLength;
    this.total += bytes.byteLength;
    if (this.total > this.inlineMaxBytes && this.chunkBytes >= FLUSH_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    await this.inFlight;
    if (this.failure !== undefined) throw this.failure;
    this.temp ??= await this.directory.createTemp();
    const batch = this.chunks;
    this.chunks = [];
    this.chunkBytes = 0;
    const handle = this.temp.handle;
    this.inFlight = writeAll(handle, batch).catch((error: unknown) => {
      this.failure = error;
    });
  }

  /** Completes the payload: inline bytes, or the path of a complete, fsynced temp file. */
  async finish(): Promise<{ inline: Uint8Array } | { tempPath: string }> {
    if (this.total <= this.inlineMaxBytes) {
      return { inline: Buffer.concat(this.chunks, this.total) };
    }
    await this.flush();
    await this.inFlight;
    if (this.failure !== undefined) throw this.failure;
    const temp = this.temp!;
    await temp.handle.sync();
    await temp.handle.close();
    this.temp = undefined;
    return { tempPath: temp.path };
  }

  /** Drops everything written so far (nothing partial may remain). */
  async abort(): Promise<void> {
    this.chunks = [];
    await this.inFlight;
    if (this.temp) {
      await this.temp.handle.close().catch(() => undefined);
      await this.directory.discard(this.temp.path);
      this.temp = undefined;
    }
  }
}

async function writeAll(handle: FileHandle, buffers: Uint8Array[]): Promise<void> {
  let pending = buffers;
  while (pending.length > 0) {
    const expected = pending.reduce((sum, b) => sum + b.byteLength, 0);
    const { bytesWritten } = await handle.writev(pending);
    if (bytesWritten === expected) return;
    // Partial write: keep what was not written.
    let skip = bytesWritten;
    const rest: Uint8Array[] = [];
    for (const buffer of pending) {
      if (skip >= buffer.byteLength) {
        skip -= buffer.byteLength;
        continue;
      }
      rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
      skip = 0;
    }
    pending = rest;
  }
}

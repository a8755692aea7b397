import { randomBytes } from "node:crypto";
import { type FileHandle, lstat, mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { SpillwayError } from "../core/errors.js";
import { isStaleTemp, tempName, trackTemp, untrackTemp } from "./temp-files.js";

/** Directories are private to the user; so are files. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
/** At open, a dead writer's temp file is removed once it has been idle this long. */
const STALE_TEMP_IDLE_MS = 10 * 60 * 1000;

/** STORE_UNAVAILABLE: something other than what spillway expects sits at `path`. */
export function notExpected(path: string, found: string, expected: string): SpillwayError {
  return new SpillwayError(
    "STORE_UNAVAILABLE",
    `${path} is ${found}; spillway expects ${expected} there and does not follow or change it. ` +
      "Remove it, or point --home (SPILLWAY_HOME) at the real directory.",
    { path, found, expected },
    { fault: "user" },
  );
}

/**
 * Makes sure a real directory exists at `path`. A missing one is created private (0700, and
 * so are missing parents); an existing one is used as it is: its mode is never changed, since
 * spillway did not create it. A symbolic link or a file there is refused.
 */
export async function makePrivateDir(path: string): Promise<void> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (info?.isSymbolicLink()) throw notExpected(path, "a symbolic link", "a directory");
  if (info && !info.isDirectory()) throw notExpected(path, "not a directory", "a directory");
  if (info) return;
  // Missing parents are created private too; existing ones (symlinks included) are the user's.
  await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
  await mkdir(path, { mode: DIR_MODE }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
}

async function fsyncDir(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
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
   * Deletes temp files crashed writers left behind: those of a process that is gone (after 10
   * minutes idle, in case its pid is from another host or container), and any older than a day.
   * `spillway store gc` removes a dead writer's files at once (store-maintenance.ts).
   */
  private async removeAbandonedTemps(): Promise<void> {
    const now = Date.now();
    for (const name of await readdir(this.tmpDir)) {
      if (!name.endsWith(".part")) continue;
      const path = join(this.tmpDir, name);
      const info = await stat(path).catch(() => undefined);
      if (info && isStaleTemp(path, info.mtimeMs, now, STALE_TEMP_IDLE_MS)) {
        await rm(path, { force: true });
      }
    }
  }

  pathFor(sha256: string): string {
    return join(this.blobsDir, sha256.slice(0, 2), sha256);
  }

  /** A new temp file for a payload being written. */
  async createTemp(): Promise<{ path: string; handle: FileHandle }> {
    const path = join(this.tmpDir, tempName(randomBytes(12).toString("hex")));
    const handle = await open(path, "wx", FILE_MODE);
    trackTemp(path);
    return { path, handle };
  }

  /**
   * Moves a complete, fsynced temp file to its content address. A file already there (the
   * same content stored before, or something damaged or planted) is replaced atomically, never
   * trusted unchecked: the new bytes were hashed on the way in, so after the rename the
   * address holds exactly that content. Records stay deduplicated; the bytes are rewritten.
   */
  async commit(tempPath: string, sha256: string): Promise<string> {
    const finalPath = this.pathFor(sha256);
    const shard = join(this.blobsDir, sha256.slice(0, 2));
    await makePrivateDir(shard);
    await rename(tempPath, finalPath);
    untrackTemp(tempPath);
    await fsyncDir(shard);
    return finalPath;
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
    untrackTemp(tempPath);
  }
}

/** The bytes a sink gathers before it writes them out. */
export const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Somewhere other than a temp file that takes a payload's full batches as they fill (a
 * database writing chunks inside an open transaction), so the write overlaps the hashing.
 */
export interface BatchSpill {
  /** Writes one batch (at most `BATCH_BYTES`); `bytes` is reused once the promise settles. */
  write(bytes: Uint8Array): Promise<void>;
  /** Every batch was written: write what is still held back. */
  finish(): Promise<void>;
  /** Drops everything written (the payload failed). */
  abort(): Promise<void>;
}

/** Where a sink's payload ended up. */
export type SinkPayload = { inline: Uint8Array } | { tempPath: string } | { spilled: true };

/**
 * Receives a payload's bytes as they are produced. Bytes are gathered in a 4 MiB batch buffer;
 * a full batch is written to a temp file while the caller fills the other of two buffers, so
 * hashing and indexing overlap the disk write and no per-piece buffers are allocated. Payloads
 * up to `inlineMaxBytes` never reach the disk here (they are stored inline in the database).
 * Given a {@link BatchSpill}, full batches go there instead of a temp file, and a payload that
 * never filled one is handed back inline whatever its size.
 */
export class BlobSink {
  private batch: Buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private spare: Buffer | undefined;
  private used = 0;
  private total = 0;
  private temp: { path: string; handle: FileHandle } | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private failure: unknown;

  private spilledAny = false;

  constructor(
    private readonly directory: BlobDirectory,
    private readonly inlineMaxBytes: number,
    private readonly spill?: BatchSpill,
  ) {}

  get byteCount(): number {
    return this.total;
  }

  /**
   * Encodes a string as UTF-8 into the batch and returns a view of its bytes. The view stays
   * valid only until the next write: hash or copy it at once.
   */
  async writeString(text: string): Promise<Uint8Array> {
    const worstCase = text.length * 3;
    if (worstCase > BATCH_BYTES)
      throw new RangeError("writeString takes pieces of at most 1.3 M characters");
    if (this.used + worstCase > BATCH_BYTES) await this.flush();
    const length = this.batch.write(text, this.used, "utf8");
    const bytes = this.batch.subarray(this.used, this.used + length);
    this.used += length;
    this.total += length;
    return bytes;
  }

  /** Appends bytes (copied: the caller may reuse its buffer). */
  async write(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.byteLength) {
      if (this.used === BATCH_BYTES) await this.flush();
      const take = Math.min(BATCH_BYTES - this.used, bytes.byteLength - at);
      this.batch.set(bytes.subarray(at, at + take), this.used);
      this.used += take;
      this.total += take;
      at += take;
    }
  }

  /** Starts writing the current batch and switches to the spare buffer. */
  private async flush(): Promise<void> {
    await this.settle();
    if (!this.spill) this.temp ??= await this.directory.createTemp();
    // The spare buffer's write has settled, so it is free to fill while this one is written.
    const full = this.batch;
    const length = this.used;
    this.batch = this.spare ?? Buffer.allocUnsafe(BATCH_BYTES);
    this.spare = full;
    this.used = 0;
    this.spilledAny = true;
    const written = this.spill
      ? this.spill.write(full.subarray(0, length))
      : writeAll(this.temp!.handle, full.subarray(0, length));
    this.inFlight = written.catch((error: unknown) => {
      this.failure = error;
    });
  }

  private async settle(): Promise<void> {
    await this.inFlight;
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Completes the payload: inline bytes, the path of a complete, fsynced temp file, or (with a
   * spill) word that every byte went there.
   */
  async finish(): Promise<SinkPayload> {
    if (!this.spilledAny && (this.spill || this.total <= this.inlineMaxBytes)) {
      return { inline: Buffer.from(this.batch.subarray(0, this.used)) };
    }
    if (this.used > 0) await this.flush();
    await this.settle();
    if (this.spill) {
      await this.spill.finish();
      return { spilled: true };
    }
    const temp = this.temp!;
    await temp.handle.sync();
    await temp.handle.close();
    this.temp = undefined;
    return { tempPath: temp.path };
  }

  /** Drops everything written so far (nothing partial may remain). */
  async abort(): Promise<void> {
    this.used = 0;
    await this.inFlight;
    await this.spill?.abort();
    if (this.temp) {
      const temp = this.temp;
      this.temp = undefined;
      try {
        await temp.handle.close();
      } finally {
        await this.directory.discard(temp.path);
      }
    }
  }
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.byteLength) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.byteLength - at);
    at += bytesWritten;
  }
}

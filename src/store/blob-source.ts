import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { StoreCorruptError } from "../core/errors.js";

/** Random-access bytes of one stored payload, wherever it lives (inline row or blob file). */
export interface BlobSource {
  readonly size: number;
  /**
   * Reads up to `length` bytes at `offset` (fewer only at the end of the payload). The bytes
   * are the caller's: a reader may move them to a worker (json mode does), so a source never
   * hands out a view of memory it keeps.
   */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Reads into a caller's buffer (reused across calls by scanners, so no new memory is mapped
   * per block); returns the bytes read, fewer than `target.byteLength` only at the end.
   */
  readInto(target: Uint8Array, offset: number): Promise<number>;
  close(): Promise<void>;
}

/** A payload held in memory (small outputs stored inline in the database). */
export class MemoryBlobSource implements BlobSource {
  constructor(private readonly data: Uint8Array) {}

  get size(): number {
    return this.data.byteLength;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    // A copy: the caller owns what it reads (json mode transfers it to a worker, which would
    // detach this payload's memory for every later read of the same opened output).
    // (`new Uint8Array(view)` copies; a Buffer's own `slice` would return a view.)
    return new Uint8Array(
      this.data.subarray(offset, Math.min(this.data.byteLength, offset + length)),
    );
  }

  async readInto(target: Uint8Array, offset: number): Promise<number> {
    const bytes = this.data.subarray(
      offset,
      Math.min(this.data.byteLength, offset + target.byteLength),
    );
    target.set(bytes);
    return bytes.byteLength;
  }

  async close(): Promise<void> {}
}

/** A payload in a content-addressed blob file. */
export class FileBlobSource implements BlobSource {
  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
    private readonly path: string,
  ) {}

  /** Opens a blob file and checks it has the size its record promises. */
  static async open(path: string, expectedSize: number, sha256: string): Promise<FileBlobSource> {
    let handle: FileHandle;
    try {
      // A symbolic link is never followed: a blob file is a regular file spillway wrote.
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      const link = (error as NodeJS.ErrnoException).code === "ELOOP";
      throw new StoreCorruptError(
        link
          ? `Blob file for sha256 ${sha256} at ${path} is a symbolic link; spillway reads only the regular files it wrote. Store the content again to repair it.`
          : `Blob file for sha256 ${sha256} is missing or unreadable at ${path}.`,
        { path, sha256 },
        error,
      );
    }
    const { size } = await handle.stat();
    if (size !== expectedSize) {
      await handle.close();
      throw new StoreCorruptError(
        `Blob file ${path} has ${size} bytes; its record says ${expectedSize}.`,
        { path, sha256, expectedSize, actualSize: size },
      );
    }
    return new FileBlobSource(handle, size, path);
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const wanted = Math.max(0, Math.min(length, this.size - offset));
    const buffer = Buffer.allocUnsafe(wanted);
    await this.fill(buffer, offset);
    return buffer;
  }

  async readInto(target: Uint8Array, offset: number): Promise<number> {
    const wanted = Math.max(0, Math.min(target.byteLength, this.size - offset));
    await this.fill(target.subarray(0, wanted), offset);
    return wanted;
  }

  private async fill(target: Uint8Array, offset: number): Promise<void> {
    let filled = 0;
    while (filled < target.byteLength) {
      const { bytesRead } = await this.handle.read(
        target,
        filled,
        target.byteLength - filled,
        offset + filled,
      );
      if (bytesRead === 0) {
        throw new StoreCorruptError(
          `Blob file ${this.path} ended early at byte ${offset + filled}.`,
          {
            path: this.path,
            offset: offset + filled,
          },
        );
      }
      filled += bytesRead;
    }
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** The SHA-256 (hex) of a payload's bytes, read 4 MiB at a time. */
export async function sha256Of(source: BlobSource): Promise<string> {
  const hash = createHash("sha256");
  const step = 4 * 1024 * 1024;
  for (let at = 0; at < source.size; at += step) hash.update(await source.read(at, step));
  return hash.digest("hex");
}

import type { BlobSource } from "../store/blob-source.js";

const BLOCK_BYTES = 4 * 1024 * 1024;
/** Longest literal the scanner accepts (it must fit well inside one block). */
export const MAX_LITERAL_BYTES = 64 * 1024;

/**
 * Finds a literal byte sequence in a stored payload, block by block, without decoding.
 * Searching UTF-8 bytes for a UTF-8 needle is exact: UTF-8 is self-synchronizing, so a
 * valid needle can only match at character boundaries.
 *
 * Occurrences are non-overlapping and in order. `skipLine()` moves past the end of the line
 * of the last match, so grep reports each line once.
 */
export class ByteScanner {
  /** One block buffer, reused for every read of this scan. */
  private scratch: Buffer | undefined;
  private block: Buffer = Buffer.alloc(0);
  private blockStart = 0;
  private searchFrom: number;

  constructor(
    private readonly source: BlobSource,
    private readonly needle: Buffer,
    fromByte = 0,
  ) {
    this.searchFrom = fromByte;
  }

  /** Where the next search starts (a byte offset). */
  get position(): number {
    return this.searchFrom;
  }

  private get blockEnd(): number {
    return this.blockStart + this.block.byteLength;
  }

  private async load(at: number): Promise<void> {
    this.scratch ??= Buffer.allocUnsafe(Math.min(BLOCK_BYTES, Math.max(1, this.source.size)));
    const length = await this.source.readInto(this.scratch, at);
    this.block = this.scratch.subarray(0, length);
    this.blockStart = at;
  }

  /** Byte offset of the next occurrence at or after the current position, or null at the end. */
  async next(): Promise<number | null> {
    const size = this.source.size;
    const needleLength = this.needle.byteLength;
    for (;;) {
      if (this.searchFrom + needleLength > size) {
        this.searchFrom = size;
        return null;
      }
      if (this.searchFrom < this.blockStart || this.searchFrom + needleLength > this.blockEnd) {
        await this.load(this.searchFrom);
      }
      const hit = this.block.indexOf(this.needle, this.searchFrom - this.blockStart);
      if (hit !== -1) {
        const at = this.blockStart + hit;
        this.searchFrom = at + Math.max(1, needleLength);
        return at;
      }
      if (this.blockEnd >= size) {
        this.searchFrom = size;
        return null;
      }
      // A match may still start in the last needleLength-1 bytes and end in the next block.
      this.searchFrom = Math.max(this.searchFrom, this.blockEnd - needleLength + 1);
      await this.load(this.searchFrom);
    }
  }

  /** Moves the search position just past the next "\n" (or to the end). */
  async skipLine(): Promise<void> {
    const size = this.source.size;
    while (this.searchFrom < size) {
      if (this.searchFrom < this.blockStart || this.searchFrom >= this.blockEnd) {
        await this.load(this.searchFrom);
      }
      const newline = this.block.indexOf(10, this.searchFrom - this.blockStart);
      if (newline !== -1) {
        this.searchFrom = this.blockStart + newline + 1;
        return;
      }
      this.searchFrom = this.blockEnd;
    }
  }

  /** Counts the remaining occurrences (each line once when `perLine`). */
  async countRemaining(perLine: boolean): Promise<number> {
    let count = 0;
    while ((await this.next()) !== null) {
      count++;
      if (perLine) await this.skipLine();
    }
    return count;
  }
}

/** Byte offset of the first "\n" at or after `from`, or the payload size when there is none. */
export async function nextNewline(source: BlobSource, from: number): Promise<number> {
  const scanner = new ByteScanner(source, Buffer.from("\n"), from);
  const at = await scanner.next();
  return at ?? source.size;
}

/**
 * What every output store engine does the same way, whatever holds its rows: the checks and
 * errors of the state machine (running → ready | failed), verification, and the cache of parsed
 * line indexes.
 */
import { InvalidArgumentError, StoreCorruptError } from "../core/errors.js";
import { sha256Of } from "./blob-source.js";
import { LineIndex } from "./line-index.js";
import type { OutputStore, ReadScope, VerifyResult } from "./output-store.js";

/** INVALID_ARGUMENT for `complete` or `fail` on an output that is no longer running. */
export function notRunningError(
  id: string,
  toolName: string,
  status: string,
): InvalidArgumentError {
  return new InvalidArgumentError(
    "id",
    `output "${id}" of tool ${toolName} is already ${status}`,
    "the id of a running output (from begin())",
  );
}

/** Checks `fail`'s error text. */
export function checkFailureText(error: unknown): asserts error is string {
  if (typeof error !== "string")
    throw new InvalidArgumentError("error", `got ${typeof error}`, "the tool's error text");
}

/** Checks `countRead`'s count. */
export function checkReadTimes(times: number): void {
  if (!Number.isSafeInteger(times) || times < 1)
    throw new InvalidArgumentError("times", `got ${times}`, "a whole number >= 1");
}

/** Re-hashes an output's stored bytes and compares them with its record. */
export async function verifyStored(
  store: Pick<OutputStore, "open">,
  id: string,
  scope: ReadScope,
): Promise<VerifyResult> {
  const opened = await store.open(id, scope);
  try {
    const actualSha256 = await sha256Of(opened.source);
    return {
      id,
      ok: actualSha256 === opened.record.sha256,
      expectedSha256: opened.record.sha256,
      actualSha256,
      byteSize: opened.source.size,
    };
  } finally {
    await opened.close();
  }
}

/**
 * Parsed line indexes by payload, the newest 64: payloads never change, so positions one read
 * remembers help the next.
 */
export class LineIndexCache {
  private readonly indexes = new Map<string, LineIndex>();

  /** The index of payload `sha256`, parsed from what `load` returns on first use. */
  async get(sha256: string, load: () => Uint8Array | Promise<Uint8Array>): Promise<LineIndex> {
    return this.cached(sha256) ?? this.parse(sha256, await load());
  }

  /** The same, for a caller that already holds the packed bytes. */
  getSync(sha256: string, packed: Uint8Array): LineIndex {
    return this.cached(sha256) ?? this.parse(sha256, packed);
  }

  private cached(sha256: string): LineIndex | undefined {
    return this.indexes.get(sha256);
  }

  private parse(sha256: string, packed: Uint8Array): LineIndex {
    let index: LineIndex;
    try {
      index = new LineIndex(packed);
    } catch (error) {
      throw new StoreCorruptError(
        `The line index of payload ${sha256} is unreadable.`,
        { sha256 },
        error,
      );
    }
    if (this.indexes.size >= 64) this.indexes.delete(this.indexes.keys().next().value!);
    this.indexes.set(sha256, index);
    return index;
  }
}

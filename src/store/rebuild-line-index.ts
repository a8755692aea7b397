/**
 * A text output's line index rebuilt from its stored bytes. Payloads are deduplicated by
 * their bytes, and a payload first stored as binary has no line index; a text output of the
 * same bytes gets one when it is stored (the store fills the empty index in), and a store
 * written before that rule is repaired here, the first time such an output is opened.
 */
import { TextDecoder } from "node:util";
import { StoreCorruptError } from "../core/errors.js";
import type { BlobSource } from "./blob-source.js";
import { CHAR_STRIDE, LineIndexBuilder } from "./line-index.js";

/** True when a stored line index is missing (a binary payload's empty one). */
export function isMissingIndex(packed: Uint8Array | null | undefined): boolean {
  return !packed || packed.byteLength === 0;
}

/**
 * Decodes a payload as UTF-8, block by block (never whole in memory), and returns its packed
 * line index. STORE_CORRUPT when the bytes are not UTF-8: they were never a text output's.
 *
 * @example
 * const packed = await rebuildLineIndex(source, sha256);
 */
export async function rebuildLineIndex(source: BlobSource, sha256: string): Promise<Uint8Array> {
  const builder = new LineIndexBuilder();
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const block = new Uint8Array(CHAR_STRIDE);
  try {
    for (let at = 0; at < source.size; ) {
      const read = await source.readInto(block, at);
      if (read === 0) break;
      at += read;
      const piece = decoder.decode(block.subarray(0, read), { stream: at < source.size });
      builder.push(piece, Buffer.byteLength(piece, "utf8"));
    }
    const rest = decoder.decode();
    builder.push(rest, Buffer.byteLength(rest, "utf8"));
  } catch (cause) {
    throw new StoreCorruptError(
      `Payload ${sha256} is recorded as text but its bytes are not UTF-8, so no line index can be built.`,
      { sha256 },
      cause,
    );
  }
  return builder.finish();
}

/**
 * A text payload's packed line index: the stored one, or, when it is missing, one rebuilt from
 * the bytes and handed to `save` (which writes it only where the stored one is still empty).
 */
export async function storedOrRebuilt(
  stored: Uint8Array | null | undefined,
  source: BlobSource,
  sha256: string,
  save: (packed: Uint8Array) => unknown,
): Promise<Uint8Array> {
  if (stored && !isMissingIndex(stored)) return stored;
  const packed = await rebuildLineIndex(source, sha256);
  await save(packed);
  return packed;
}

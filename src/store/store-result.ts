import type { OutputOrigin, OutputRecord, OutputStore } from "./output-store.js";

/** A tool's raw result: its text and its binary parts (images, blobs). */
export interface ToolResultContent {
  /** Absent when the result is only binary. */
  readonly text?: string;
  readonly binary?: readonly { readonly data: Uint8Array; readonly mediaType: string }[];
}

/** What storing a result made: the output its handle names, and the other binary parts. */
export interface StoredResult {
  readonly record: OutputRecord;
  readonly attachments: OutputRecord[];
  /** Bytes stored, attachments included. */
  readonly storedBytes: number;
}

/**
 * Stores a tool's raw result whole, before anything decides what a model sees: its text
 * (completing `running`, the record begun when the call started, when there is one) and each
 * binary part as an output of its own. The handle holds the text, or else the first binary
 * part; the other parts are attachments.
 *
 * @example
 * const { record, attachments } = await storeToolResult(store, origin, {
 *   text: "caption", binary: [{ data: png, mediaType: "image/png" }],
 * });
 */
export async function storeToolResult(
  outputs: OutputStore,
  origin: OutputOrigin,
  content: ToolResultContent,
  running?: OutputRecord,
): Promise<StoredResult> {
  const parts = [...(content.binary ?? [])];
  // The handle was given out when the call started: it holds the text, or else the first
  // binary part; the other parts are attachments.
  const first = running && content.text === undefined ? parts.shift() : undefined;
  const attachments: OutputRecord[] = [];
  for (const part of parts) {
    attachments.push(
      await outputs.put(origin, part.data, { binary: true, mediaType: part.mediaType }),
    );
  }
  let record: OutputRecord;
  if (running) {
    record = first
      ? await outputs.complete(running.id, first.data, {
          binary: true,
          mediaType: first.mediaType,
        })
      : await outputs.complete(running.id, content.text ?? "");
  } else {
    const hasText = content.text !== undefined || attachments.length === 0;
    record = hasText ? await outputs.put(origin, content.text ?? "") : attachments.shift()!;
  }
  const storedBytes =
    (record.byteSize ?? 0) + attachments.reduce((sum, a) => sum + (a.byteSize ?? 0), 0);
  return { record, attachments, storedBytes };
}

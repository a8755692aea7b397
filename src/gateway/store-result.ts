/**
 * Stores a tool result whole, before anything decides what the client sees: its text (text
 * blocks and embedded text resources, in order), each binary part (images, audio, blobs) as an
 * output of its own, and its `structuredContent` as JSON.
 */
import type { McpCallResult } from "../providers/mcp/index.js";
import { handleReferenceUri } from "../retrieval/handle-reference.js";
import type { OutputOrigin, OutputRecord, OutputStore } from "../store/output-store.js";

/** Strings of structuredContent at least this long that repeat the text are stored by reference. */
const DEDUPE_MIN_CHARS = 64 * 1024;

/** The outputs one result was stored as. */
export interface StoredResult {
  /** The handle: the result's text, or its first binary part when it has no text. */
  readonly primary: OutputRecord;
  /** Binary parts after the first, each its own output. */
  readonly binaries: readonly OutputRecord[];
  /** The structuredContent, as JSON, when the result had one. */
  readonly structured: OutputRecord | null;
  /** Every output in order: primary, binaries, structured. */
  readonly all: readonly OutputRecord[];
  /** Bytes stored in all. */
  readonly bytes: number;
}

/** The text of a result as a model would read it: text blocks, embedded text, link lines. */
export function resultText(result: McpCallResult): string | undefined {
  const texts: string[] = [];
  for (const part of result.content) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "resource" && part.text !== undefined) texts.push(part.text);
    else if (part.type === "resource_link") {
      texts.push(`[resource link: ${part.uri}${part.name ? ` (${part.name})` : ""}]`);
    }
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

function binariesOf(result: McpCallResult): { data: Uint8Array; mediaType: string }[] {
  const parts: { data: Uint8Array; mediaType: string }[] = [];
  for (const part of result.content) {
    if (part.type === "binary") parts.push({ data: part.data, mediaType: part.mediaType });
    else if (part.type === "resource" && part.data !== undefined) {
      parts.push({ data: part.data, mediaType: part.mediaType ?? "application/octet-stream" });
    }
  }
  return parts;
}

/**
 * structuredContent as JSON text. A long string that is exactly the result's text (servers
 * such as server-filesystem send a file's text twice) is written as the handle reference of
 * the text output, which resolves to the same bytes: lossless, and stored once.
 */
export function structuredJson(
  structured: unknown,
  text: string | undefined,
  textOutputId: string | undefined,
): string {
  const replacer =
    text !== undefined && textOutputId !== undefined && text.length >= DEDUPE_MIN_CHARS
      ? (_key: string, value: unknown) =>
          typeof value === "string" && value.length === text.length && value === text
            ? handleReferenceUri(textOutputId)
            : value
      : undefined;
  return JSON.stringify(structured, replacer, 2);
}

/**
 * Stores every part of a tool result in `outputs`, in the order the client would read them.
 *
 * @example
 * const stored = await storeResult(store, { sessionId, toolName: "read_text_file", toolArgs }, result);
 * stored.primary.id; // the handle
 */
export async function storeResult(
  outputs: OutputStore,
  origin: OutputOrigin,
  result: McpCallResult,
): Promise<StoredResult> {
  const text = resultText(result);
  const binaries = binariesOf(result);
  const stored: OutputRecord[] = [];
  // No content blocks at all: the structuredContent is the result (or it is empty).
  const structuredAlone =
    text === undefined && binaries.length === 0 && result.structured !== undefined;
  let primary: OutputRecord;
  if (text !== undefined || binaries.length === 0) {
    primary = await outputs.put(
      origin,
      structuredAlone ? JSON.stringify(result.structured, null, 2) : (text ?? ""),
    );
    stored.push(primary);
  } else {
    const first = binaries.shift()!;
    primary = await outputs.put(origin, first.data, { binary: true, mediaType: first.mediaType });
    stored.push(primary);
  }
  const others: OutputRecord[] = [];
  for (const part of binaries) {
    others.push(await outputs.put(origin, part.data, { binary: true, mediaType: part.mediaType }));
  }
  stored.push(...others);
  let structured: OutputRecord | null = null;
  if (result.structured !== undefined && !structuredAlone) {
    const json = structuredJson(
      result.structured,
      text,
      text === undefined ? undefined : primary.id,
    );
    structured = await outputs.put(origin, json);
    stored.push(structured);
  }
  const bytes = stored.reduce((sum, record) => sum + (record.byteSize ?? 0), 0);
  return { primary, binaries: others, structured, all: stored, bytes };
}

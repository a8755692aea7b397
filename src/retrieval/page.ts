import { InvalidArgumentError } from "../core/errors.js";
import { DEFAULT_TOKENIZER, loadTokenizer, type TokenizerName } from "../core/tokens.js";
import { advance } from "../store/line-index.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextRange } from "../store/text-reader.js";
import { intArg, textReaderOf } from "./common.js";
import {
  type BinaryProvenance,
  binaryProvenanceOf,
  type Provenance,
  provenanceOf,
} from "./provenance.js";
import { checkRequest, pageRequestSchema } from "./request-schemas.js";

export const DEFAULT_PAGE_CHARS = 16_000;
/** A page ends at a line end when one falls within this last fraction of the page. */
const LINE_END_ZONE = 0.2;

export interface PageRequest {
  /** Character offset where the page starts: 0, or a previous page's `nextCursor`. */
  readonly cursor?: number;
  /** Page budget in characters (default 16000). */
  readonly maxChars?: number;
  /** Page budget in tokens (exact count with `tokenizer`); takes precedence over maxChars. */
  readonly maxTokens?: number;
  readonly tokenizer?: TokenizerName;
}

export type PageResult =
  | {
      readonly mode: "page";
      readonly encoding: "utf-8";
      readonly text: string;
      readonly provenance: Provenance;
      readonly cursor: number;
      /** Where the next page starts; null on the last page. */
      readonly nextCursor: number | null;
      /** Exact tokens of this page, when the budget was in tokens. */
      readonly tokens?: number;
    }
  | {
      readonly mode: "page";
      readonly encoding: "base64";
      readonly text: string;
      readonly provenance: BinaryProvenance;
      readonly cursor: number;
      readonly nextCursor: number | null;
    };

/** Shortens a page to end just after a line end near its end, when there is one. */
function preferLineEnd(text: string, atOutputEnd: boolean): string {
  if (atOutputEnd || text.length === 0) return text;
  const newline = text.lastIndexOf("\n");
  if (newline !== -1 && newline + 1 >= text.length * (1 - LINE_END_ZONE))
    return text.slice(0, newline + 1);
  return text;
}

/**
 * Reads an output page by page within a budget of characters or tokens. Following
 * `nextCursor` from cursor 0 until it is null returns every character exactly once:
 * the pages concatenate to the stored output (same SHA-256). Pages end at a line end when
 * one is near, and never inside a surrogate pair.
 *
 * @example
 * let cursor: number | null = 0;
 * while (cursor !== null) {
 *   const page = await readPage(opened, { cursor, maxTokens: 4000 });
 *   consume(page.text);
 *   cursor = page.nextCursor;
 * }
 */
export async function readPage(
  output: OpenedOutput,
  unchecked: PageRequest = {},
): Promise<PageResult> {
  const request = checkRequest(pageRequestSchema, unchecked);
  const { record } = output;
  if (record.kind === "binary") return binaryPage(output, request);
  const total = record.charCount ?? 0;
  const cursor = intArg("cursor", request.cursor, 0, 0, total, record.id);
  const maxChars = intArg("maxChars", request.maxChars, DEFAULT_PAGE_CHARS, 1);
  const reader = textReaderOf(output, "page");

  if (request.maxTokens === undefined) {
    const range = await reader.readChars(cursor, Math.min(total, cursor + maxChars));
    return finishPage(output, range, cursor, undefined);
  }

  const maxTokens = intArg("maxTokens", request.maxTokens, 0, 1);
  const tokenizer = await loadTokenizer(request.tokenizer ?? DEFAULT_TOKENIZER);
  // First guess from the output's own chars-per-token ratio, then correct by exact counts.
  const ratio = record.tokenEstimate ? total / record.tokenEstimate : 4;
  let chars = Math.max(1, Math.floor(maxTokens * ratio * 0.95));
  let range = await reader.readChars(cursor, Math.min(total, cursor + chars));
  let tokens = tokenizer.count(range.text);
  for (let attempt = 0; attempt < 8 && tokens > maxTokens; attempt++) {
    chars = Math.max(1, Math.floor(range.text.length * (maxTokens / tokens) * 0.95));
    range = await reader.readChars(cursor, Math.min(total, cursor + chars));
    tokens = tokenizer.count(range.text);
  }
  while (tokens > maxTokens && range.text.length > 1) {
    range = await reader.readChars(cursor, cursor + Math.floor(range.text.length / 2));
    tokens = tokenizer.count(range.text);
  }
  return finishPage(output, range, cursor, tokenizer.count);
}

function finishPage(
  output: OpenedOutput,
  range: TextRange,
  cursor: number,
  count: ((text: string) => number) | undefined,
): PageResult {
  const total = output.record.charCount ?? 0;
  const text = preferLineEnd(range.text, range.end.char >= total);
  const final: TextRange =
    text.length === range.text.length
      ? range
      : { text, start: range.start, end: advance(range.start, text) };
  // Remember where this page really ended, so the next page starts decoding right there.
  output.index?.remember(final.end);
  const nextCursor = final.end.char >= total ? null : final.end.char;
  return {
    mode: "page",
    encoding: "utf-8",
    text: final.text,
    provenance: provenanceOf(output, final),
    cursor,
    nextCursor,
    ...(count ? { tokens: count(final.text) } : {}),
  };
}

async function binaryPage(output: OpenedOutput, request: PageRequest): Promise<PageResult> {
  if (request.maxTokens !== undefined) {
    throw new InvalidArgumentError(
      "maxTokens",
      "does not apply to a binary output",
      "maxChars (base64 characters)",
    );
  }
  const size = output.source.size;
  const cursor = intArg("cursor", request.cursor, 0, 0, size, output.record.id);
  const maxChars = intArg("maxChars", request.maxChars, DEFAULT_PAGE_CHARS, 4);
  const bytes = await output.source.read(cursor, Math.floor(maxChars / 4) * 3);
  const end = cursor + bytes.byteLength;
  return {
    mode: "page",
    encoding: "base64",
    text: Buffer.from(bytes).toString("base64"),
    provenance: binaryProvenanceOf(output, cursor, end),
    cursor,
    nextCursor: end >= size ? null : end,
  };
}

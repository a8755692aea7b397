import { ByteScanner } from "../retrieval/byte-search.js";
import { advance, type TextPosition } from "../store/line-index.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextReader } from "../store/text-reader.js";

/** A quote proved verbatim in the stored output, with where it is (provenance, D3-12). */
export interface Snippet {
  readonly text: string;
  /** Character range [charStart, charEnd) in the whole output (UTF-16 code units). */
  readonly charStart: number;
  readonly charEnd: number;
  readonly byteStart: number;
  readonly byteEnd: number;
  /** 1-based lines. */
  readonly lineStart: number;
  readonly lineEnd: number;
  /** The chunk whose answer gave it (null: the reduce step or the read-grep agent). */
  readonly chunkIndex: number | null;
  /** True when the model's quote was found elsewhere than where it said it came from. */
  readonly relocated: boolean;
}

export interface VerifiedQuotes {
  readonly snippets: Snippet[];
  /**
   * Quotes dropped: not found verbatim in the output, shorter than MIN_QUOTE_CHARS, or found in
   * more than one place (they pin nothing).
   */
  readonly unverified: number;
}

/**
 * Quotes shorter than this (without surrounding spaces) pin nothing: `INFO`, `}`, `200 OK`
 * (SW-22). A verified quote is also unique in the output: found once, it pins one place.
 */
export const MIN_QUOTE_CHARS = 12;

function snippetAt(
  start: TextPosition,
  text: string,
  chunkIndex: number | null,
  relocated: boolean,
): Snippet {
  const end = advance(start, text);
  return {
    text,
    charStart: start.char,
    charEnd: end.char,
    byteStart: start.byte,
    byteEnd: end.byte,
    lineStart: start.line + 1,
    lineEnd: end.atLineStart ? end.line : end.line + 1,
    chunkIndex,
    relocated,
  };
}

/**
 * Verifies each quote against the stored output (SW-22). A quote verifies when it is at least
 * MIN_QUOTE_CHARS long and occurs exactly once in the whole output: found in the chunk it came
 * from, it keeps that place; found elsewhere, it is relocated there. A quote found nowhere (a
 * hallucination, a paraphrase), too short, or found in several places (it pins nothing) is
 * dropped and counted.
 */
export async function verifyQuotes(
  quotes: readonly string[],
  output: OpenedOutput,
  reader: TextReader,
  chunk?: { readonly index: number; readonly text: string; readonly start: TextPosition },
): Promise<VerifiedQuotes> {
  const snippets: Snippet[] = [];
  let unverified = 0;
  for (const raw of quotes) {
    const quote = raw.trimEnd();
    if (quote.trim().length < MIN_QUOTE_CHARS) {
      unverified++;
      continue;
    }
    const scanner = new ByteScanner(output.source, Buffer.from(quote, "utf8"));
    const byte = await scanner.next();
    if (byte === null || (await scanner.next()) !== null) {
      unverified++;
      continue;
    }
    const inChunk = chunk ? chunk.text.indexOf(quote) : -1;
    if (chunk && inChunk !== -1) {
      snippets.push(
        snippetAt(advance(chunk.start, chunk.text.slice(0, inChunk)), quote, chunk.index, false),
      );
      continue;
    }
    snippets.push(
      snippetAt(
        await reader.positionAtByte(byte),
        quote,
        chunk?.index ?? null,
        chunk !== undefined,
      ),
    );
  }
  return { snippets, unverified };
}

/** Snippets in output order, each place once. */
export function mergeSnippets(...lists: readonly Snippet[][]): Snippet[] {
  const seen = new Map<string, Snippet>();
  for (const list of lists) {
    for (const snippet of list) {
      const key = `${snippet.charStart}:${snippet.charEnd}`;
      if (!seen.has(key)) seen.set(key, snippet);
    }
  }
  return [...seen.values()].sort((a, b) => a.charStart - b.charStart || a.charEnd - b.charEnd);
}

/**
 * Why an answer without a verified quote is not reported as found: what the model quoted did not
 * pin its answer to the output. The unverified answer itself is not shown (the agent would relay it).
 */
export function unverifiedReason(dropped: number): string {
  return (
    "The extraction model gave an answer, but none of its quotes could be verified: " +
    (dropped === 0
      ? "it quoted nothing."
      : `${dropped} quote${dropped === 1 ? " was" : "s were"} not found verbatim, too short (under ${MIN_QUOTE_CHARS} characters) or found in several places.`) +
    " An unverified answer is not reported; read the output with grep or slice to check."
  );
}

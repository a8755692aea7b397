import { ByteScanner } from "../retrieval/byte-search.js";
import { advance, type TextPosition } from "../store/line-index.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextReader } from "../store/text-reader.js";

/** A quote proved verbatim in the stored output, with where it is (seed 003 provenance). */
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
  /** Quotes not found verbatim anywhere in the output: dropped. */
  readonly unverified: number;
}

/** Quotes shorter than this prove nothing and are not kept. */
const MIN_QUOTE_CHARS = 4;

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
 * Verifies each quote against the stored output: found verbatim in the chunk it came from, it
 * keeps that place; found elsewhere in the output, it is relocated there; found nowhere (a
 * hallucination, or a paraphrase), it is dropped and counted.
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
    if (chunk) {
      const at = chunk.text.indexOf(quote);
      if (at !== -1) {
        snippets.push(
          snippetAt(advance(chunk.start, chunk.text.slice(0, at)), quote, chunk.index, false),
        );
        continue;
      }
    }
    const byte = await new ByteScanner(output.source, Buffer.from(quote, "utf8")).next();
    if (byte === null) {
      unverified++;
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

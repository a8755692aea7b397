/**
 * The reading half of search: streams one stored output and adds the lines that hold a
 * query's terms to a {@link SearchCorpus}, reading each byte once and decoding little.
 *
 * The output is read in chunks of whole lines (4 MiB). Each chunk is lower-cased (ASCII
 * letters) in one pass that also says whether it is all ASCII. A chunk that is ASCII, or whose
 * other characters are already folded ({@link foldStable}: CJK, lower-case accented letters),
 * is searched on its bytes ({@link scanByteChunk}); any other chunk is decoded and folded whole
 * ({@link scanTextChunk}). A line longer than a chunk is searched in windows of about 4 MiB,
 * cut between words where one is near; each window counts as a document of its own.
 */
import type { OpenedOutput } from "../store/output-store.js";
import { type ChunkLowerer, createChunkLowerer } from "./ascii-lower.js";
import { foldStable } from "./fold-stable.js";
import { scanByteChunk } from "./search-ascii.js";
import type { SearchCorpus } from "./search-corpus.js";
import { type DocumentPlace, type ScanTerms, scanTextChunk } from "./search-text.js";

/** Bytes read at a time; a line longer than this is searched in windows. */
export const SEARCH_CHUNK_BYTES = 4 * 1024 * 1024;
/** How far back from a window's end a cut between words is looked for. */
const WORD_CUT_BYTES = 64 * 1024;
const NEWLINE = 10;

/** How one output's scan ended. */
export interface ScanOutcome {
  /** Bytes searched from the start; less than the output's size when the deadline came first. */
  readonly searchedBytes: number;
  /** True when the deadline stopped the scan. */
  readonly timedOut: boolean;
  /** True when a line longer than a chunk was searched in windows. */
  readonly windowed: boolean;
}

/** Searches `length` bytes read into the lowerer's input (whole lines, or one window). */
function scanChunk(
  lowerer: ChunkLowerer,
  length: number,
  terms: ScanTerms,
  place: DocumentPlace,
  corpus: SearchCorpus,
): void {
  const chunk = lowerer.input.subarray(0, length);
  const { lowered, ascii } = lowerer.lower(length);
  if (ascii || foldStable(chunk)) scanByteChunk(chunk, lowered, ascii, terms, place, corpus);
  else scanTextChunk(chunk, place, corpus, terms);
}

/** Where to end a window of a long line: after the last ASCII non-word byte, else a character boundary. */
function windowCut(window: Buffer): number {
  const floor = Math.max(0, window.byteLength - WORD_CUT_BYTES);
  for (let at = window.byteLength - 1; at >= floor; at--) {
    const byte = window[at]!;
    const word =
      (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122);
    if (byte < 0x80 && !word) return at + 1;
  }
  // No separator near the end: cut before the last character's first byte.
  let at = window.byteLength - 1;
  while (at > 0 && (window[at]! & 0xc0) === 0x80) at--;
  return at > 0 ? at : window.byteLength;
}

/**
 * Searches the line starting at byte `from` that is longer than a chunk, window by window;
 * returns where the next line starts, or -1 when the deadline came first (`stopped.at` then
 * says how far it got). Each window is a document; all but the first are extra ones.
 */
async function scanLongLine(
  output: OpenedOutput,
  lowerer: ChunkLowerer,
  from: number,
  terms: ScanTerms,
  source: number,
  corpus: SearchCorpus,
  deadline: number,
  stopped: { at: number },
): Promise<number> {
  const size = output.source.size;
  let at = from;
  for (let first = true; ; first = false) {
    if (Date.now() > deadline) {
      stopped.at = at;
      return -1;
    }
    const read = lowerer.input.subarray(0, await output.source.readInto(lowerer.input, at));
    const newline = read.indexOf(NEWLINE);
    const last = newline !== -1 || at + read.byteLength >= size;
    const length = last ? (newline === -1 ? read.byteLength : newline) : windowCut(read);
    if (!first) corpus.documents++;
    scanChunk(lowerer, length, terms, { source, byteStart: at, window: true }, corpus);
    at += length;
    if (last) return newline === -1 ? at : at + 1;
  }
}

/**
 * Streams output `source` of a search into `corpus` until its end or the deadline. The caller
 * adds the output's lines and characters to the corpus totals (the store knows them).
 */
export async function scanOutput(
  output: OpenedOutput,
  source: number,
  corpus: SearchCorpus,
  terms: ScanTerms,
  deadline: number,
): Promise<ScanOutcome> {
  const size = output.source.size;
  const lowerer = createChunkLowerer(Math.max(1, Math.min(SEARCH_CHUNK_BYTES, size)));
  let at = 0;
  let windowed = false;
  while (at < size) {
    if (Date.now() > deadline) return { searchedBytes: at, timedOut: true, windowed };
    const read = lowerer.input.subarray(0, await output.source.readInto(lowerer.input, at));
    const atEnd = at + read.byteLength >= size;
    const end = atEnd ? read.byteLength : read.lastIndexOf(NEWLINE) + 1;
    if (end === 0) {
      windowed = true;
      const stopped = { at };
      const next = await scanLongLine(
        output,
        lowerer,
        at,
        terms,
        source,
        corpus,
        deadline,
        stopped,
      );
      if (next === -1) return { searchedBytes: stopped.at, timedOut: true, windowed };
      at = next;
      continue;
    }
    scanChunk(lowerer, end, terms, { source, byteStart: at, window: false }, corpus);
    at += end;
  }
  return { searchedBytes: at, timedOut: false, windowed };
}

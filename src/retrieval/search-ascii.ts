/**
 * Search on bytes, for chunks whose folded text is their own text up to ASCII case (all ASCII,
 * or {@link foldStable}): every occurrence of each term is found in the lower-cased bytes, kept
 * when it is a whole word by the rules of {@link termsOf} (checked on the original bytes,
 * whose case marks camelCase parts), and counted per line. An ASCII line is counted on its
 * bytes, with nothing decoded or allocated; a line with other characters is decoded alone.
 */
import { isAscii } from "node:buffer";
import type { DocumentAt, SearchCorpus } from "./search-corpus.js";
import { addText, type ScanTerms } from "./search-text.js";

const OTHER = 0;
const DIGIT = 1;
const UPPER = 2;
const LOWER = 3;
/** The class of each byte: digit, upper-case or lower-case ASCII letter, or other. */
const CLASS = new Uint8Array(256);
for (let b = 48; b <= 57; b++) CLASS[b] = DIGIT;
for (let b = 65; b <= 90; b++) CLASS[b] = UPPER;
for (let b = 97; b <= 122; b++) CLASS[b] = LOWER;

const NEWLINE = 10;
const CR = 13;
/** Hits are sorted as position * TERM_SLOTS + term. */
const TERM_SLOTS = 64;

/** True when a camelCase word splits before byte `k` (aB, or ABc / 2Bc before the B). */
function camelBoundary(bytes: Uint8Array, k: number, end: number): boolean {
  const before = CLASS[bytes[k - 1]!]!;
  if (CLASS[bytes[k]!] !== UPPER) return false;
  if (before === LOWER) return true;
  return (before === UPPER || before === DIGIT) && k + 1 < end && CLASS[bytes[k + 1]!] === LOWER;
}

/** True when a letter and a digit meet before byte `k` (`14T09`: before T, before 0). */
function digitBoundary(bytes: Uint8Array, k: number): boolean {
  const before = CLASS[bytes[k - 1]!]!;
  const here = CLASS[bytes[k]!]!;
  return (before === DIGIT) !== (here === DIGIT) && before !== OTHER && here !== OTHER;
}

/**
 * True when bytes [at, at + length) of an ASCII line ending at `end` are one term, as
 * {@link termsOf} cuts words: a whole word, one camelCase part of a word, or a number of two
 * digits or more glued to letters inside such a part; never two parts together.
 */
export function isAsciiTerm(bytes: Uint8Array, at: number, length: number, end: number): boolean {
  const stop = at + length;
  const wordStart = at === 0 || CLASS[bytes[at - 1]!] === OTHER;
  const wordEnd = stop >= end || CLASS[bytes[stop]!] === OTHER;
  if (wordStart && wordEnd) return true;
  // A camelCase boundary needs both cases next to it, so a word that has one has both.
  for (let k = at + 1; k < stop; k++) if (camelBoundary(bytes, k, end)) return false;
  const partStart = wordStart || camelBoundary(bytes, at, end);
  const partEnd = wordEnd || camelBoundary(bytes, stop, end);
  if (partStart && partEnd) return true;
  // A number glued to letters: all digits, its edges part edges or letters.
  if (length < 2) return false;
  for (let k = at; k < stop; k++) if (CLASS[bytes[k]!] !== DIGIT) return false;
  if (!partStart && !digitBoundary(bytes, at)) return false;
  return partEnd || digitBoundary(bytes, stop);
}

/** Every occurrence of the terms, sorted by position (then term): position * 64 + term. */
function hitsOf(lowered: Buffer, needles: readonly (Buffer | null)[]): Float64Array {
  const found: number[] = [];
  needles.forEach((needle, term) => {
    if (needle === null) return;
    for (let at = lowered.indexOf(needle); at !== -1; at = lowered.indexOf(needle, at + 1))
      found.push(at * TERM_SLOTS + term);
  });
  return Float64Array.from(found).sort();
}

/** UTF-16 code units of the UTF-8 bytes [from, to): one per character, two past U+FFFF. */
function utf16Length(bytes: Uint8Array, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** The line being counted. */
interface OpenLine {
  start: number;
  /** Where its text ends (before "\r\n" or "\n"). */
  stop: number;
  /** Its "\n", or the chunk's end. */
  end: number;
  ascii: boolean;
  focus: number;
  found: boolean;
}

/**
 * Adds the lines of a chunk of whole lines (or a window of one long line) that hold a term.
 * `chunk` is the original bytes, `lowered` the same with ASCII letters in lower case; `ascii`
 * says the whole chunk is ASCII (else each line is looked at).
 */
export function scanByteChunk(
  chunk: Buffer,
  lowered: Buffer,
  ascii: boolean,
  terms: ScanTerms,
  place: DocumentAt,
  corpus: SearchCorpus,
): void {
  const needles = ascii ? terms.asciiBytes : terms.bytes;
  const hits = hitsOf(lowered, needles);
  if (hits.length === 0) return;
  const counts = terms.counts;
  const size = chunk.byteLength;
  const line: OpenLine = { start: 0, stop: 0, end: -1, ascii: true, focus: 0, found: false };
  // With CJK terms only, a line's hits are its counts (pairs of folded text), so a line with
  // other characters is counted on its bytes too; a word needs its boundaries: decoded.
  const decodeOthers = terms.words;
  const close = () => {
    const at = {
      source: place.source,
      byteStart: place.byteStart + line.start,
      window: place.window,
    };
    if (!line.ascii && decodeOthers) {
      addText(corpus, terms, chunk.toString("utf8", line.start, line.stop), at);
    } else if (line.found && line.ascii) {
      corpus.add(at, line.stop - line.start, line.focus - line.start, counts);
    } else if (line.found) {
      const focus = utf16Length(chunk, line.start, line.focus);
      corpus.add(at, utf16Length(chunk, line.start, line.stop), focus, counts);
    }
  };
  for (const hit of hits) {
    const at = Math.floor(hit / TERM_SLOTS);
    const term = hit - at * TERM_SLOTS;
    if (at > line.end) {
      if (line.end !== -1) close();
      let start = at;
      while (start > line.end + 1 && chunk[start - 1] !== NEWLINE) start--;
      let end = at;
      while (end < size && chunk[end] !== NEWLINE) end++;
      line.start = start;
      line.end = end;
      line.stop = end > start && chunk[end - 1] === CR ? end - 1 : end;
      line.ascii = ascii || isAscii(chunk.subarray(start, line.stop));
      line.found = false;
      counts.fill(0);
    }
    const length = needles[term]!.byteLength;
    if (at + length > line.stop) continue;
    if (line.ascii ? !isAsciiTerm(chunk, at, length, line.stop) : decodeOthers) continue;
    if (!line.found) line.focus = at;
    line.found = true;
    counts[term]!++;
  }
  close();
}

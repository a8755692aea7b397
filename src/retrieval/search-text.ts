/**
 * Search over decoded text: the terms of a search in the forms the scanner looks for, how the
 * terms of a decoded line are counted, and the path for a chunk whose characters change when
 * folded (upper-case letters beyond ASCII, compatibility forms, combining marks): decoded and
 * folded whole, then each line where a term occurs is counted.
 */
import type { SearchCorpus } from "./search-corpus.js";
import { foldText, isAsciiText, isCjkTerm, termsOf } from "./search-terms.js";

/** The terms of one search, in the forms the scanner looks for. */
export class ScanTerms {
  readonly index = new Map<string, number>();
  /** UTF-8 bytes of each term (folded: lower case), as looked for in lower-cased bytes. */
  readonly bytes: Buffer[];
  /** The same, null for terms that are not ASCII (never in an ASCII chunk). */
  readonly asciiBytes: (Buffer | null)[];
  /** Terms counted as substrings of folded text (CJK characters and pairs). */
  readonly cjk: number[] = [];
  /** True when some term is not CJK (then decoded lines are cut into words). */
  readonly words: boolean;
  /** Scratch: the counts of the document being looked at, one slot per term. */
  readonly counts: Uint32Array;

  constructor(readonly terms: readonly string[]) {
    terms.forEach((term, i) => {
      this.index.set(term, i);
      if (isCjkTerm(term)) this.cjk.push(i);
    });
    this.bytes = terms.map((term) => Buffer.from(term, "utf8"));
    this.asciiBytes = terms.map((term, i) => (isAsciiText(term) ? this.bytes[i]! : null));
    this.words = this.cjk.length < terms.length;
    this.counts = new Uint32Array(terms.length);
  }
}

/** Where a document starts and whether it is a window of a longer line. */
export interface DocumentPlace {
  readonly source: number;
  readonly byteStart: number;
  readonly window: boolean;
}

/** Occurrences of `needle` in `text`, overlapping ones included (CJK pairs overlap). */
function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count++;
  return count;
}

/**
 * Counts the terms of decoded text into `terms.counts`; returns where the first one is (an
 * offset in the folded text, close to the original's), or -1 when it holds none. CJK terms are
 * substrings of the folded text, which is what its character pairs are; the other terms are
 * found by cutting the rest into words.
 */
export function countText(terms: ScanTerms, text: string): number {
  const counts = terms.counts;
  counts.fill(0);
  const folded = isAsciiText(text) ? text.toLowerCase() : foldText(text);
  for (const t of terms.cjk) counts[t] = occurrences(folded, terms.terms[t]!);
  if (terms.words) {
    for (const term of termsOf(text, { cjk: false })) {
      const at = terms.index.get(term);
      if (at !== undefined) counts[at]!++;
    }
  }
  let focus = -1;
  counts.forEach((count, t) => {
    const at = count > 0 ? folded.indexOf(terms.terms[t]!) : -1;
    if (at !== -1 && (focus === -1 || at < focus)) focus = at;
  });
  return focus === -1 && counts.some((count) => count > 0) ? 0 : focus;
}

/** Adds decoded text (a line, or a window of a long one) to the corpus when it holds a term. */
export function addText(
  corpus: SearchCorpus,
  terms: ScanTerms,
  text: string,
  place: DocumentPlace,
): void {
  const focus = countText(terms, text);
  if (focus === -1) return;
  // Folding can change lengths (ligatures): the focus only places the excerpt, so clamp it.
  corpus.add({ ...place, chars: text.length, focus: Math.min(focus, text.length) }, terms.counts);
}

/** The line [start, end) of `text` without a "\r" ending it. */
export function lineText(text: string, start: number, end: number): string {
  return end > start && text.charCodeAt(end - 1) === 13
    ? text.slice(start, end - 1)
    : text.slice(start, end);
}

/** Line numbers (0-based, within `text`) of the lines holding any of `needles`, sorted. */
function candidateLines(text: string, needles: readonly string[]): number[] {
  const starts = new Set<number>();
  for (const needle of needles) {
    for (let at = text.indexOf(needle); at !== -1; ) {
      starts.add(at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1);
      const end = text.indexOf("\n", at);
      if (end === -1) break;
      at = text.indexOf(needle, end + 1);
    }
  }
  if (starts.size === 0) return [];
  // Folding keeps every "\n" (no character folds into one), so line k of the folded text is
  // line k of the original.
  const lines: number[] = [];
  let line = 0;
  let at = 0;
  for (const start of [...starts].sort((a, b) => a - b)) {
    for (let next = text.indexOf("\n", at); next !== -1 && next < start; ) {
      line++;
      at = next + 1;
      next = text.indexOf("\n", at);
    }
    lines.push(line);
  }
  return lines;
}

/** Every offset `find` gives, from 0 on: the newlines of a string or of bytes. */
function offsetsOf(find: (from: number) => number): number[] {
  const offsets: number[] = [];
  for (let at = find(0); at !== -1; at = find(at + 1)) offsets.push(at);
  return offsets;
}

/**
 * Searches a chunk of whole lines as decoded, folded text (the exact path for any text).
 * Each candidate line is found again in the original text and bytes by its number.
 */
export function scanTextChunk(
  chunk: Buffer,
  place: DocumentPlace,
  corpus: SearchCorpus,
  terms: ScanTerms,
): void {
  const text = chunk.toString("utf8");
  const lines = candidateLines(foldText(text), terms.terms);
  if (lines.length === 0) return;
  const charEnds = offsetsOf((from) => text.indexOf("\n", from));
  const byteEnds = offsetsOf((from) => chunk.indexOf(10, from));
  for (const line of lines) {
    const from = line === 0 ? 0 : charEnds[line - 1]! + 1;
    const to = line < charEnds.length ? charEnds[line]! : text.length;
    const byteStart = place.byteStart + (line === 0 ? 0 : byteEnds[line - 1]! + 1);
    addText(corpus, terms, lineText(text, from, to), { ...place, byteStart });
  }
}

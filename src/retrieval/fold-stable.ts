/**
 * Whether the words of a chunk of UTF-8 text are already folded, judged from its bytes
 * without decoding it.
 *
 * Search compares folded text (NFKC, lower case). A chunk can be searched on its bytes (with
 * ASCII letters lower-cased) when folding would change none of its letters, digits or marks:
 * no character of it folds into another letter or digit (full-width `Ｂ`, `ﬁ`, `É`, `㎏`) and
 * none can combine with or reorder against its neighbour (combining marks, Hangul jamo).
 * Characters that fold into punctuation or spaces (full-width `，`, the ideographic space)
 * separate words either way and do not count. Chinese, Japanese, Korean and lower-case
 * accented text is then searched as fast as ASCII; any other chunk is decoded and folded whole.
 *
 * Each code point is judged the first time it is seen; the judgements (one byte per code
 * point, 1.1 MB) are kept for the process and shared by every search.
 */
import { foldText } from "./search-terms.js";

const UNKNOWN = 0;
export const STABLE = 1;
const CHANGES = 2;
const CODE_POINTS = 0x110000;
let judged: Uint8Array | undefined;

const WORD_CHARACTER = /[\p{L}\p{M}\p{N}]/u;
/** Marks that never combine or reorder: variation selectors and enclosing marks. */
const INERT_MARK = /[\ufe00-\ufe0f\u180b-\u180f\u{e0100}-\u{e01ef}\p{Me}]/u;
const MARK = /\p{M}/u;

/** True when folding `cp` gives other letters or digits, or `cp` can combine with its neighbours. */
function unstable(cp: number): boolean {
  // Conjoining Hangul jamo compose into syllables (Hangul Jamo and its extensions).
  if ((cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0xa960 && cp <= 0xa97f)) return true;
  if (cp >= 0xd7b0 && cp <= 0xd7ff) return true;
  const char = String.fromCodePoint(cp);
  if (MARK.test(char) && !INERT_MARK.test(char)) return true;
  const folded = foldText(char);
  return folded !== char && WORD_CHARACTER.test(folded);
}

/** The judgements so far, by code point: 0 not judged yet, 1 stable, 2 changes. */
export function stableTable(): Uint8Array {
  judged ??= new Uint8Array(CODE_POINTS);
  return judged;
}

/** Judges one code point (once; later calls read the table): STABLE or not. */
export function judgeCodePoint(cp: number): number {
  const table = stableTable();
  let verdict = table[cp]!;
  if (verdict === UNKNOWN) {
    verdict = unstable(cp) ? CHANGES : STABLE;
    table[cp] = verdict;
  }
  return verdict;
}

/**
 * True when folding would change no word of `bytes` (valid UTF-8) beyond ASCII case, so its
 * lower-cased bytes hold every folded term it holds. (The JavaScript pass; the WebAssembly one
 * in src/retrieval/chunk-lowerer.ts gives the same answers.)
 *
 * @example
 * foldStable(Buffer.from("起動マーカーは BOOT-7 です，🚀")) // true
 * foldStable(Buffer.from("ＢＯＯＴ")) // false (full-width letters fold to ASCII)
 */
export function foldStable(bytes: Uint8Array): boolean {
  const table = stableTable();
  const length = bytes.byteLength;
  for (let i = 0; i < length; ) {
    const first = bytes[i]!;
    if (first < 0x80) {
      i++;
      continue;
    }
    const cp = codePointAt(bytes, i);
    i += first < 0xe0 ? 2 : first < 0xf0 ? 3 : 4;
    if (table[cp] !== STABLE && judgeCodePoint(cp) !== STABLE) return false;
  }
  return true;
}

/** The code point whose UTF-8 starts at `at` (a lead byte, 0xc0 or above). */
export function codePointAt(bytes: Uint8Array, at: number): number {
  const first = bytes[at]!;
  if (first < 0xe0) return ((first & 0x1f) << 6) | (bytes[at + 1]! & 0x3f);
  if (first < 0xf0)
    return ((first & 0x0f) << 12) | ((bytes[at + 1]! & 0x3f) << 6) | (bytes[at + 2]! & 0x3f);
  return (
    ((first & 0x07) << 18) |
    ((bytes[at + 1]! & 0x3f) << 12) |
    ((bytes[at + 2]! & 0x3f) << 6) |
    (bytes[at + 3]! & 0x3f)
  );
}

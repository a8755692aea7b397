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
 * Each code point is judged the first time it is seen (one table of 1.1 MB for all of them).
 */
import { foldText } from "./search-terms.js";

const UNKNOWN = 0;
const STABLE = 1;
const CHANGES = 2;
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

/**
 * True when folding would change no word of `bytes` (valid UTF-8) beyond ASCII case, so its
 * lower-cased bytes hold every folded term it holds.
 *
 * @example
 * foldStable(Buffer.from("起動マーカーは BOOT-7 です，🚀")) // true
 * foldStable(Buffer.from("ＢＯＯＴ")) // false (full-width letters fold to ASCII)
 */
export function foldStable(bytes: Uint8Array): boolean {
  judged ??= new Uint8Array(0x110000);
  const table = judged;
  const length = bytes.byteLength;
  let i = 0;
  while (i < length) {
    const first = bytes[i]!;
    if (first < 0x80) {
      i++;
      continue;
    }
    let cp: number;
    if (first < 0xe0) {
      cp = ((first & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
      i += 2;
    } else if (first < 0xf0) {
      cp = ((first & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
      i += 3;
    } else {
      cp =
        ((first & 0x07) << 18) |
        ((bytes[i + 1]! & 0x3f) << 12) |
        ((bytes[i + 2]! & 0x3f) << 6) |
        (bytes[i + 3]! & 0x3f);
      i += 4;
    }
    let verdict = table[cp]!;
    if (verdict === UNKNOWN) {
      verdict = unstable(cp) ? CHANGES : STABLE;
      table[cp] = verdict;
    }
    if (verdict === CHANGES) return false;
  }
  return true;
}

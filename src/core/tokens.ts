/**
 * Token counting and estimation.
 *
 * Exact counts use `gpt-tokenizer` (BPE encodings of OpenAI models). Estimates for large
 * outputs tokenize evenly spaced samples of the text and extrapolate the measured
 * tokens-per-character ratio to the whole output: this adapts to the kind of content (JSON,
 * CJK, code) where a fixed chars/4 rule is off by up to 75%. See docs/token-estimation.md for
 * measured error.
 */

/** BPE encodings spillway can count with. */
export type TokenizerName = "o200k_base" | "cl100k_base";

/** The tokenizer token counts use when none is named (OpenAI's o200k_base). */
export const DEFAULT_TOKENIZER: TokenizerName = "o200k_base";

/** Counts tokens of a string exactly. */
export interface Tokenizer {
  readonly name: TokenizerName;
  count(text: string): number;
}

/** How a token figure was made, e.g. `exact:o200k_base` or `sampled:o200k_base:64x2048`. */
export type TokenMethod = string;

export interface TokenEstimate {
  readonly tokens: number;
  readonly method: TokenMethod;
}

const loaded = new Map<TokenizerName, Promise<Tokenizer>>();

/** Special-token text (e.g. "<|endoftext|>") inside tool output is ordinary text. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Loads a tokenizer once per process (the BPE tables take ~150 ms to load, so not at import).
 *
 * @example
 * const tokenizer = await loadTokenizer("o200k_base");
 * tokenizer.count("hello world"); // 2
 */
export function loadTokenizer(name: TokenizerName = DEFAULT_TOKENIZER): Promise<Tokenizer> {
  let tokenizer = loaded.get(name);
  if (!tokenizer) {
    const module =
      name === "cl100k_base"
        ? import("gpt-tokenizer/encoding/cl100k_base")
        : import("gpt-tokenizer/encoding/o200k_base");
    tokenizer = module.then((encoding) => ({
      name,
      count: (text: string) =>
        countInSegments(text, (segment) => encoding.countTokens(segment, AS_PLAIN_TEXT)),
    }));
    loaded.set(name, tokenizer);
  }
  return tokenizer;
}

/** BPE costs grow with the square of a run without spaces; runs are counted in pieces this long. */
const SEGMENT_CHARS = 4096;

/**
 * Counts a text in segments cut after a newline (else before a space, else anywhere), so a
 * long run without whitespace (base64, hex, emoji) costs linear time in the run's length, not
 * quadratic. The count differs from a whole-text count by at most one token per
 * cut inside such a run; text with ordinary lines is cut only at line ends and counts the same.
 */
function countInSegments(text: string, count: (segment: string) => number): number {
  if (text.length <= SEGMENT_CHARS) return text.length === 0 ? 0 : count(text);
  let total = 0;
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + SEGMENT_CHARS);
    if (end < text.length) {
      const window = text.slice(at, end);
      const newline = window.lastIndexOf("\n");
      const space = window.lastIndexOf(" ");
      if (newline > SEGMENT_CHARS / 2) end = at + newline + 1;
      else if (space > SEGMENT_CHARS / 2) end = at + space;
      const last = text.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff) end--;
    }
    total += count(text.slice(at, end));
    at = end;
  }
  return total;
}

/** Texts up to this many characters are counted exactly instead of sampled. */
export const EXACT_COUNT_MAX_CHARS = 65_536;
const SAMPLE_CHARS = 2_048;
const MAX_SAMPLES = 64;

/**
 * Collects evenly spaced samples of a text seen piece by piece (the text may be far larger
 * than memory should hold), then extrapolates a token estimate from them.
 */
export class TokenSampler {
  private samples: { at: number; text: string }[] = [];
  private stride = SAMPLE_CHARS * 2;
  private nextAt = 0;

  /** Offers the piece of text that starts at character `pieceStart`. */
  push(piece: string, pieceStart: number): void {
    const pieceEnd = pieceStart + piece.length;
    while (this.nextAt < pieceEnd) {
      // Keep each window inside the piece so no sample is a fragment of a few characters.
      const from = Math.max(0, Math.min(this.nextAt - pieceStart, piece.length - SAMPLE_CHARS));
      // Copy the window (a sliced string would keep the whole piece alive).
      this.samples.push({
        at: pieceStart + from,
        text: Buffer.from(piece.slice(from, from + SAMPLE_CHARS), "utf16le").toString("utf16le"),
      });
      this.nextAt = pieceStart + from + this.stride;
      if (this.samples.length > MAX_SAMPLES) this.thin();
    }
  }

  private thin(): void {
    this.samples = this.samples.filter((_, i) => i % 2 === 0);
    this.stride *= 2;
    const last = this.samples[this.samples.length - 1];
    this.nextAt = (last?.at ?? 0) + this.stride;
  }

  /** The estimate for a text of `totalChars`; `wholeText` is given when it is small. */
  async finish(
    totalChars: number,
    wholeText: string | undefined,
    tokenizerName: TokenizerName = DEFAULT_TOKENIZER,
  ): Promise<TokenEstimate> {
    const tokenizer = await loadTokenizer(tokenizerName);
    if (wholeText !== undefined && wholeText.length === totalChars) {
      return { tokens: tokenizer.count(wholeText), method: `exact:${tokenizer.name}` };
    }
    let sampledChars = 0;
    let sampledTokens = 0;
    for (const sample of this.samples) {
      sampledChars += sample.text.length;
      sampledTokens += tokenizer.count(sample.text);
    }
    if (sampledChars === 0) return { tokens: 0, method: `exact:${tokenizer.name}` };
    return {
      tokens: Math.round((totalChars * sampledTokens) / sampledChars),
      method: `sampled:${tokenizer.name}:${this.samples.length}x${SAMPLE_CHARS}`,
    };
  }
}

/**
 * Estimates the tokens of a string in memory: exact when it is small, sampled otherwise.
 *
 * @example
 * const { tokens, method } = await estimateTokens(bigLog); // method "sampled:o200k_base:64x2048"
 */
export async function estimateTokens(
  text: string,
  tokenizerName: TokenizerName = DEFAULT_TOKENIZER,
): Promise<TokenEstimate> {
  const sampler = new TokenSampler();
  if (text.length > EXACT_COUNT_MAX_CHARS) sampler.push(text, 0);
  return sampler.finish(
    text.length,
    text.length <= EXACT_COUNT_MAX_CHARS ? text : undefined,
    tokenizerName,
  );
}

/**
 * Counts the tokens of a string exactly, with the named tokenizer (o200k_base by default).
 * For long outputs, {@link estimateTokens} is much faster and within about 1%.
 *
 * @example
 * await countTokens("Hello, world!"); // 4
 */
export async function countTokens(
  text: string,
  tokenizerName: TokenizerName = DEFAULT_TOKENIZER,
): Promise<number> {
  return (await loadTokenizer(tokenizerName)).count(text);
}

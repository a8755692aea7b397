import type { ChunkSizeRule } from "../core/chunk-size-rule.js";
import type { TextReader } from "../store/text-reader.js";

/** One chunk of an output: characters [charStart, charEnd). */
export interface Chunk {
  /** 0-based. */
  readonly index: number;
  readonly charStart: number;
  readonly charEnd: number;
}

export interface ChunkPlan {
  readonly chunks: Chunk[];
  /** Tokens a chunk may hold under the rule, before conversion to characters. */
  readonly chunkTokens: number;
  /** Target characters a chunk (before line-end adjustment). */
  readonly chunkChars: number;
  readonly overlapChars: number;
  /** How far a boundary may move to reach a line end (see {@link snapChunk}). */
  readonly snapChars: number;
}

/**
 * Tokens per chunk for a model: `window-minus-output` sizes a chunk as the window minus the
 * maximum output minus the prompt; `half-window` as half the window; `safer` takes the smaller.
 *
 * @example
 * chunkTokensFor("safer", { contextWindow: 128_000, maxOutputTokens: 4096 }, 800); // 64000
 */
export function chunkTokensFor(
  rule: ChunkSizeRule,
  model: { readonly contextWindow: number; readonly maxOutputTokens: number },
  promptTokens: number,
): number {
  const windowMinusOutput = model.contextWindow - model.maxOutputTokens - promptTokens;
  const halfWindow = Math.floor(model.contextWindow / 2);
  const tokens =
    rule === "window-minus-output"
      ? windowMinusOutput
      : rule === "half-window"
        ? halfWindow
        : Math.min(windowMinusOutput, halfWindow);
  return Math.max(256, tokens);
}

/** How far a boundary may move to reach a line end, as a fraction of the chunk size. */
const LINE_SNAP = 0.1;

/**
 * Splits an output into overlapping chunks of equal size (the count from the maximum chunk
 * size, then every chunk rebalanced to the same size, so there is no tiny last chunk). Every
 * character is in at least one chunk. {@link snapChunk} then moves each chunk's boundaries to
 * line ends; boundaries never fall inside a UTF-8 sequence or a surrogate pair (positions are
 * whole characters).
 */
export async function planChunks(
  reader: TextReader,
  options: {
    readonly chunkTokens: number;
    readonly charsPerToken: number;
    readonly overlapPercent: number;
  },
): Promise<ChunkPlan> {
  const total = reader.totalChars;
  const chunkChars = Math.max(64, Math.floor(options.chunkTokens * options.charsPerToken));
  const overlap = Math.min(0.9, options.overlapPercent / 100);
  if (total <= chunkChars) {
    return {
      chunks: [{ index: 0, charStart: 0, charEnd: total }],
      chunkTokens: options.chunkTokens,
      chunkChars,
      overlapChars: 0,
      snapChars: 0,
    };
  }
  const step = chunkChars * (1 - overlap);
  const count = Math.ceil((total - chunkChars) / step) + 1;
  // Rebalance: the same size for every chunk, just enough to cover the output.
  const size = Math.ceil(total / ((count - 1) * (1 - overlap) + 1));
  const balancedStep = size * (1 - overlap);
  const chunks: Chunk[] = [];
  for (let index = 0; index < count; index++) {
    const start = index === 0 ? 0 : Math.round(index * balancedStep);
    const end = index === count - 1 ? total : Math.min(total, start + size);
    chunks.push({ index, charStart: start, charEnd: end });
  }
  return {
    chunks,
    chunkTokens: options.chunkTokens,
    chunkChars: size,
    overlapChars: Math.round(size * overlap),
    snapChars: Math.floor(size * LINE_SNAP),
  };
}

/**
 * Moves a planned chunk's boundaries outward to line ends when one is within `snapChars`.
 * Each chunk snaps on its own (a start only moves back, an end only forward, so coverage
 * holds), which lets the first map call start before the other chunks are snapped.
 */
export async function snapChunk(
  reader: TextReader,
  chunk: Chunk,
  snapChars: number,
): Promise<Chunk> {
  const start = chunk.charStart > 0 ? await lineStartBefore(reader, chunk.charStart, snapChars) : 0;
  const end =
    chunk.charEnd < reader.totalChars
      ? await lineEndAfter(reader, chunk.charEnd, snapChars)
      : chunk.charEnd;
  return { index: chunk.index, charStart: start, charEnd: end };
}

/** The start of the line holding `at`, when it is within `snap` characters before; else `at`. */
async function lineStartBefore(reader: TextReader, at: number, snap: number): Promise<number> {
  const from = Math.max(0, at - snap);
  const range = await reader.readChars(from, at);
  const newline = range.text.lastIndexOf("\n");
  return newline === -1 ? range.end.char : range.start.char + newline + 1;
}

/** Just after the next line end, when it is within `snap` characters after `at`; else `at`. */
async function lineEndAfter(reader: TextReader, at: number, snap: number): Promise<number> {
  const range = await reader.readChars(at, Math.min(reader.totalChars, at + snap));
  const newline = range.text.indexOf("\n");
  return newline === -1 ? range.start.char : range.start.char + newline + 1;
}

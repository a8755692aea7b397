/**
 * The passes search makes over each chunk before looking for terms in it: lower-case its ASCII
 * letters and say whether it is all ASCII (one pass), and, for a chunk that is not, say whether
 * its words are already folded ({@link foldStable}).
 *
 * Search finds candidate lines by looking for each folded term in the lower-cased bytes with
 * `Buffer.indexOf`, without decoding: decoding 100 MB to a string costs more than a whole
 * search may take. The passes run as WebAssembly (src/retrieval/wasm-passes.ts; the lowering
 * 16 bytes at a time with SIMD), or in JavaScript where it is missing. Bytes 0x80 and above
 * (UTF-8 sequences) are copied unchanged by the lowering.
 */
import { codePointAt, foldStable, judgeCodePoint, STABLE, stableTable } from "./fold-stable.js";
import { passesModule, type Wasm, type WasmModule, wasm } from "./wasm-passes.js";

/** A reusable set of buffers: read a chunk into `input`, then `lower` it. */
export interface ChunkLowerer {
  /** Where the caller reads each chunk (its length is the chunk size). */
  readonly input: Buffer;
  /**
   * Lower-cases `input[0, length)`; returns the lowered view (valid until the next call) and
   * whether those bytes are all ASCII.
   */
  lower(length: number): { readonly lowered: Buffer; readonly ascii: boolean };
  /** True when folding would change no word of `input[0, length)` beyond ASCII case. */
  stable(length: number): boolean;
}

/** Spare bytes after each region: the SIMD loop reads and writes whole 16-byte blocks. */
const SLACK = 16;
const PAGE = 65_536;
const CODE_POINTS = 0x110000;

/** The bytes of 'A' and 'Z' + 1 moved so that adding them sets bit 7 from that letter on. */
const FROM_A = 0x3f3f3f3f; // 0x80 - 0x41 in every byte
const PAST_Z = 0x25252525; // 0x80 - 0x5b in every byte

/**
 * The JavaScript lowering: four bytes at a time where the views are aligned. Returns false
 * when a byte is 0x80 or above.
 */
export function lowerAsciiInto(source: Uint8Array, target: Uint8Array): boolean {
  const length = source.byteLength;
  const aligned = source.byteOffset % 4 === 0 && target.byteOffset % 4 === 0;
  const words = aligned ? length >>> 2 : 0;
  let high = 0;
  if (words > 0) {
    const from = new Uint32Array(source.buffer, source.byteOffset, words);
    const to = new Uint32Array(target.buffer, target.byteOffset, words);
    for (let i = 0; i < words; i++) {
      const word = from[i]!;
      const low = word & 0x7f7f7f7f;
      // Bit 7 of each byte: set when 'A' <= byte <= 'Z' (and the byte is ASCII).
      const upper = ((low + FROM_A) ^ (low + PAST_Z)) & ~word & 0x80808080;
      to[i] = word | (upper >>> 2);
      high |= word;
    }
  }
  for (let i = words * 4; i < length; i++) {
    const byte = source[i]!;
    target[i] = byte >= 65 && byte <= 90 ? byte | 32 : byte;
    high |= byte;
  }
  return (high & 0x80808080) === 0;
}

function wasmLowerer(api: Wasm, module: WasmModule, chunkBytes: number): ChunkLowerer {
  const region = Math.ceil((chunkBytes + SLACK) / SLACK) * SLACK;
  const tableAt = 2 * region;
  const memory = new api.Memory({ initial: Math.ceil((tableAt + CODE_POINTS) / PAGE) });
  const instance = new api.Instance(module, { e: { m: memory } });
  const lower = instance.exports.lower as (src: number, dst: number, n: number) => number;
  const stable = instance.exports.stable as (src: number, n: number, table: number) => number;
  const all = Buffer.from(memory.buffer);
  const input = all.subarray(0, chunkBytes);
  // The judgements made so far, shared by every search; new ones are written to both.
  const table = all.subarray(tableAt, tableAt + CODE_POINTS);
  table.set(stableTable());
  return {
    input,
    lower(length) {
      // The last block reads past `length`: zeros there keep the ASCII answer exact.
      all.fill(0, length, length + SLACK);
      const high = lower(0, region, length);
      return { lowered: all.subarray(region, region + length), ascii: high === 0 };
    },
    stable(length) {
      for (let from = 0; ; ) {
        const at = stable(from, length - from, tableAt);
        if (at === -1) return true;
        const cp = codePointAt(input, at);
        const verdict = judgeCodePoint(cp);
        table[cp] = verdict;
        if (verdict !== STABLE) return false;
        from = at;
      }
    },
  };
}

function scriptLowerer(chunkBytes: number): ChunkLowerer {
  const input = Buffer.allocUnsafe(chunkBytes);
  const output = Buffer.allocUnsafe(chunkBytes);
  return {
    input,
    lower(length) {
      const ascii = lowerAsciiInto(input.subarray(0, length), output);
      return { lowered: output.subarray(0, length), ascii };
    },
    stable: (length) => foldStable(input.subarray(0, length)),
  };
}

/**
 * The passes for chunks of up to `chunkBytes`: WebAssembly when the runtime has it (with
 * SIMD), else JavaScript (or JavaScript when `useWasm` is false).
 *
 * @example
 * const lowerer = createChunkLowerer(4 * 1024 * 1024);
 * const n = await source.readInto(lowerer.input, 0);
 * const { lowered, ascii } = lowerer.lower(n); // lowered.indexOf("boot")
 * const bytesWillDo = ascii || lowerer.stable(n);
 */
export function createChunkLowerer(chunkBytes: number, useWasm = true): ChunkLowerer {
  const module = useWasm ? passesModule() : null;
  return module && wasm ? wasmLowerer(wasm, module, chunkBytes) : scriptLowerer(chunkBytes);
}

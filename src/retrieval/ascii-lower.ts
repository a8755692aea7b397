/**
 * Lower-cases the ASCII letters of a chunk of bytes and says whether the chunk is all ASCII,
 * in one pass.
 *
 * Search finds candidate lines by looking for each folded term in the lower-cased bytes with
 * `Buffer.indexOf`, without decoding: decoding 100 MB to a string costs more than a whole
 * search may take. The pass runs as 16-byte WebAssembly SIMD (a dozen instructions written out
 * below), or four bytes at a time in JavaScript where SIMD is missing. Bytes 0x80 and above
 * (UTF-8 sequences) are copied unchanged, so the lowered bytes are only used for chunks that
 * are all ASCII.
 */

/** A reusable pair of buffers: read a chunk into `input`, then `lower` it. */
export interface ChunkLowerer {
  /** Where the caller reads each chunk (its length is the chunk size). */
  readonly input: Buffer;
  /**
   * Lower-cases `input[0, length)`; returns the lowered view (valid until the next call) and
   * whether those bytes are all ASCII.
   */
  lower(length: number): { readonly lowered: Buffer; readonly ascii: boolean };
}

/** Spare bytes after each region: the SIMD loop reads and writes whole 16-byte blocks. */
const SLACK = 16;
const PAGE = 65_536;

/** Unsigned LEB128, as the WebAssembly binary format writes sizes and counts. */
function leb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

/**
 * `lower(src, dst, n) -> i32`: for each 16 bytes v at src, stores v | ((v - 'A' <u 26) & 0x20)
 * at dst and ORs v into an accumulator; returns the accumulator's high-bit mask (0: all ASCII).
 * The memory is imported, one per lowerer, so concurrent searches never share it.
 */
function lowerModuleBytes(): Uint8Array {
  const splat = [0xfd, 0x0f]; // i8x16.splat
  const body = [
    ...[0x02, 0x01, 0x7f, 0x02, 0x7b], // locals: end (i32); v, acc (v128)
    ...[0x20, 0x00, 0x20, 0x02, 0x6a, 0x21, 0x03], // end = src + n
    ...[0x02, 0x40, 0x03, 0x40], // block, loop
    ...[0x20, 0x00, 0x20, 0x03, 0x4f, 0x0d, 0x01], // if src >= end: break
    ...[0x20, 0x01], // dst (the store's address)
    ...[0x20, 0x00, 0xfd, 0x00, 0x00, 0x00, 0x21, 0x04], // v = v128.load(src)
    ...[0x20, 0x05, 0x20, 0x04, 0xfd, 0x50, 0x21, 0x05], // acc = acc | v
    ...[0x20, 0x04, 0x41, 0xc1, 0x00, ...splat, 0xfd, 0x71], // v - 'A' (65)
    ...[0x41, 0x1a, ...splat, 0xfd, 0x26], // <u 26: 0xff for A-Z
    ...[0x41, 0x20, ...splat, 0xfd, 0x4e], // & 0x20
    ...[0x20, 0x04, 0xfd, 0x50], // | v
    ...[0xfd, 0x0b, 0x00, 0x00], // v128.store(dst)
    ...[0x20, 0x00, 0x41, 0x10, 0x6a, 0x21, 0x00], // src += 16
    ...[0x20, 0x01, 0x41, 0x10, 0x6a, 0x21, 0x01], // dst += 16
    ...[0x0c, 0x00, 0x0b, 0x0b], // continue; end loop, end block
    ...[0x20, 0x05, 0xfd, 0x64, 0x0b], // i8x16.bitmask(acc); end
  ];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, [0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]), // (i32 i32 i32) -> i32
    ...section(2, [0x01, 0x01, 0x65, 0x01, 0x6d, 0x02, 0x00, 0x01]), // import memory "e" "m"
    ...section(3, [0x01, 0x00]), // one function of type 0
    ...section(7, [0x01, 0x05, ...Buffer.from("lower"), 0x00, 0x00]), // export "lower"
    ...section(10, [0x01, ...leb(body.length), ...body]),
  ]);
}

/** The part of the WebAssembly global used here (the project's TypeScript libs omit it). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (limits: { initial: number }) => { readonly buffer: ArrayBuffer };
  Instance: new (
    module: WasmModule,
    imports: object,
  ) => { readonly exports: Record<string, unknown> };
}
type WasmModule = { readonly __wasmModule: never };

const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
let compiled: WasmModule | null | undefined;

/** The SIMD module, or null where WebAssembly SIMD is not available. */
function simdModule(): WasmModule | null {
  if (compiled === undefined) {
    const bytes = lowerModuleBytes();
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

/** The bytes of 'A' and 'Z' + 1 moved so that adding them sets bit 7 from that letter on. */
const FROM_A = 0x3f3f3f3f; // 0x80 - 0x41 in every byte
const PAST_Z = 0x25252525; // 0x80 - 0x5b in every byte

/**
 * The JavaScript pass: four bytes at a time where the views are aligned. Returns false when a
 * byte is 0x80 or above.
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

function simdLowerer(api: Wasm, module: WasmModule, chunkBytes: number): ChunkLowerer {
  const region = Math.ceil((chunkBytes + SLACK) / SLACK) * SLACK;
  const memory = new api.Memory({ initial: Math.ceil((2 * region) / PAGE) });
  const instance = new api.Instance(module, { e: { m: memory } });
  const lower = instance.exports.lower as (src: number, dst: number, n: number) => number;
  const all = Buffer.from(memory.buffer);
  const input = all.subarray(0, chunkBytes);
  return {
    input,
    lower(length) {
      // The last block reads past `length`: zeros there keep the ASCII answer exact.
      all.fill(0, length, length + SLACK);
      const high = lower(0, region, length);
      return { lowered: all.subarray(region, region + length), ascii: high === 0 };
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
  };
}

/**
 * A lowerer for chunks of up to `chunkBytes`: WebAssembly SIMD when the runtime has it (or
 * the JavaScript pass when `simd` is false).
 *
 * @example
 * const lowerer = createChunkLowerer(4 * 1024 * 1024);
 * const n = await source.readInto(lowerer.input, 0);
 * const { lowered, ascii } = lowerer.lower(n); // lowered.indexOf("boot")
 */
export function createChunkLowerer(chunkBytes: number, simd = true): ChunkLowerer {
  const module = simd ? simdModule() : null;
  return module && wasm ? simdLowerer(wasm, module, chunkBytes) : scriptLowerer(chunkBytes);
}

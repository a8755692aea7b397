/**
 * Two passes over a chunk of bytes, written out as WebAssembly (a few dozen instructions each,
 * checked against their JavaScript twins by src/retrieval/search-terms.test.ts):
 *
 * - `lower(src, dst, n) -> i32`: for each 16 bytes v at src (SIMD), stores
 *   v | ((v - 'A' <u 26) & 0x20) at dst and ORs v into an accumulator; returns the
 *   accumulator's high-bit mask (0: the bytes are all ASCII).
 * - `stable(src, n, table) -> i32`: decodes the UTF-8 at src and returns the offset of the
 *   first character whose byte in `table` (one per code point) is not 1, or -1.
 *
 * The memory is imported, one per search, so concurrent searches never share it.
 */

/** The part of the WebAssembly global used here (the project's TypeScript libs omit it). */
export interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (limits: { initial: number }) => { readonly buffer: ArrayBuffer };
  Instance: new (
    module: WasmModule,
    imports: object,
  ) => { readonly exports: Record<string, unknown> };
}
export type WasmModule = { readonly __wasmModule: never };

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

const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
/** i32.load8_u at the address on the stack plus `offset`. */
const load8 = (offset: number) => [0x2d, 0x00, offset];
/** local += step. */
const advance = (local: number, step: number) => [...get(local), 0x41, step, 0x6a, ...set(local)];
/** ((byte at src + offset) & 0x3f) << shift, for a UTF-8 continuation byte. */
const continuation = (offset: number, shift: number) => [
  ...get(0),
  ...load8(offset),
  0x41,
  0x3f,
  0x71,
  ...(shift > 0 ? [0x41, shift, 0x74] : []),
];

const LOWER_BODY = [
  ...[0x02, 0x01, 0x7f, 0x02, 0x7b], // locals: end (i32); v, acc (v128)
  ...get(0),
  ...get(2),
  0x6a,
  ...set(3), // end = src + n
  ...[0x02, 0x40, 0x03, 0x40], // block, loop
  ...[...get(0), ...get(3), 0x4f, 0x0d, 0x01], // if src >= end: break
  ...get(1), // dst (the store's address)
  ...[...get(0), 0xfd, 0x00, 0x00, 0x00, ...set(4)], // v = v128.load(src)
  ...[...get(5), ...get(4), 0xfd, 0x50, ...set(5)], // acc = acc | v
  ...[...get(4), 0x41, 0xc1, 0x00, 0xfd, 0x0f, 0xfd, 0x71], // v - splat('A')
  ...[0x41, 0x1a, 0xfd, 0x0f, 0xfd, 0x26], // <u splat(26): 0xff for A-Z
  ...[0x41, 0x20, 0xfd, 0x0f, 0xfd, 0x4e], // & splat(0x20)
  ...[...get(4), 0xfd, 0x50], // | v
  ...[0xfd, 0x0b, 0x00, 0x00], // v128.store(dst)
  ...advance(0, 0x10),
  ...advance(1, 0x10),
  ...[0x0c, 0x00, 0x0b, 0x0b], // continue; end loop, end block
  ...[...get(5), 0xfd, 0x64, 0x0b], // i8x16.bitmask(acc); end
];

const STABLE_BODY = [
  ...[0x01, 0x04, 0x7f], // locals: end, b, cp, start (i32)
  ...get(0),
  ...get(1),
  0x6a,
  ...set(3), // end = src + n
  ...[0x02, 0x40, 0x03, 0x40], // block, loop
  ...[...get(0), ...get(3), 0x4f, 0x0d, 0x01], // if src >= end: break
  ...[...get(0), ...load8(0), 0x22, 0x04], // b = byte at src
  ...[0x41, 0x80, 0x01, 0x49, 0x04, 0x40], // if b < 0x80:
  ...[...advance(0, 1), 0x0c, 0x01, 0x0b], //   src += 1; continue
  ...[...get(0), ...set(6)], // start = src
  ...[...get(4), 0x41, 0xe0, 0x01, 0x49, 0x04, 0x40], // if b < 0xe0: two bytes
  ...[...get(4), 0x41, 0x1f, 0x71, 0x41, 0x06, 0x74, ...continuation(1, 0), 0x72, ...set(5)],
  ...advance(0, 2),
  0x05, // else
  ...[...get(4), 0x41, 0xf0, 0x01, 0x49, 0x04, 0x40], // if b < 0xf0: three bytes
  ...[...get(4), 0x41, 0x0f, 0x71, 0x41, 0x0c, 0x74],
  ...[...continuation(1, 6), 0x72, ...continuation(2, 0), 0x72, ...set(5)],
  ...advance(0, 3),
  0x05, // else: four bytes
  ...[...get(4), 0x41, 0x07, 0x71, 0x41, 0x12, 0x74],
  ...[...continuation(1, 12), 0x72, ...continuation(2, 6), 0x72, ...continuation(3, 0), 0x72],
  ...set(5),
  ...advance(0, 4),
  ...[0x0b, 0x0b], // end if, end if
  ...[...get(2), ...get(5), 0x6a, ...load8(0), 0x41, 0x01, 0x47], // table[cp] != 1
  ...[0x04, 0x40, ...get(6), 0x0f, 0x0b], // if so: return start
  ...[0x0c, 0x00, 0x0b, 0x0b], // continue; end loop, end block
  ...[0x41, 0x7f, 0x0b], // -1; end
];

function moduleBytes(): Uint8Array {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, [0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f]), // (i32 i32 i32) -> i32
    ...section(2, [0x01, 0x01, 0x65, 0x01, 0x6d, 0x02, 0x00, 0x01]), // import memory "e" "m"
    ...section(3, [0x02, 0x00, 0x00]), // two functions of type 0
    ...section(7, [
      0x02,
      ...[0x05, ...Buffer.from("lower"), 0x00, 0x00],
      ...[0x06, ...Buffer.from("stable"), 0x00, 0x01],
    ]),
    ...section(10, [
      0x02,
      ...leb(LOWER_BODY.length),
      ...LOWER_BODY,
      ...leb(STABLE_BODY.length),
      ...STABLE_BODY,
    ]),
  ]);
}

export const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
let compiled: WasmModule | null | undefined;

/** The compiled passes, or null where WebAssembly (with SIMD) is not available. */
export function passesModule(): WasmModule | null {
  if (compiled === undefined) {
    const bytes = moduleBytes();
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

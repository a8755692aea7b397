/**
 * Deterministic synthetic outputs of any size: application logs, pretty and minified JSON,
 * CSV, CJK/emoji text, prose and TypeScript, with a needle planted at a chosen position. Made
 * a block at a time (about 1 MiB each), so 100+ MB outputs take about a second, can be
 * streamed to a file, and need no quadratic string work. Used by spillway/testing, the
 * benchmarks and the demo.
 */

import { seededRandom } from "../rng.js";
import { FORMATS } from "./formats.js";

/** The kinds of content {@link generateOutputText} makes. */
export const GENERATED_KINDS = ["log", "json", "json-min", "csv", "cjk", "text", "code"] as const;
export type GeneratedKind = (typeof GENERATED_KINDS)[number];

export interface GenerateOutputOptions {
  /** Target size in UTF-8 bytes. */
  bytes: number;
  kind: GeneratedKind;
  /**
   * A string to plant once: its own line for log, text and cjk; the last field of its own row
   * for csv (quoted when needed); the `message` string of its own record for json.
   */
  needle?: string;
  /** Where the needle goes, as a fraction of `bytes` (0 = start, 1 = end); default 0.5. */
  needleAt?: number;
  /** The same seed gives the same output; default 1. */
  seed?: number;
}

export interface GeneratedOutput {
  text: string;
  /** UTF-8 size of `text`. */
  byteLength: number;
  /** UTF-8 offset where the needle's line (csv row, json record) starts, when there is one. */
  needleByteOffset: number | undefined;
  /** 1-based line on which the needle's record starts, when there is one. */
  needleLine: number | undefined;
}

/** Where the needle landed and how large the output is, known once its blocks are consumed. */
export type GeneratedLayout = Omit<GeneratedOutput, "text">;

const BLOCK_BYTES = 1024 * 1024;
const NEEDLE_SLACK = 32;

/**
 * Generates realistic content of `kind`, exactly `bytes` UTF-8 bytes long whenever `bytes`
 * holds the format's frame (json brackets, csv header), the needle's record and the format's
 * smallest filler (at most 80 bytes); a smaller target gives a shorter valid output, or a
 * longer one when the needle alone does not fit. The last line (csv row) is a regular-looking
 * one whose message is filler cut to land on the exact size; json pads with spaces before the
 * closing `]`, so it always parses.
 *
 * @example
 * const { text, needleByteOffset } = generateOutputText({
 *   bytes: 10_000_000, kind: "log", needle: "FATAL disk full", needleAt: 0.9, seed: 7,
 * });
 */
export function generateOutputText(options: GenerateOutputOptions): GeneratedOutput {
  const layout: GeneratedLayout = {
    byteLength: 0,
    needleByteOffset: undefined,
    needleLine: undefined,
  };
  const text = [...generateOutputBlocks(options, layout)].join("");
  return { text, ...layout };
}

/**
 * The same content as {@link generateOutputText}, as blocks of about 1 MiB, for outputs that
 * go to a file or a stream instead of one string. `layout` is filled in as the blocks are
 * consumed (complete after the last one).
 *
 * @example
 * const layout = { byteLength: 0, needleByteOffset: undefined, needleLine: undefined };
 * for (const block of generateOutputBlocks({ bytes: 500 * 2 ** 20, kind: "log", needle: "X" }, layout))
 *   await file.write(block);
 */
export function* generateOutputBlocks(
  options: GenerateOutputOptions,
  layout: GeneratedLayout,
): Generator<string> {
  const random = seededRandom(options.seed ?? 1);
  const format = FORMATS[options.kind](random);
  const target = Math.max(0, Math.floor(options.bytes));
  const needleAt = Math.min(1, Math.max(0, options.needleAt ?? 0.5));
  const sepBytes = byteLength(format.separator);
  const footerBytes = byteLength(format.footer);
  const needle = options.needle;
  // The needle's record is made where it lands (ids and timestamps stay in order); until
  // then room is kept for it: its size in a fresh format plus slack for longer ids and names.
  const needleBytes =
    needle === undefined
      ? 0
      : byteLength(FORMATS[options.kind](seededRandom(0)).needle(needle)) + sepBytes + NEEDLE_SLACK;

  const writer = new BlockWriter();
  let records = 0;
  let placed = false;
  const addRecord = (record: string, size: number, isNeedle: boolean) => {
    if (records > 0) writer.add(format.separator, sepBytes);
    if (isNeedle) {
      layout.needleByteOffset = writer.bytes;
      layout.needleLine = writer.lines + 1;
      placed = true;
    }
    writer.add(record, size);
    records += 1;
  };
  const placeNeedle = () => {
    if (needle !== undefined && !placed) {
      const record = format.needle(needle);
      addRecord(record, byteLength(record), true);
    }
  };

  writer.add(format.header);
  for (;;) {
    if (writer.bytes >= needleAt * target) placeNeedle();
    const record = format.record();
    const size = byteLength(record);
    const reserve = footerBytes + format.minPad + (placed ? 0 : needleBytes);
    if (writer.bytes + sepBytes + size + reserve > target) break;
    addRecord(record, size, false);
    yield* writer.takeBlocks();
  }
  placeNeedle();
  const padBytes = target - writer.bytes - footerBytes;
  if (padBytes > 0 && padBytes >= format.minPad) writer.add(format.pad(padBytes));
  writer.add(format.footer);
  layout.byteLength = writer.bytes;
  yield* writer.finish();
}

/**
 * PNG-like bytes for binary outputs: the 8-byte PNG signature, then seeded random bytes (not a
 * decodable image). At least 8 bytes.
 *
 * @example
 * const png = generateBinary(4096, 1); // png.subarray(1, 4).toString() === "PNG"
 */
export function generateBinary(bytes: number, seed = 1): Buffer {
  const random = seededRandom(seed);
  const data = Buffer.alloc(Math.max(8, Math.floor(bytes)));
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
  for (let i = 8; i < data.length; i += 1) data[i] = Math.floor(random() * 256);
  return data;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Joins many small strings into blocks of about 1 MiB, counting bytes and lines. */
class BlockWriter {
  private ready: string[] = [];
  private pieces: string[] = [];
  private pieceBytes = 0;
  bytes = 0;
  lines = 0;

  add(text: string, size = byteLength(text)): void {
    if (text.length === 0) return;
    this.pieces.push(text);
    this.pieceBytes += size;
    this.bytes += size;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) this.lines += 1;
    if (this.pieceBytes >= BLOCK_BYTES) this.flush();
  }

  /** Blocks completed so far (each handed out once). */
  takeBlocks(): string[] {
    if (this.ready.length === 0) return [];
    const blocks = this.ready;
    this.ready = [];
    return blocks;
  }

  private flush(): void {
    if (this.pieces.length > 0) this.ready.push(this.pieces.join(""));
    this.pieces = [];
    this.pieceBytes = 0;
  }

  finish(): string[] {
    this.flush();
    return this.takeBlocks();
  }
}

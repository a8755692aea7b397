/**
 * Reading one file out of a zip archive (a Python wheel is one) as a stream, with no
 * dependency: the central directory says where the entry is and how it is stored; stored and
 * deflated entries are read, and never more bytes than the directory declares.
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { createInflateRaw } from "node:zlib";

/** One file of a zip archive, as its central directory describes it. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflated (others are refused when read). */
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
  readonly encrypted: boolean;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record (22 bytes) plus the longest comment it may carry. */
const TAIL = 22 + 0xffff;

async function readAt(path: string, position: number, length: number): Promise<Buffer> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * The entries of a zip archive, from its central directory. Not a zip (no end record), a
 * truncated directory or a zip64 archive (wheels of chunks never need one) is an error
 * saying so.
 *
 * @example
 * (await zipEntries("pkg-1.0-py3-none-any.whl")).map((e) => e.name);
 * // ["pkg/__init__.py", "pkg/data/part01.bin", "pkg-1.0.dist-info/METADATA", …]
 */
export async function zipEntries(path: string): Promise<ZipEntry[]> {
  const { size } = await stat(path);
  const start = Math.max(0, size - TAIL);
  const tail = await readAt(path, start, size - start);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error(`${path} is not a zip archive (no end-of-directory record)`);
  const count = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
    throw new Error(`${path} is a zip64 archive, which is not supported`);
  }
  if (directoryOffset + directorySize > size) {
    throw new Error(`${path} is truncated: its directory ends past the end of the file`);
  }
  const directory = await readAt(path, directoryOffset, directorySize);
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new Error(`${path} has a damaged directory (entry ${n + 1} of ${count})`);
    }
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    entries.push({
      name: directory.toString("utf8", at + 46, at + 46 + nameLength),
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      size: directory.readUInt32LE(at + 24),
      localHeaderOffset: directory.readUInt32LE(at + 42),
      encrypted: (directory.readUInt16LE(at + 8) & 1) === 1,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The bytes of the entry `name` of a zip archive, inflated as they are read. A missing entry
 * names the entries there are; an encrypted entry, another compression method, or data longer
 * or shorter than the directory says is an error.
 *
 * @example
 * for await (const block of readZipEntry("pkg.whl", "pkg/data/part01.bin")) out.write(block);
 */
export async function* readZipEntry(path: string, name: string): AsyncGenerator<Buffer> {
  const entries = await zipEntries(path);
  const entry = entries.find((e) => e.name === name);
  if (!entry) {
    const names = entries.map((e) => e.name);
    throw new Error(
      `${path} has no ${name} (it holds ${names.slice(0, 8).join(", ")}${names.length > 8 ? ", …" : ""})`,
    );
  }
  if (entry.encrypted) throw new Error(`${name} in ${path} is encrypted`);
  if (entry.method !== 0 && entry.method !== 8) {
    throw new Error(
      `${name} in ${path} uses compression method ${entry.method}; only stored (0) and deflated (8) are read`,
    );
  }
  const local = await readAt(path, entry.localHeaderOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_HEADER) {
    throw new Error(`${path} has a damaged local header for ${name}`);
  }
  const dataStart = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (entry.compressedSize === 0) {
    if (entry.size !== 0) throw new Error(`${name} in ${path} declares data it does not hold`);
    return;
  }
  const raw = createReadStream(path, {
    start: dataStart,
    end: dataStart + entry.compressedSize - 1,
  });
  const source = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  raw.once("error", (error) => source.destroy(error));
  let produced = 0;
  try {
    for await (const block of source as AsyncIterable<Buffer>) {
      produced += block.length;
      if (produced > entry.size) {
        throw new Error(`${name} in ${path} holds more than the ${entry.size} bytes it declares`);
      }
      yield block;
    }
  } finally {
    raw.destroy();
    source.destroy();
  }
  if (produced !== entry.size) {
    throw new Error(
      `${name} in ${path} holds ${produced} bytes, not the ${entry.size} it declares`,
    );
  }
}

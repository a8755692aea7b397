/**
 * Strings of a large MCP message kept in files instead of memory ("spilled"), so a 500 MB
 * tool result costs a few MB of RAM while it is parsed and stored.
 *
 * The file holds the string's characters as WTF-8: UTF-8, except that a lone surrogate (from
 * a `\ud800` escape) is kept as its 3-byte form, so reading it back gives exactly the string
 * `JSON.parse` would have made. While a spilled string travels inside a parsed message it is
 * a short placeholder token; {@link takeSpilled} trades the token for its {@link SpilledText}.
 */
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TextStream } from "../../core/text-stream.js";

const TOKEN_PREFIX = "\u0000spillway-spilled-text:";
const READ_BLOCK = 1024 * 1024;

const live = new Map<string, SpilledText>();
const files = new Set<string>();
let defaultDir: string | undefined;
let exitHook = false;

function onExit(): void {
  for (const path of files) rmSync(path, { force: true });
  files.clear();
  if (defaultDir) rmSync(defaultDir, { recursive: true, force: true });
}

/** This process's own private spill directory under the system temp directory. */
function processDir(): string {
  defaultDir ??= mkdtempSync(join(tmpdir(), "spillway-mcp-"));
  return defaultDir;
}

/** Decodes WTF-8 bytes to a string: UTF-8, with 3-byte surrogates (ED A0..BF xx) kept lone. */
export function decodeWtf8(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let out = "";
  let from = 0;
  for (let at = buffer.indexOf(0xed); at !== -1 && at + 2 < buffer.length; ) {
    const second = buffer[at + 1]!;
    if (second >= 0xa0 && second <= 0xbf) {
      out += buffer.toString("utf8", from, at);
      out += String.fromCharCode(0xd000 | ((second & 0x3f) << 6) | (buffer[at + 2]! & 0x3f));
      from = at + 3;
      at = buffer.indexOf(0xed, from);
    } else {
      at = buffer.indexOf(0xed, at + 1);
    }
  }
  return out + buffer.toString("utf8", from);
}

/** Where a WTF-8 block can be cut without splitting a character: back from its end. */
function safeEnd(bytes: Uint8Array, end: number): number {
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return back < length ? end - back : end;
  }
  return end;
}

/** A string of a parsed MCP message, held in a file. */
export class SpilledText implements TextStream {
  private released = false;

  constructor(
    readonly path: string,
    readonly byteLength: number,
  ) {}

  async *chunks(): AsyncGenerator<string> {
    if (this.released) throw new Error(`spilled text ${this.path} was already released`);
    const handle = await open(this.path, "r");
    try {
      const block = Buffer.allocUnsafe(READ_BLOCK + 3);
      let kept = 0;
      let held = "";
      for (;;) {
        const { bytesRead } = await handle.read(block, kept, READ_BLOCK, null);
        const filled = kept + bytesRead;
        const cut = bytesRead === 0 ? filled : safeEnd(block, filled);
        let text = held + decodeWtf8(block.subarray(0, cut));
        held = "";
        const last = text.charCodeAt(text.length - 1);
        if (bytesRead > 0 && last >= 0xd800 && last <= 0xdbff) {
          held = text.slice(-1); // its low half may start the next block
          text = text.slice(0, -1);
        }
        if (text.length > 0) yield text;
        if (bytesRead === 0) break;
        block.copy(block, 0, cut, filled);
        kept = filled - cut;
      }
    } finally {
      await handle.close();
    }
  }

  /** The whole string in memory (for a caller that cannot stream). */
  async text(): Promise<string> {
    let out = "";
    for await (const piece of this.chunks()) out += piece;
    return out;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    files.delete(this.path);
    await rm(this.path, { force: true });
  }
}

/** Receives one string's bytes (WTF-8) and writes them to its file in 1 MiB batches. */
export class SpillWriter {
  readonly path: string;
  private readonly fd: number;
  private readonly batch = Buffer.allocUnsafe(READ_BLOCK);
  private used = 0;
  private total = 0;

  constructor(dir?: string) {
    this.path = join(dir ?? processDir(), `${process.pid}-${randomBytes(12).toString("hex")}.part`);
    this.fd = openSync(this.path, "wx", 0o600);
    files.add(this.path);
    if (!exitHook) {
      exitHook = true;
      process.once("exit", onExit);
    }
  }

  write(bytes: Uint8Array): void {
    this.total += bytes.byteLength;
    if (this.used + bytes.byteLength > this.batch.byteLength) this.flush();
    if (bytes.byteLength >= this.batch.byteLength) {
      writeSync(this.fd, bytes);
      return;
    }
    this.batch.set(bytes, this.used);
    this.used += bytes.byteLength;
  }

  writeByte(byte: number): void {
    this.total++;
    if (this.used === this.batch.byteLength) this.flush();
    this.batch[this.used++] = byte;
  }

  private flush(): void {
    if (this.used > 0) writeSync(this.fd, this.batch, 0, this.used);
    this.used = 0;
  }

  /** Closes the file; returns the placeholder token that stands for the string. */
  finish(): string {
    this.flush();
    closeSync(this.fd);
    const token = `${TOKEN_PREFIX}${randomBytes(12).toString("hex")}`;
    live.set(token, new SpilledText(this.path, this.total));
    return token;
  }

  /** Drops the file (the message could not be parsed). */
  abort(): void {
    closeSync(this.fd);
    files.delete(this.path);
    rmSync(this.path, { force: true });
  }
}

/** True when `value` is the placeholder of a spilled string. */
export function isSpillToken(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(TOKEN_PREFIX);
}

/** The spilled text a token stands for (once: the caller owns it now), or undefined. */
export function takeSpilled(token: string): SpilledText | undefined {
  const spilled = live.get(token);
  live.delete(token);
  return spilled;
}

/** Releases every spilled string under `value` that nobody took (a dropped message). */
export async function releaseTokensIn(value: unknown): Promise<void> {
  if (isSpillToken(value)) {
    await takeSpilled(value)?.release();
  } else if (Array.isArray(value)) {
    for (const item of value) await releaseTokensIn(item);
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) await releaseTokensIn(item);
  }
}

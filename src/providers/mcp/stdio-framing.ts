/**
 * Newline-delimited JSON-RPC framing for stdio, in linear time.
 *
 * The SDK's `ReadBuffer` grows one Buffer with `Buffer.concat` on every chunk: a 300 MB message
 * arriving in 64 KB pipe reads copies the partial message ~4,800 times (terabytes in total).
 * {@link LineSplitter} instead keeps the chunks of the current line in a list, scans only each
 * new chunk for "\n", and concatenates once per complete line.
 */

import { constants as bufferConstants } from "node:buffer";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Receives what {@link LineSplitter.push} finds. */
export type LineSink = {
  /** One complete line, without its "\n" (and without a "\r" before it). */
  line(bytes: Buffer): void;
  /** The current line passed `maxBytes` (called once per line); its bytes are being dropped. */
  oversize(bytesSoFar: number): void;
  /**
   * When set, a line longer than `over` bytes is not joined: its bytes so far, then each new
   * piece, go to `bytes`, and `end` marks the line's end (the "\r" before "\n" included).
   */
  stream?: {
    readonly over: number;
    bytes(piece: Buffer): void;
    end(): void;
  };
};

/** Splits a byte stream into lines, holding each chunk once and copying each line once. */
export class LineSplitter {
  readonly maxBytes: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #dropping = false;
  #streaming = false;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Bytes of the incomplete line held so far. */
  get pendingBytes(): number {
    return this.#size;
  }

  /** Feeds one chunk; calls the sink for every line it completes, in order. */
  push(chunk: Buffer, sink: LineSink): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#append(chunk, start, end, sink);
      if (newline === -1) return;
      this.#finishLine(sink);
      start = newline + 1;
    }
  }

  /** Drops any partial line (when the stream ends or the transport closes). */
  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#dropping = false;
    this.#streaming = false;
  }

  #append(chunk: Buffer, start: number, end: number, sink: LineSink): void {
    if (end === start || this.#dropping) return;
    const size = this.#size + (end - start);
    if (size > this.maxBytes) {
      this.#chunks = [];
      this.#size = 0;
      this.#dropping = true;
      sink.oversize(size);
      return;
    }
    const piece = start === 0 && end === chunk.length ? chunk : chunk.subarray(start, end);
    this.#size = size;
    if (this.#streaming) {
      sink.stream!.bytes(piece);
      return;
    }
    this.#chunks.push(piece);
    if (sink.stream && size > sink.stream.over) {
      this.#streaming = true;
      for (const held of this.#chunks) sink.stream.bytes(held);
      this.#chunks = [];
    }
  }

  #finishLine(sink: LineSink): void {
    const chunks = this.#chunks;
    const size = this.#size;
    const dropped = this.#dropping;
    const streamed = this.#streaming;
    this.clear();
    if (streamed && !dropped) {
      sink.stream!.end();
      return;
    }
    if (dropped || size === 0) return;
    let line = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    chunks.length = 0; // let the chunks be collected while the line is decoded
    if (line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length > 0) sink.line(line);
  }
}

/** Why a line could not become a JSON-RPC message. */
export class MessageDecodeError extends Error {
  override readonly name = "MessageDecodeError";
  readonly byteLength: number;
  /** The line is valid UTF-8 but longer than the longest string V8 can hold. */
  readonly tooLongForString: boolean;
  constructor(message: string, byteLength: number, tooLongForString: boolean, cause: unknown) {
    super(message, { cause });
    this.byteLength = byteLength;
    this.tooLongForString = tooLongForString;
  }
}

/** Checks a parsed value is a JSON-RPC message, as {@link decodeMessage} does. */
export function checkMessage(value: unknown, byteLength: number): JSONRPCMessage {
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    throw new MessageDecodeError(
      `a line of ${byteLength} bytes on stdout is JSON but not a JSON-RPC message`,
      byteLength,
      false,
      parsed.error,
    );
  }
  return parsed.data;
}

/**
 * Decodes one line as the SDK does (UTF-8, `JSON.parse`, `JSONRPCMessageSchema`).
 * Throws {@link MessageDecodeError} naming the byte length and the reason.
 */
export function decodeMessage(line: Buffer): JSONRPCMessage {
  let text: string;
  try {
    text = line.toString("utf8");
  } catch (error) {
    throw new MessageDecodeError(
      `a message of ${line.length} bytes decodes to more than ${bufferConstants.MAX_STRING_LENGTH} characters, ` +
        "the longest string this JavaScript engine can hold",
      line.length,
      true,
      error,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MessageDecodeError(
      `a line of ${line.length} bytes on stdout is not JSON (${preview(text)})`,
      line.length,
      false,
      error,
    );
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    throw new MessageDecodeError(
      `a line of ${line.length} bytes on stdout is JSON but not a JSON-RPC message (${preview(text)})`,
      line.length,
      false,
      parsed.error,
    );
  }
  return parsed.data;
}

function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

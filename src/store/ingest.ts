import { createHash, type Hash } from "node:crypto";
import { TextDecoder } from "node:util";
import { InvalidArgumentError, OutputTooLargeError } from "../core/errors.js";
import { detectKind, type OutputKind } from "../core/kinds.js";
import { EXACT_COUNT_MAX_CHARS, type TokenizerName, TokenSampler } from "../core/tokens.js";
import type { BlobSink, SinkPayload } from "./blob-files.js";
import { CHAR_STRIDE, LineIndexBuilder } from "./line-index.js";

/**
 * A tool result's content as a caller hands it over: a string (MCP text content), bytes
 * (binary content, or text read from somewhere as UTF-8), or a stream of either for outputs
 * too large to hold in memory.
 */
export type OutputContent = string | Uint8Array | AsyncIterable<string | Uint8Array>;

/** Everything ingest learns about a payload while writing it once. */
export interface IngestResult {
  readonly sha256: string;
  readonly byteSize: number;
  readonly binary: boolean;
  readonly charCount: number;
  readonly lineCount: number;
  /** True when lone UTF-16 surrogates were replaced with U+FFFD before storing. */
  readonly sanitized: boolean;
  readonly kind: OutputKind;
  readonly tokenEstimate: number;
  readonly tokenMethod: string;
  /** Packed line index (empty for binary payloads). */
  readonly index: Uint8Array;
  readonly payload: SinkPayload;
}

export interface IngestOptions {
  readonly maxBytes: number;
  /** Store as bytes without trying to decode (MCP image/blob content). */
  readonly binary?: boolean;
  readonly tokenizer?: TokenizerName;
}

const HEAD_CHARS = EXACT_COUNT_MAX_CHARS;
const TAIL_CHARS = 4096;
const BYTE_SLICE = CHAR_STRIDE;

/** Accumulates the text-side facts: index, samples, head and tail. */
class TextFacts {
  readonly index = new LineIndexBuilder();
  readonly sampler = new TokenSampler();
  head = "";
  tail = "";
  sanitized = false;

  push(piece: string, byteLength: number, bytes?: Uint8Array): void {
    this.sampler.push(piece, this.index.charCount);
    this.index.push(piece, byteLength, bytes);
    if (this.head.length < HEAD_CHARS) this.head += piece.slice(0, HEAD_CHARS - this.head.length);
    this.tail =
      piece.length >= TAIL_CHARS
        ? piece.slice(-TAIL_CHARS)
        : (this.tail + piece).slice(-TAIL_CHARS);
  }
}

/** Splits a string into pieces of at most CHAR_STRIDE code units, never between a surrogate pair. */
function* stringPieces(text: string): Generator<string> {
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + CHAR_STRIDE);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * Streams a payload once: hashes it, indexes it, samples it for tokens and kind, and hands its
 * bytes to the sink. Text is stored sanitized (lone surrogates replaced, as the model would
 * see it); bytes that are not valid UTF-8 are stored as they are, as a binary payload.
 * Throws OUTPUT_TOO_LARGE as soon as the payload passes `maxBytes`; the caller then aborts
 * the sink so nothing partial remains.
 */
export async function ingest(
  content: OutputContent,
  sink: BlobSink,
  options: IngestOptions,
): Promise<IngestResult> {
  const hash = createHash("sha256");
  const text = options.binary ? undefined : new TextFacts();
  const state = new IngestState(hash, sink, text, options.maxBytes);

  if (typeof content === "string") {
    await state.pushString(content);
  } else if (content instanceof Uint8Array) {
    await state.pushBytes(content);
  } else {
    let streamOf: "string" | "bytes" | undefined;
    for await (const chunk of content) {
      const type = typeof chunk === "string" ? "string" : "bytes";
      if (streamOf !== undefined && streamOf !== type) {
        throw new InvalidArgumentError(
          "content",
          "a content stream mixed strings and bytes",
          "a stream that yields only strings or only Uint8Array chunks",
        );
      }
      streamOf = type;
      if (typeof chunk === "string") await state.pushString(chunk);
      else await state.pushBytes(chunk);
    }
  }
  await state.end();

  const sha256 = hash.digest("hex");
  const payload = await sink.finish();
  const facts = state.text;
  if (!facts) {
    return {
      sha256,
      byteSize: sink.byteCount,
      binary: true,
      charCount: 0,
      lineCount: 0,
      sanitized: false,
      kind: "binary",
      tokenEstimate: 0,
      tokenMethod: "none:binary",
      index: new Uint8Array(0),
      payload,
    };
  }
  const charCount = facts.index.charCount;
  const whole = facts.head.length === charCount ? facts.head : undefined;
  const estimate = await facts.sampler.finish(charCount, whole, options.tokenizer);
  return {
    sha256,
    byteSize: sink.byteCount,
    binary: false,
    charCount,
    lineCount: facts.index.lineCount,
    sanitized: facts.sanitized,
    kind: detectKind({
      head: facts.head,
      tail: facts.tail,
      totalChars: charCount,
      headIsWhole: whole !== undefined,
    }),
    tokenEstimate: estimate.tokens,
    tokenMethod: estimate.method,
    index: facts.index.finish(),
    payload,
  };
}

/** The running state of one ingest: bytes go to hash + sink, decoded text to the facts. */
class IngestState {
  private decoder: TextDecoder | undefined;
  private pendingHighSurrogate = "";

  constructor(
    private readonly hash: Hash,
    private readonly sink: BlobSink,
    public text: TextFacts | undefined,
    private readonly maxBytes: number,
  ) {}

  /** Fails as soon as the payload passes the store's limit; the caller then aborts the sink. */
  private checkLimit(byteCount: number): void {
    if (byteCount <= this.maxBytes) return;
    throw new OutputTooLargeError(
      `Output exceeds the store's maximum output size of ${this.maxBytes} bytes ` +
        `(received more than ${byteCount} bytes); nothing was stored. Raise maxOutputBytes to store it.`,
      { byteSize: byteCount, limit: this.maxBytes, limitUnit: "bytes" },
    );
  }

  /** Text given as a JS string: sanitize, encode, then index. */
  async pushString(chunk: string): Promise<void> {
    let text = this.pendingHighSurrogate + chunk;
    this.pendingHighSurrogate = "";
    // A high surrogate at the end of a chunk may pair with the next chunk's first unit.
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.pendingHighSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    for (const piece of stringPieces(text)) await this.pushPiece(piece);
  }

  private async pushPiece(raw: string): Promise<void> {
    let piece = raw;
    if (!piece.isWellFormed()) {
      piece = piece.toWellFormed();
      if (this.text) this.text.sanitized = true;
    }
    const bytes = await this.sink.writeString(piece);
    this.checkLimit(this.sink.byteCount);
    this.hash.update(bytes);
    this.text?.push(piece, bytes.byteLength, bytes);
  }

  /** Bytes: stored verbatim; decoded (strictly) for the text facts until proven binary. */
  async pushBytes(chunk: Uint8Array): Promise<void> {
    this.checkLimit(this.sink.byteCount + chunk.byteLength);
    this.hash.update(chunk);
    await this.sink.write(chunk);
    if (!this.text) return;
    this.decoder ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    for (let at = 0; at < chunk.byteLength && this.text; at += BYTE_SLICE) {
      this.decodeSlice(chunk.subarray(at, Math.min(chunk.byteLength, at + BYTE_SLICE)), true);
    }
  }

  /** Decodes one slice into the text facts; on invalid UTF-8 the payload becomes binary. */
  private decodeSlice(bytes: Uint8Array, more: boolean): void {
    let piece: string;
    try {
      piece = this.decoder!.decode(bytes, { stream: more });
    } catch {
      // Not UTF-8: from here on this payload is binary (its bytes are already stored verbatim).
      this.text = undefined;
      return;
    }
    if (piece.length > 0) this.text?.push(piece, Buffer.byteLength(piece, "utf8"));
  }

  /** End of content: flush a dangling high surrogate or an incomplete UTF-8 sequence. */
  async end(): Promise<void> {
    if (this.pendingHighSurrogate) {
      // A lone high surrogate at the very end: sanitized like any other.
      const piece = this.pendingHighSurrogate;
      this.pendingHighSurrogate = "";
      await this.pushPiece(piece);
    }
    if (this.decoder && this.text) this.decodeSlice(new Uint8Array(0), false);
  }
}

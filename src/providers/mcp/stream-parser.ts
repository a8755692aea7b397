/**
 * An incremental JSON parser for one very large JSON-RPC line, fed chunk by chunk as it
 * arrives: strings longer than a threshold go to files ({@link SpillWriter}) as they are
 * parsed, so the message never exists whole in memory. Everything else (keys, numbers,
 * short strings) is built as `JSON.parse` would build it, `__proto__` keys included.
 */
import { SpillWriter } from "./spilled-text.js";

type Frame =
  | {
      readonly kind: "object";
      readonly value: Record<string, unknown>;
      key?: string | undefined;
      expectKey: boolean;
      colon: boolean;
    }
  | { readonly kind: "array"; readonly value: unknown[]; separated: boolean };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SIMPLE_ESCAPES: Record<number, number> = {
  34: 0x22,
  92: 0x5c,
  47: 0x2f,
  98: 0x08,
  102: 0x0c,
  110: 0x0a,
  114: 0x0d,
  116: 0x09,
};

function wtf8(code: number): Buffer {
  if (code >= 0xd800 && code <= 0xdfff) {
    return Buffer.from([0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]);
  }
  return Buffer.from(String.fromCodePoint(code), "utf8");
}

/** Thrown for bytes that are not JSON; the message is dropped. */
export class StreamParseError extends Error {
  override readonly name = "StreamParseError";
}

/** One string being parsed: bytes in memory until it passes the threshold, then in a file. */
class StringBuilder {
  private parts: Buffer[] = [];
  private size = 0;
  private spill: SpillWriter | undefined;
  escape: number[] = [];
  private pendingHigh: number | undefined;

  constructor(
    readonly isKey: boolean,
    private readonly threshold: number,
    private readonly dir: string | undefined,
  ) {}

  append(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    this.flushHigh();
    this.add(bytes);
  }

  /** One byte (a simple escape's). */
  appendByte(byte: number): void {
    this.flushHigh();
    if (this.spill) {
      this.size++;
      this.spill.writeByte(byte);
    } else {
      this.add(Uint8Array.of(byte));
    }
  }

  private add(bytes: Uint8Array): void {
    this.size += bytes.byteLength;
    if (this.spill) {
      this.spill.write(bytes);
      return;
    }
    this.parts.push(Buffer.from(bytes));
    if (!this.isKey && this.size > this.threshold) {
      this.spill = new SpillWriter(this.dir);
      for (const part of this.parts) this.spill.write(part);
      this.parts = [];
    }
  }

  private flushHigh(): void {
    if (this.pendingHigh === undefined) return;
    const high = this.pendingHigh;
    this.pendingHigh = undefined;
    this.add(wtf8(high));
  }

  /** A complete escape sequence (`\n`, `\u00e9`, …), as its bytes. */
  unescape(sequence: number[]): void {
    if (sequence[1] !== 0x75) {
      const byte = SIMPLE_ESCAPES[sequence[1]!];
      if (byte === undefined) throw new StreamParseError("invalid escape in a string");
      this.append(Uint8Array.of(byte));
      return;
    }
    const hex = String.fromCharCode(...sequence.slice(2));
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new StreamParseError("invalid \\u escape in a string");
    const code = Number.parseInt(hex, 16);
    if (code >= 0xd800 && code <= 0xdbff) {
      this.flushHigh();
      this.pendingHigh = code;
    } else if (code >= 0xdc00 && code <= 0xdfff && this.pendingHigh !== undefined) {
      const high = this.pendingHigh;
      this.pendingHigh = undefined;
      this.add(wtf8(0x10000 + ((high - 0xd800) << 10) + (code - 0xdc00)));
    } else {
      this.flushHigh();
      this.add(wtf8(code));
    }
  }

  /** The finished string, or the token of its file. */
  finish(decode: (bytes: Buffer) => string): string {
    this.flushHigh();
    if (this.spill) return this.spill.finish();
    return decode(Buffer.concat(this.parts, this.size));
  }

  abort(): void {
    this.spill?.abort();
  }
}

/** Parses one JSON value from bytes pushed in order. */
export class StreamingJsonParser {
  private readonly stack: Frame[] = [];
  private root: { value: unknown } | undefined;
  private string: StringBuilder | undefined;
  private literal: string | undefined;
  /** Strings spilled so far (their tokens), to release if the message is dropped. */
  readonly spilled: string[] = [];

  constructor(
    private readonly spillOver: number,
    private readonly spillDir: string | undefined,
    private readonly decode: (bytes: Buffer) => string,
  ) {}

  push(chunk: Buffer): void {
    let i = 0;
    // Next quote and backslash in this chunk, found once and reused (a string full of escapes
    // must not rescan the chunk for each one).
    let quote = -2;
    let backslash = -2;
    while (i < chunk.length) {
      if (this.string) {
        const builder = this.string;
        if (builder.escape.length > 0) {
          if (builder.escape.length < 2) {
            builder.escape.push(chunk[i++]!);
            continue;
          }
          const need = builder.escape[1] === 0x75 ? 6 : 2;
          while (builder.escape.length < need && i < chunk.length) builder.escape.push(chunk[i++]!);
          if (builder.escape.length < need) return;
          builder.unescape(builder.escape);
          builder.escape = [];
          continue;
        }
        if (quote !== -1 && quote < i) quote = chunk.indexOf(QUOTE, i);
        if (backslash !== -1 && backslash < i) backslash = chunk.indexOf(BACKSLASH, i);
        const special =
          quote === -1 ? backslash : backslash === -1 ? quote : Math.min(quote, backslash);
        if (special === -1) {
          builder.append(chunk.subarray(i));
          return;
        }
        builder.append(chunk.subarray(i, special));
        i = special + 1;
        if (chunk[special] === QUOTE) {
          this.string = undefined;
          const text = builder.finish(this.decode);
          if (builder.isKey) this.setKey(text);
          else {
            if (text.startsWith("\u0000spillway-spilled-text:")) this.spilled.push(text);
            this.deliver(text);
          }
        } else {
          // The common escapes (\n, \", \\, …) inline; \u and ones cut by the chunk end buffered.
          const simple = i < chunk.length ? SIMPLE_ESCAPES[chunk[i]!] : undefined;
          if (simple !== undefined) {
            builder.appendByte(simple);
            i++;
          } else {
            builder.escape = [BACKSLASH];
          }
        }
        continue;
      }
      if (this.literal !== undefined) {
        const start = i;
        while (i < chunk.length && !isDelimiter(chunk[i]!)) i++;
        this.literal += chunk.toString("latin1", start, i);
        if (i < chunk.length) this.finishLiteral();
        continue;
      }
      this.structural(chunk[i]!);
      i++;
    }
  }

  private structural(byte: number): void {
    const top = this.stack[this.stack.length - 1];
    switch (byte) {
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
        return;
      case 0x7b: // {
        this.open({ kind: "object", value: {}, expectKey: true, colon: false });
        return;
      case 0x5b: // [
        this.open({ kind: "array", value: [], separated: true });
        return;
      case 0x7d: // }
      case 0x5d: {
        // ]
        const frame = this.stack.pop();
        if (
          !frame ||
          (frame.kind === "object") !== (byte === 0x7d) ||
          (frame.kind === "object" &&
            (frame.key !== undefined ||
              (frame.expectKey && Object.keys(frame.value).length > 0))) ||
          (frame.kind === "array" && frame.separated && frame.value.length > 0)
        ) {
          throw new StreamParseError(`unexpected "${String.fromCharCode(byte)}"`);
        }
        this.deliver(frame.value);
        return;
      }
      case 0x2c: // ,
        if (top?.kind === "object" && !top.expectKey && top.key === undefined) top.expectKey = true;
        else if (top?.kind === "array" && !top.separated && top.value.length > 0)
          top.separated = true;
        else throw new StreamParseError('unexpected ","');
        return;
      case 0x3a: // :
        if (top?.kind !== "object" || top.key === undefined || top.colon)
          throw new StreamParseError('unexpected ":"');
        top.colon = true;
        return;
      case QUOTE: {
        const isKey = top?.kind === "object" && top.expectKey;
        this.string = new StringBuilder(isKey, this.spillOver, this.spillDir);
        return;
      }
      default:
        if (
          byte === 0x2d ||
          (byte >= 0x30 && byte <= 0x39) ||
          byte === 0x74 ||
          byte === 0x66 ||
          byte === 0x6e
        ) {
          this.literal = String.fromCharCode(byte);
          return;
        }
        throw new StreamParseError(`unexpected byte 0x${byte.toString(16)}`);
    }
  }

  private open(frame: Frame): void {
    if (this.root) throw new StreamParseError("more than one value on the line");
    this.stack.push(frame);
  }

  private setKey(key: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind !== "object" || !top.expectKey) throw new StreamParseError("a misplaced key");
    top.key = key;
    top.expectKey = false;
  }

  private finishLiteral(): void {
    const token = this.literal!;
    this.literal = undefined;
    let value: unknown;
    try {
      value = JSON.parse(token);
    } catch {
      throw new StreamParseError(`invalid literal ${JSON.stringify(token.slice(0, 40))}`);
    }
    this.deliver(value);
  }

  private deliver(value: unknown): void {
    const top = this.stack[this.stack.length - 1];
    if (!top) {
      if (this.root) throw new StreamParseError("more than one value on the line");
      this.root = { value };
      return;
    }
    if (top.kind === "array") {
      if (!top.separated) throw new StreamParseError('a missing "," between values');
      top.separated = false;
      top.value.push(value);
      return;
    }
    if (top.key === undefined || !top.colon) throw new StreamParseError("a value without a key");
    top.colon = false;
    // As JSON.parse does: "__proto__" is an own property, never the prototype.
    Object.defineProperty(top.value, top.key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    top.key = undefined;
  }

  /** The parsed value; throws when the line ended inside it. */
  end(): unknown {
    if (this.literal !== undefined) this.finishLiteral();
    if (this.string || this.stack.length > 0 || !this.root) {
      throw new StreamParseError("the line ended before its JSON value did");
    }
    return this.root.value;
  }

  /** Drops a string being written (the parsed strings are released by their tokens). */
  abort(): void {
    this.string?.abort();
    this.string = undefined;
  }
}

function isDelimiter(byte: number): boolean {
  return (
    byte === 0x2c ||
    byte === 0x7d ||
    byte === 0x5d ||
    byte === 0x20 ||
    byte === 0x09 ||
    byte === 0x0a ||
    byte === 0x0d
  );
}

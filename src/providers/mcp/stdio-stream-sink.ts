/**
 * The streaming half of the stdio framing: a line too long to join is parsed as its pieces
 * arrive ({@link StreamingJsonParser}), its long strings written to files, and the message
 * handed on when the line ends. Used by the stdio transport when spilling is on.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { decodeWtf8, releaseTokensIn } from "./spilled-text.js";
import { checkMessage, type LineSink } from "./stdio-framing.js";
import { StreamingJsonParser, StreamParseError } from "./stream-parser.js";

/** Messages longer than this are parsed as they stream in when spilling is on (8 MiB). */
export const STREAM_LINE_BYTES = 8 * 1024 * 1024;

export interface StreamSinkOptions {
  /** Strings longer than this many bytes go to files. */
  readonly spillOver: number;
  readonly spillDir: string | undefined;
  /** A message parsed whole. */
  readonly message: (message: JSONRPCMessage) => void;
  /** A line that is not a JSON-RPC message (the transport goes on). */
  readonly invalid: (reason: string, cause?: unknown) => void;
  /** Bytes could not be kept (e.g. a full disk): the message is lost. */
  readonly lost: (error: Error, bytes: number) => void;
}

/**
 * The `stream` part of a {@link LineSink}, and `abort` to drop a line under way (the transport
 * closed or stopped the server).
 *
 * @example
 * const { stream, abort } = streamSink({ spillOver: 1 << 20, spillDir, message, invalid, lost });
 */
export function streamSink(options: StreamSinkOptions): {
  stream: NonNullable<LineSink["stream"]>;
  abort: () => void;
} {
  let parser: StreamingJsonParser | undefined;
  let bytes = 0;
  let failed: unknown;
  const release = (active: StreamingJsonParser | undefined) => {
    active?.abort();
    void Promise.all(active?.spilled.map((token) => releaseTokensIn(token)) ?? []);
  };
  const drop = (error: unknown) => {
    failed ??= error;
    release(parser);
    parser = undefined;
  };
  const stream = {
    over: Math.max(STREAM_LINE_BYTES, options.spillOver),
    bytes: (piece: Buffer) => {
      if (failed !== undefined) return;
      bytes += piece.length;
      parser ??= new StreamingJsonParser(options.spillOver, options.spillDir, decodeWtf8);
      try {
        parser.push(piece);
      } catch (error) {
        drop(error);
        // Not a JSON problem but an I/O one: the call waiting for it can never be answered.
        if (!(error instanceof StreamParseError)) options.lost(error as Error, bytes);
      }
    },
    end: () => {
      const size = bytes;
      const error = failed;
      const active = parser;
      bytes = 0;
      failed = undefined;
      parser = undefined;
      if (error !== undefined || !active) {
        const reason = error instanceof Error ? error.message : String(error);
        options.invalid(`a line of ${size} bytes on stdout is not JSON (${reason})`);
        return;
      }
      let message: JSONRPCMessage;
      try {
        message = checkMessage(active.end(), size);
      } catch (caught) {
        release(active);
        options.invalid(caught instanceof Error ? caught.message : String(caught), caught);
        return;
      }
      options.message(message);
    },
  };
  return { stream, abort: () => drop(new Error("the transport closed")) };
}

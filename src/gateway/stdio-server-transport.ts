/**
 * The gateway's stdio transport toward its client, for the SDK `Server`: the same linear
 * framing as spillway's stdio client transport (the SDK's `StdioServerTransport` caps a message
 * at 10 MiB and copies the partial message on every chunk), so a client may send arguments of
 * hundreds of MB. Writes wait for "drain".
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { drained } from "../providers/mcp/drained.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../providers/mcp/index.js";
import { decodeMessage, LineSplitter } from "../providers/mcp/stdio-framing.js";

/** A stdio server transport over any pair of streams (process.stdin/stdout by default). */
export class GatewayStdioServerTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #splitter: LineSplitter;
  #started = false;
  #closed = false;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    input: Readable = process.stdin,
    output: Writable = process.stdout,
    options: { maxMessageBytes?: number } = {},
  ) {
    this.#input = input;
    this.#output = output;
    this.#splitter = new LineSplitter(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("GatewayStdioServerTransport already started");
    this.#started = true;
    const sink = {
      line: (bytes: Buffer) => {
        let message: JSONRPCMessage;
        try {
          message = decodeMessage(bytes);
        } catch (error) {
          this.onerror?.(error as Error);
          return;
        }
        this.onmessage?.(message);
      },
      oversize: (bytes: number) =>
        this.onerror?.(
          new Error(
            `the client sent a message of more than ${bytes} bytes, over the limit of ${this.#splitter.maxBytes}; it was dropped`,
          ),
        ),
    };
    this.#input.on("data", this.#onData(sink));
    this.#input.on("error", (error: Error) => this.onerror?.(error));
    this.#input.once("end", () => void this.close());
    this.#output.on("error", (error: Error) => this.onerror?.(error));
  }

  #onData(sink: Parameters<LineSplitter["push"]>[1]) {
    return (chunk: Buffer | string) =>
      this.#splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk, sink);
  }

  /** Writes one message as a line; messages are written in order, each after the last drained. */
  send(message: JSONRPCMessage): Promise<void> {
    const write = async () => {
      if (this.#closed || this.#output.destroyed) return;
      // Two writes instead of `json + "\n"`: no concatenated copy of a large message.
      this.#output.write(JSON.stringify(message));
      if (!this.#output.write("\n")) {
        await drained(this.#output, "the client's stdout pipe closed before a message was written");
      }
    };
    this.#writing = this.#writing.then(write, write);
    return this.#writing;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.pause();
    this.#splitter.clear();
    await this.#writing.catch(() => {});
    this.onclose?.();
  }
}

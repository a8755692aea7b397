/**
 * A stdio client transport for the SDK `Client` that carries messages of hundreds of MB.
 *
 * Differences from the SDK's `StdioClientTransport`: linear-time framing ({@link LineSplitter})
 * with a configurable limit (default 2 GiB - 1 instead of 10 MiB); stderr piped and kept as a
 * bounded tail for error messages (never inherited); the exit code and signal are kept; writes
 * wait for "drain"; and children still running when this process exits are killed.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { drained } from "./drained.js";
import { StderrTail } from "./stderr-tail.js";
import { decodeMessage, type LineSink, LineSplitter, MessageDecodeError } from "./stdio-framing.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type McpStdioServerSpec } from "./types.js";

/** Options of {@link McpStdioClientTransport}. */
export type McpStdioTransportOptions = McpStdioServerSpec & {
  /** Used in error messages. Default: the command. */
  serverName?: string;
  /** Default 2 GiB - 1 bytes. */
  maxMessageBytes?: number;
  /** Default 16 KiB. */
  stderrTailBytes?: number;
  onStderr?: (text: string) => void;
  /** Time the child gets to exit after stdin ends, before SIGTERM. Default 2,000 ms. */
  closeGraceMs?: number;
};

/** How a child process ended. */
export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

/** The child's framing broke (a message too large to accept); the child was stopped. */
export class StdioMessageError extends Error {
  override readonly name = "StdioMessageError";
  readonly bytes: number;
  readonly limit: number;
  constructor(message: string, bytes: number, limit: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.bytes = bytes;
    this.limit = limit;
  }
}

const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): void {
  liveChildren.add(child);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const c of liveChildren) c.kill("SIGKILL");
  });
}

/**
 * Spawns an MCP server and speaks newline-delimited JSON-RPC with it; implements the SDK's
 * `Transport`, so `new Client(...).connect(new McpStdioClientTransport({ command }))` works.
 */
export class McpStdioClientTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  readonly #options: McpStdioTransportOptions;
  readonly #name: string;
  readonly #splitter: LineSplitter;
  readonly #stderr: StderrTail;
  #child: ChildProcess | undefined;
  #exit: ProcessExit | undefined;
  #fatal: StdioMessageError | undefined;
  #closeNotified = false;
  readonly #queue: JSONRPCMessage[] = [];
  #pumping = false;
  #stopping: Promise<void> | undefined;
  #resolveClosed!: (exit: ProcessExit | undefined) => void;
  /** Settles once the child is gone (undefined when it never started). */
  readonly closed: Promise<ProcessExit | undefined>;

  constructor(options: McpStdioTransportOptions) {
    this.#options = options;
    this.#name = options.serverName ?? options.command;
    this.#splitter = new LineSplitter(options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    this.#stderr = new StderrTail(options.stderrTailBytes ?? 16 * 1024);
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
  }

  /** The child's process id once spawned. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the child ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** Set when the transport stopped the child because a message could not be accepted. */
  get fatalError(): StdioMessageError | undefined {
    return this.#fatal;
  }

  /** The last `stderrTailBytes` of the child's stderr. */
  stderrText(): string {
    return this.#stderr.text();
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error(`MCP server "${this.#name}": transport already started`);
    const { command, args = [], env, cwd } = this.#options;
    const child = spawn(command, args, {
      env: { ...getDefaultEnvironment(), ...env },
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      windowsHide: true,
      ...(cwd === undefined ? {} : { cwd }),
    });
    this.#child = child;
    this.#wire(child);
    await new Promise<void>((resolve, reject) => {
      const onSpawn = () => {
        child.off("error", onError);
        track(child);
        resolve();
      };
      const onError = (error: Error) => {
        child.off("spawn", onSpawn);
        this.#notifyClosed();
        reject(error);
      };
      child.once("spawn", onSpawn);
      child.once("error", onError);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin?.writable || this.#exit) {
      throw new Error(`MCP server "${this.#name}" is not running`);
    }
    // Two writes instead of `json + "\n"`: no concatenated copy of a large message.
    stdin.write(JSON.stringify(message));
    if (!stdin.write("\n")) await drained(stdin, "stdin closed before the message was written");
  }

  /** Ends stdin, then SIGTERM after `closeGraceMs`, then SIGKILL; resolves once the child is gone. */
  async close(): Promise<void> {
    this.#stopping ??= this.#stop(this.#options.closeGraceMs ?? 2_000);
    await this.#stopping;
  }

  async #stop(graceMs: number): Promise<void> {
    const child = this.#child;
    if (!child || child.pid === undefined || this.#exit) {
      this.#notifyClosed();
      return;
    }
    child.stdin?.end();
    for (const [signal, waitMs] of [
      [undefined, graceMs],
      ["SIGTERM", 2_000],
      ["SIGKILL", 5_000],
    ] as const) {
      if (signal) child.kill(signal);
      if (await exitedWithin(child, waitMs)) break;
    }
    // A grandchild may keep the pipes open after the child exits: stop waiting for them.
    child.stdout?.destroy();
    child.stderr?.destroy();
    if (child.exitCode === null && child.signalCode === null) this.#notifyClosed(); // unkillable
    await this.closed;
  }

  #wire(child: ChildProcess): void {
    const sink: LineSink = {
      line: (bytes) => this.#deliver(bytes),
      oversize: (bytes) =>
        this.#fail(
          new StdioMessageError(
            `MCP server "${this.#name}" sent a message of more than ${bytes} bytes, over the limit of ` +
              `${this.#splitter.maxBytes} bytes (maxMessageBytes); the server was stopped`,
            bytes,
            this.#splitter.maxBytes,
          ),
        ),
    };
    child.stdout?.on("data", (chunk: Buffer) => this.#splitter.push(chunk, sink));
    child.stderr?.on("data", (chunk: Buffer) => {
      this.#stderr.push(chunk);
      this.#options.onStderr?.(chunk.toString("utf8"));
    });
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      stream?.on("error", (error: Error) => this.onerror?.(error));
    }
    child.on("error", (error) => {
      if (child.pid !== undefined) this.onerror?.(error);
    });
    child.on("exit", (code, signal) => {
      this.#exit = { code, signal };
      liveChildren.delete(child);
      // "close" normally follows at once; if a grandchild holds the pipes, stop waiting. The
      // setImmediate lets one more I/O poll deliver what the child wrote before it exited.
      setTimeout(() => {
        setImmediate(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        });
      }, 1_000).unref();
    });
    child.on("close", () => this.#notifyClosed());
  }

  #deliver(bytes: Buffer): void {
    let message: JSONRPCMessage;
    try {
      message = decodeMessage(bytes);
    } catch (error) {
      if (error instanceof MessageDecodeError && error.tooLongForString) {
        this.#fail(
          new StdioMessageError(
            `MCP server "${this.#name}" sent ${error.message}; the message was dropped and the server stopped`,
            error.byteLength,
            this.#splitter.maxBytes,
            error,
          ),
        );
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      this.onerror?.(new Error(`MCP server "${this.#name}": ${reason}`, { cause: error }));
      return;
    }
    this.#queue.push(message);
    if (!this.#pumping) this.#pump();
  }

  /**
   * Hands messages to the SDK in order. The SDK runs a notification's handler in a microtask
   * but settles a response at once, and a pipe may deliver several reads in one turn of the
   * event loop, so a progress notification followed by its response would reach its handler
   * after the call ended (and be dropped). After a notification, later messages wait for the
   * next turn of the event loop.
   */
  #pump(): void {
    this.#pumping = true;
    while (this.#queue.length > 0) {
      const message = this.#queue.shift() as JSONRPCMessage;
      this.#hand(message);
      if (!("id" in message)) {
        setImmediate(() => this.#pump());
        return;
      }
    }
    this.#pumping = false;
  }

  #hand(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** A message was lost: pending requests can never be answered, so stop the child at once. */
  #fail(error: StdioMessageError): void {
    if (this.#fatal) return;
    this.#fatal = error;
    this.onerror?.(error);
    this.#child?.kill("SIGTERM");
    this.#stopping ??= this.#stop(0);
  }

  #notifyClosed(): void {
    if (this.#closeNotified) return;
    this.#closeNotified = true;
    // Messages that arrived before the close are delivered before it.
    for (const message of this.#queue.splice(0)) this.#hand(message);
    this.#splitter.clear();
    this.#resolveClosed(this.#exit);
    this.onclose?.();
  }
}

async function exitedWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    await once(child, "exit", { signal: controller.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { testMcpServerCommand } from "./mcp-test-server-command.js";

/**
 * A minimal JSON-RPC-over-stdio peer with a linear-time line reader. The SDK's client
 * transport concatenates its whole buffer on every chunk (quadratic: ~40 s for 80 MB), so the
 * 100 MB case talks to the server directly; this test is about the server writing it whole.
 */
class RawStdioPeer {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private chunks: Buffer[] = [];
  private waiting: ((line: Buffer) => void)[] = [];
  private lines: Buffer[] = [];

  constructor() {
    const { command, args } = testMcpServerCommand();
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.child.stdout.on("data", (chunk: Buffer) => this.onData(chunk));
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.chunks.push(chunk.subarray(start, end));
      this.emit(Buffer.concat(this.chunks));
      this.chunks = [];
      start = end + 1;
    }
    if (start < chunk.length) this.chunks.push(chunk.subarray(start));
  }

  private emit(line: Buffer): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(line);
    else this.lines.push(line);
  }

  send(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  nextLine(): Promise<Buffer> {
    const line = this.lines.shift();
    if (line) return Promise.resolve(line);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

describe("test MCP server with a 100 MB result", () => {
  let peer: RawStdioPeer | undefined;
  afterEach(() => peer?.close());

  it("writes the whole JSON-RPC line for a 100 MB text result", async () => {
    peer = new RawStdioPeer();
    peer.send({
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    const init = JSON.parse((await peer.nextLine()).toString("utf8")) as { result?: unknown };
    expect(init.result).toBeDefined();
    peer.send({ method: "notifications/initialized" });

    const bytes = 100_000_000;
    const needle = "NEEDLE: the last good checkpoint is 7f3a";
    peer.send({
      id: 2,
      method: "tools/call",
      params: {
        name: "generate_output",
        arguments: { bytes, kind: "log", needle, needle_at: 0.99 },
      },
    });
    const line = await peer.nextLine();
    const response = JSON.parse(line.toString("utf8")) as {
      id: number;
      result: { content: { type: string; text: string }[] };
    };
    const text = response.result.content[0]?.text ?? "";

    expect(response.id).toBe(2);
    expect(Buffer.byteLength(text)).toBe(bytes);
    const at = Buffer.byteLength(text.slice(0, text.indexOf(needle)));
    expect(at / bytes).toBeCloseTo(0.99, 3);
    expect(text.endsWith("\n")).toBe(true);
  });
});

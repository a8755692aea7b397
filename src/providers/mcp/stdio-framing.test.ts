import { constants } from "node:buffer";
import { describe, expect, it } from "vitest";
import { decodeMessage, LineSplitter, MessageDecodeError } from "./stdio-framing.js";

function collect(maxBytes = 1 << 30) {
  const splitter = new LineSplitter(maxBytes);
  const lines: string[] = [];
  const oversize: number[] = [];
  const sink = {
    line: (bytes: Buffer) => lines.push(bytes.toString("utf8")),
    oversize: (bytes: number) => oversize.push(bytes),
  };
  return { splitter, lines, oversize, push: (chunk: Buffer) => splitter.push(chunk, sink) };
}

describe("LineSplitter", () => {
  it("finds every line wherever the chunk boundaries fall, multi-byte characters included", () => {
    const text = '{"a":"é✓漢😀"}\n{"b":2}\r\n\n{"c":"x"}\n';
    const bytes = Buffer.from(text, "utf8");
    for (let cut = 0; cut <= bytes.length; cut++) {
      for (const step of [1, 3, 7]) {
        const { lines, push } = collect();
        push(bytes.subarray(0, cut));
        for (let i = cut; i < bytes.length; i += step) push(bytes.subarray(i, i + step));
        expect(lines).toEqual(['{"a":"é✓漢😀"}', '{"b":2}', '{"c":"x"}']);
      }
    }
  });

  it("holds a partial line until its newline arrives", () => {
    const { splitter, lines, push } = collect();
    push(Buffer.from('{"partial":'));
    push(Buffer.from('"yes"'));
    expect(lines).toEqual([]);
    expect(splitter.pendingBytes).toBe(16);
    push(Buffer.from("}\n"));
    expect(lines).toEqual(['{"partial":"yes"}']);
    expect(splitter.pendingBytes).toBe(0);
  });

  it("drops a line over the limit, reports it once, and reads the next line normally", () => {
    const { lines, oversize, push } = collect(10);
    push(Buffer.from("12345678"));
    push(Buffer.from("90abc"));
    push(Buffer.from("defgh"));
    push(Buffer.from("ij\nok\n"));
    expect(oversize).toEqual([13]);
    expect(lines).toEqual(["ok"]);
  });

  it("accepts a line of exactly the limit", () => {
    const { lines, oversize, push } = collect(5);
    push(Buffer.from("abc"));
    push(Buffer.from("de\n"));
    expect(oversize).toEqual([]);
    expect(lines).toEqual(["abcde"]);
  });

  it("joins a 50 MB line from 64 KiB chunks in linear time", () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const count = 800; // 52 MB
    const { lines, push } = collect();
    const started = performance.now();
    for (let i = 0; i < count; i++) push(chunk);
    push(Buffer.from("\n"));
    const ms = performance.now() - started;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toHaveLength(count * chunk.length);
    // Quadratic growth would copy ~21 GB here (tens of seconds); linear is well under a second.
    expect(ms).toBeLessThan(5_000);
  });
});

describe("decodeMessage", () => {
  it("parses a JSON-RPC message", () => {
    const message = decodeMessage(Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}'));
    expect(message).toMatchObject({ id: 1, result: { ok: true } });
  });

  it("rejects text that is not JSON, naming its size", () => {
    expect(() => decodeMessage(Buffer.from("Server starting..."))).toThrow(MessageDecodeError);
    expect(() => decodeMessage(Buffer.from("Server starting..."))).toThrow(/18 bytes.*not JSON/);
  });

  it("rejects JSON that is not JSON-RPC", () => {
    expect(() => decodeMessage(Buffer.from('{"hello":1}'))).toThrow(/not a JSON-RPC message/);
  });
});

describe("decodeMessage at V8's string limit (allocates 0.5 GB for a moment)", () => {
  it("says why a message longer than the longest string cannot be decoded", () => {
    const line = Buffer.alloc(constants.MAX_STRING_LENGTH + 16, 0x61);
    let thrown: unknown;
    try {
      decodeMessage(line);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MessageDecodeError);
    expect((thrown as MessageDecodeError).tooLongForString).toBe(true);
    expect((thrown as Error).message).toContain(
      "the longest string this JavaScript engine can hold",
    );
  });
});

/**
 * A minimal MCP stdio server for bench:mcp-memory: answers `initialize`, `tools/list` and
 * `tools/call` of one tool, `big_log {bytes}`, whose result is a generated log of exactly
 * `bytes` UTF-8 bytes (core/synthetic), written to stdout as it is generated (an SDK server
 * builds the whole message as one string, which caps it at V8's ~512 MiB string length).
 * The message is still one newline-delimited JSON-RPC line, as MCP's stdio transport requires.
 *
 *   node --import tsx bench/mcp-stream-server.ts
 */
import { createInterface } from "node:readline";
import { generateOutputBlocks } from "../src/core/synthetic/generate.js";

const out = process.stdout;

function write(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (out.write(text)) resolve();
    else out.once("drain", resolve);
  });
}

const send = (message: object) => write(`${JSON.stringify(message)}\n`);

async function bigLog(id: number | string, bytes: number): Promise<void> {
  const head = JSON.stringify({
    jsonrpc: "2.0",
    id,
    result: { content: [{ type: "text", text: "" }] },
  });
  // Everything up to the text's closing quote, then the text, then the rest.
  const cut = head.indexOf('"text":"') + '"text":"'.length;
  await write(head.slice(0, cut));
  const layout = { byteLength: 0, needleByteOffset: undefined, needleLine: undefined };
  for (const block of generateOutputBlocks(
    { bytes, kind: "log", needle: "NEEDLE-bench", needleAt: 0.9 },
    layout,
  )) {
    await write(JSON.stringify(block).slice(1, -1));
  }
  await write(`${head.slice(cut)}\n`);
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const request = JSON.parse(line) as {
    id?: number | string;
    method: string;
    params?: { name?: string; arguments?: { bytes?: number } };
  };
  if (request.id === undefined) continue; // notifications
  if (request.method === "initialize") {
    await send({
      jsonrpc: "2.0",
      id: request.id,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "bench-stream", version: "1.0.0" },
      },
    });
  } else if (request.method === "tools/list") {
    await send({
      jsonrpc: "2.0",
      id: request.id,
      result: {
        tools: [
          {
            name: "big_log",
            description: "A generated log of `bytes` bytes.",
            inputSchema: { type: "object", properties: { bytes: { type: "number" } } },
          },
        ],
      },
    });
  } else if (request.method === "tools/call") {
    await bigLog(request.id, request.params?.arguments?.bytes ?? 1_000_000);
  } else {
    await send({
      jsonrpc: "2.0",
      id: request.id,
      error: { code: -32601, message: "method not found" },
    });
  }
}

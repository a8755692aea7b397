/**
 * The real `@modelcontextprotocol/server-filesystem`, including whole reads of large files.
 * `read_text_file` returns the text twice (content and structuredContent), so a 30 MB file is
 * a ~60 MB JSON-RPC message and a 150 MB file a ~300 MB one.
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesystemServer } from "./fixtures/server-specs.js";
import { connectMcpServers, type McpCallResult, type McpHub } from "./index.js";

const MB = 1024 * 1024;

/** Writes a log-like file of about `bytes` bytes with multi-byte text and JSON escapes. */
async function writeLogFile(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  let written = 0;
  let line = 0;
  while (written < bytes) {
    let chunk = "";
    for (let i = 0; i < 2_000; i++, line++) {
      chunk += `2026-05-01T12:00:${String(line % 60).padStart(2, "0")}Z INFO req=${line} path="/api/items/${line % 997}"\tdur=${line % 300}ms ok ✓ café 😀 \\n\n`;
    }
    const buffer = Buffer.from(chunk, "utf8");
    written += buffer.length;
    if (!out.write(buffer)) await once(out, "drain");
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/** Runs `read` and reports its wall time and the process RSS before, at peak and after. */
async function measured<T>(label: string, read: () => Promise<T>): Promise<T> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  try {
    return await read();
  } finally {
    const ms = performance.now() - started;
    clearInterval(sampler);
    const after = process.memoryUsage().rss;
    peak = Math.max(peak, after);
    const mb = (n: number) => `${Math.round(n / MB)} MB`;
    console.log(
      `[spillway mcp] ${label}: ${Math.round(ms)} ms; rss before ${mb(before)}, peak ${mb(peak)} (+${mb(peak - before)}), after ${mb(after)}`,
    );
  }
}

function onlyText(result: McpCallResult): string {
  expect(result.content).toHaveLength(1);
  const [block] = result.content;
  if (block?.type !== "text") throw new Error(`expected text content, got ${block?.type}`);
  return block.text;
}

describe("server-filesystem through the hub", () => {
  let dir: string;
  let hub: McpHub;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "spillway-fs-")));
    await writeFile(join(dir, "small.txt"), "hello from a small file\nsecond line ✓\n");
    await writeLogFile(join(dir, "30mb.log"), 30 * MB);
    hub = await connectMcpServers({ fs: filesystemServer(dir) }, { callTimeoutMs: 120_000 });
  });

  afterAll(async () => {
    await hub?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists the server's tools namespaced", () => {
    expect(hub.failures()).toEqual([]);
    const names = hub.tools().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["fs__read_text_file", "fs__list_directory", "fs__write_file"]),
    );
    const read = hub.tools().find((t) => t.name === "fs__read_text_file");
    expect(read).toMatchObject({ server: "fs", toolName: "read_text_file" });
    expect(read?.inputSchema).toMatchObject({ type: "object", required: ["path"] });
  });

  it("reads a small file, with the text also in structured", async () => {
    const result = await hub.callTool("fs__read_text_file", { path: join(dir, "small.txt") });
    expect(result.isError).toBe(false);
    expect(onlyText(result)).toBe("hello from a small file\nsecond line ✓\n");
    expect(result.structured).toEqual({ content: "hello from a small file\nsecond line ✓\n" });
  });

  it("reports a missing file as the tool's error", async () => {
    const result = await hub.callTool("fs__read_text_file", { path: join(dir, "missing.txt") });
    expect(result.isError).toBe(true);
    expect(onlyText(result)).toMatch(/ENOENT|no such file/i);
  });

  it("reads a 30 MB file whole and exactly", async () => {
    const path = join(dir, "30mb.log");
    const expected = await readFile(path, "utf8");
    const result = await measured("30 MB read_text_file (~60 MB message)", () =>
      hub.callTool("fs__read_text_file", { path }),
    );
    const received = onlyText(result);
    expect(received.length).toBe(expected.length);
    expect(received === expected).toBe(true);
    // The server sent the text twice; structured is exposed as received, never copied again.
    expect((result.structured as { content: string }).content === received).toBe(true);
  });

  it("the SDK's StdioClientTransport with default settings cannot read the same file", async () => {
    const spec = filesystemServer(dir);
    const transport = new StdioClientTransport({ ...spec, stderr: "pipe" });
    const client = new Client({ name: "sdk-default", version: "1.0.0" });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    await client.connect(transport);
    try {
      const call = client.callTool({
        name: "read_text_file",
        arguments: { path: join(dir, "30mb.log") },
      });
      await expect(call).rejects.toThrow(/Connection closed/);
      expect(errors).toContain("ReadBuffer exceeded maximum size of 10485760 bytes");
    } finally {
      await client.close();
    }
  });
});

describe("server-filesystem, 150 MB (hundreds of MB in one message)", () => {
  let dir: string;
  let hub: McpHub;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "spillway-fs-big-")));
    await writeLogFile(join(dir, "150mb.log"), 150 * MB);
    hub = await connectMcpServers({ fs: filesystemServer(dir) }, { callTimeoutMs: 300_000 });
  }, 120_000);

  afterAll(async () => {
    await hub?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("reads a 150 MB file (a ~300 MB message) whole and exactly", async () => {
    const path = join(dir, "150mb.log");
    const expected = await readFile(path, "utf8");
    const result = await measured("150 MB read_text_file (~300 MB message)", () =>
      hub.callTool("fs__read_text_file", { path }),
    );
    const received = onlyText(result);
    expect(received.length).toBe(expected.length);
    expect(received === expected).toBe(true);
  }, 300_000);
});

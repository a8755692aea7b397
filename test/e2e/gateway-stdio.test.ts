/**
 * `spillway mcp` end to end over stdio: the built binary (`node dist/cli/main.js mcp`) between
 * the official SDK client and the real `@modelcontextprotocol/server-filesystem`.
 *
 * The round trip: a 20 MB file is read (stored whole; the client gets a handle message), then
 * written back to a new path by passing its handle reference to write_file. The copy is
 * byte-identical, and the bytes the client received over the whole session are a few KB: the
 * client (a model's host) never saw the content.
 *
 * server-filesystem, like every server built on the MCP TypeScript SDK, refuses stdio messages
 * over 10 MiB (its ReadBuffer limit, with no option to change it), so the 20 MB write_file
 * only reaches it with that limit raised by a preload (test/fixtures/raise-stdio-limit.mjs);
 * the stock server is used for a 2 MB round trip and for the refusal past 10 MiB.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ensureBuilt, ROOT } from "../helpers/built-cli.js";
import { filesystemServer, firstText, handleId } from "../helpers/gateway-fixture.js";

const PRELOAD = join(ROOT, "test/fixtures/raise-stdio-limit.mjs");
const MIDDLE = "THE-MIDDLE-LINE-9f31c";

/** Deterministic text of `bytes` bytes with MIDDLE on its middle line. */
function fileText(bytes: number): string {
  const line = `${"0123456789abcdef".repeat(6)} lorem ipsum dolor sit amet\n`;
  const count = Math.floor(bytes / line.length);
  const lines = Array.from({ length: count }, (_, i) =>
    i === Math.floor(count / 2) ? `${MIDDLE}${line.slice(MIDDLE.length)}` : line,
  );
  return lines.join("");
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** A client of `spillway mcp` over stdio, counting every byte it receives. */
async function connect(home: string, args: readonly string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--home", home, "mcp", ...args],
    stderr: "pipe",
  });
  const stderr: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(transport);
  const received = { bytes: 0, texts: [] as string[] };
  const onmessage = transport.onmessage;
  transport.onmessage = (message) => {
    const text = JSON.stringify(message);
    received.bytes += Buffer.byteLength(text);
    received.texts.push(text);
    onmessage?.(message);
  };
  return { client, transport, stderr, received };
}

describe("spillway mcp over stdio (built CLI, real server-filesystem)", () => {
  let home: string;
  let root: string;
  beforeAll(async () => {
    await ensureBuilt();
    home = await mkdtemp(join(tmpdir(), "spillway-gw-home-"));
    root = await mkdtemp(join(tmpdir(), "spillway-gw-root-"));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });

  it("reads a 20 MB file as a handle and writes it back byte-identical by reference", async () => {
    const text = fileText(20 * 1024 * 1024);
    await writeFile(join(root, "big.txt"), text);
    const server = filesystemServer(root, PRELOAD);
    const { client, received, stderr } = await connect(home, [
      "--max-reference-bytes",
      String(64 * 1024 * 1024),
      "--",
      server.command,
      ...server.args,
    ]);
    try {
      const read = await client.callTool(
        { name: "read_text_file", arguments: { path: join(root, "big.txt") } },
        undefined,
        { timeout: 120_000 },
      );
      const id = handleId(read);
      expect(firstText(read)).toMatch(
        /^\[spillway\] The output of read_text_file is stored whole as out_/,
      );
      const written = await client.callTool(
        {
          name: "write_file",
          arguments: { path: join(root, "copy.txt"), content: `spillway://outputs/${id}` },
        },
        undefined,
        { timeout: 120_000 },
      );
      expect(written.isError, firstText(written)).toBeFalsy();
      const copy = await readFile(join(root, "copy.txt"));
      expect(copy.length).toBe(Buffer.byteLength(text));
      expect(sha256(copy)).toBe(sha256(text));
      // The client never saw the content: a few KB in all, and not the middle line.
      expect(received.bytes).toBeLessThan(64 * 1024);
      expect(received.texts.join("\n")).not.toContain(MIDDLE);
    } finally {
      await client.close();
    }
    expect(stderr.join("")).toMatch(/session ses_\w+ ended/);
  }, 180_000);

  it("works with the stock server up to its 10 MiB message limit, and says why past it", async () => {
    const small = fileText(2 * 1024 * 1024);
    await writeFile(join(root, "two.txt"), small);
    await writeFile(join(root, "twelve.txt"), fileText(12 * 1024 * 1024));
    const server = filesystemServer(root);
    const { client } = await connect(home, [
      "--max-reference-bytes",
      String(64 * 1024 * 1024),
      "--",
      server.command,
      ...server.args,
    ]);
    try {
      const two = handleId(
        await client.callTool({
          name: "read_text_file",
          arguments: { path: join(root, "two.txt") },
        }),
      );
      await client.callTool({
        name: "write_file",
        arguments: { path: join(root, "two-copy.txt"), content: `spillway://outputs/${two}` },
      });
      expect(sha256(await readFile(join(root, "two-copy.txt")))).toBe(sha256(small));
      const twelve = handleId(
        await client.callTool(
          { name: "read_text_file", arguments: { path: join(root, "twelve.txt") } },
          undefined,
          { timeout: 120_000 },
        ),
      );
      const refused = await client.callTool(
        {
          name: "write_file",
          arguments: {
            path: join(root, "twelve-copy.txt"),
            content: `spillway://outputs/${twelve}`,
          },
        },
        undefined,
        { timeout: 120_000 },
      );
      expect(refused.isError).toBe(true);
      expect(firstText(refused)).toContain("accept at most 10 MiB per message over stdio");
    } finally {
      await client.close();
    }
  }, 180_000);

  it("refuses a reference over the default limit before calling the server", async () => {
    const server = filesystemServer(root);
    await writeFile(join(root, "nine.txt"), fileText(9 * 1024 * 1024));
    const { client } = await connect(home, ["--", server.command, ...server.args]);
    try {
      const id = handleId(
        await client.callTool({
          name: "read_text_file",
          arguments: { path: join(root, "nine.txt") },
        }),
      );
      const refused = await client.callTool({
        name: "write_file",
        arguments: { path: join(root, "nine-copy.txt"), content: `spillway://outputs/${id}` },
      });
      expect(firstText(refused)).toMatch(
        /^Error OUTPUT_TOO_LARGE: Argument \$\.content: Handle reference spillway:\/\/outputs\/out_\w+ names 9,\d{3},\d{3} bytes, over the limit of 8,388,608 bytes \(--max-reference-bytes\); the call was not made\./,
      );
      await expect(readFile(join(root, "nine-copy.txt"))).rejects.toThrow();
    } finally {
      await client.close();
    }
  }, 120_000);

  it("records each session for `spillway sessions show`, and resumes one with --session", async () => {
    await writeFile(join(root, "note.txt"), fileText(64 * 1024));
    const server = filesystemServer(root);
    const first = await connect(home, ["--", server.command, ...server.args]);
    const id = handleId(
      await first.client.callTool({
        name: "read_text_file",
        arguments: { path: join(root, "note.txt") },
      }),
    );
    await first.client.close();
    const sessionId = /session (ses_\w+) ended/.exec(first.stderr.join(""))?.[1] as string;
    expect(sessionId).toBeDefined();
    const second = await connect(home, [
      "--session",
      sessionId,
      "--",
      server.command,
      ...server.args,
    ]);
    const read = await second.client.callTool({
      name: "get_tool_output",
      arguments: { id, mode: "grep", pattern: MIDDLE },
    });
    expect(firstText(read)).toMatch(new RegExp(`^\\[${id} grep "${MIDDLE}": 1 matching line`));
    await second.client.close();
    const shown = execFileSync(
      process.execPath,
      [BIN, "--home", home, "sessions", "show", sessionId],
      {
        encoding: "utf8",
      },
    );
    expect(shown).toMatch(/^agent\s+mcp-gateway$/m);
    expect(shown).toMatch(/^status\s+completed$/m);
    expect(shown).toMatch(/→ read_text_file \{"path":".*note\.txt"\}/);
    expect(shown).toContain(`[${id} · `);
    expect(shown).toContain("shown as handle");
    expect(shown).toMatch(/→ get_tool_output .*"mode":"grep"/);
  }, 120_000);
});

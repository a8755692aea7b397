import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testMcpServerCommand } from "./mcp-test-server-command.js";

const MiB = 1024 * 1024;

interface Connection {
  client: Client;
  stderr: () => string;
}

async function connect(): Promise<Connection> {
  const { command, args } = testMcpServerCommand();
  // The SDK's ReadBuffer default is 10 MiB a message; big outputs need more.
  const transport = new StdioClientTransport({
    command,
    args,
    stderr: "pipe",
    maxBufferSize: 256 * MiB,
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "spillway-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

type Content = { type: string; text?: string; data?: string; mimeType?: string }[];

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { content: result.content as Content, isError: result.isError === true };
}

function textOfResult(content: Content): string {
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe("text");
  return content[0]?.text ?? "";
}

/** Byte offset of `needle` in `text`, as a fraction of the whole. */
function needlePosition(text: string, needle: string): number {
  const at = text.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(needle, at + 1)).toBe(-1);
  return Buffer.byteLength(text.slice(0, at)) / Buffer.byteLength(text);
}

describe("test MCP server over stdio", () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await connect();
  });
  afterAll(async () => {
    await connection.client.close();
  });

  it("lists its tools", async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ["crash", "echo", "fail", "generate_binary", "generate_output", "slow", "throw_error"].sort(),
    );
  });

  it.each(["log", "json", "csv", "cjk", "text"] as const)(
    "generate_output makes %s of the exact size with the needle where asked",
    async (kind) => {
      const needle = `NEEDLE-${kind}-4242 the answer`;
      const bytes = 1_000_000;
      const { content, isError } = await call(connection.client, "generate_output", {
        bytes,
        kind,
        needle,
        needle_at: 0.25,
        seed: 9,
      });
      const text = textOfResult(content);

      expect(isError).toBe(false);
      expect(Buffer.byteLength(text)).toBe(bytes);
      expect(needlePosition(text, needle)).toBeCloseTo(0.25, 2);
      if (kind === "json") {
        const records = JSON.parse(text) as { message: string }[];
        expect(records.filter((record) => record.message === needle)).toHaveLength(1);
      } else if (kind === "csv") {
        expect(
          text.startsWith("id,timestamp,region,sku,quantity,unit_price_cents,status,note\n"),
        ).toBe(true);
        expect(text).toMatch(new RegExp(`\\n\\d+,[^\\n]*,flagged,${needle}\\n`));
      } else {
        expect(text).toContain(`\n${needle}\n`);
      }
      if (kind === "cjk") expect(text.length).toBeLessThan(bytes * 0.6); // mostly multi-byte
    },
  );

  it("is deterministic by seed", async () => {
    const args = { bytes: 50_000, kind: "log", seed: 5 };
    const first = textOfResult((await call(connection.client, "generate_output", args)).content);
    const again = textOfResult((await call(connection.client, "generate_output", args)).content);
    const other = textOfResult(
      (await call(connection.client, "generate_output", { ...args, seed: 6 })).content,
    );
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect(first).toMatch(
      /^2026-03-14T08:00:00\.\d{3}Z (INFO|DEBUG|WARN|ERROR) \[[a-z-]+\] request_id=req_/,
    );
  });

  it("delivers a 20 MB output whole through the SDK client", async () => {
    const needle = "FATAL: disk quota exceeded on /var/data";
    const bytes = 20 * 1_000_000;
    const { content } = await call(connection.client, "generate_output", {
      bytes,
      kind: "log",
      needle,
      needle_at: 0.9,
    });
    const text = textOfResult(content);
    expect(Buffer.byteLength(text)).toBe(bytes);
    expect(needlePosition(text, needle)).toBeCloseTo(0.9, 3);
  });

  it("returns binary output as image content", async () => {
    const { content } = await call(connection.client, "generate_binary", { bytes: 4096, seed: 2 });
    expect(content).toHaveLength(1);
    expect(content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    const data = Buffer.from(content[0]?.data ?? "", "base64");
    expect(data.length).toBe(4096);
    expect(data.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
  });

  it("slow waits, then returns its text", async () => {
    const started = Date.now();
    const { content, isError } = await call(connection.client, "slow", {
      seconds: 0.3,
      text: "rested",
    });
    expect(isError).toBe(false);
    expect(textOfResult(content)).toBe("rested");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("slow stops when the client cancels the call", async () => {
    const abort = new AbortController();
    const pending = connection.client.callTool(
      { name: "slow", arguments: { seconds: 60 } },
      undefined,
      {
        signal: abort.signal,
      },
    );
    setTimeout(() => abort.abort(new Error("test cancelled the call")), 300);
    await expect(pending).rejects.toThrow(/test cancelled the call/);
    // The server saw notifications/cancelled and stopped waiting, long before 60 s.
    await expect
      .poll(() => connection.stderr(), { timeout: 5_000 })
      .toMatch(/slow: cancelled after \d+ ms/);
    const echoed = await call(connection.client, "echo", { text: "still serving" });
    expect(textOfResult(echoed.content)).toBe("still serving");
  });

  it("fail returns a tool error result", async () => {
    const { content, isError } = await call(connection.client, "fail", {
      message: "the disk is full",
    });
    expect(isError).toBe(true);
    expect(textOfResult(content)).toBe("the disk is full");
  });

  it("throw_error becomes a tool error result carrying the message", async () => {
    const { content, isError } = await call(connection.client, "throw_error", {
      message: "kaboom",
    });
    expect(isError).toBe(true);
    expect(textOfResult(content)).toBe("kaboom");
  });

  it("rejects invalid arguments as a tool error naming the problem", async () => {
    const { content, isError } = await call(connection.client, "generate_output", {
      bytes: 10,
      kind: "xml",
    });
    expect(isError).toBe(true);
    expect(textOfResult(content)).toMatch(/Input validation error/);
  });

  it("echo returns its text", async () => {
    const { content } = await call(connection.client, "echo", { text: "héllo 🌊" });
    expect(textOfResult(content)).toBe("héllo 🌊");
  });
});

describe("test MCP server crash", () => {
  it("crash makes the pending call reject instead of hanging", async () => {
    const { client, stderr } = await connect();
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    const started = Date.now();
    await expect(call(client, "crash", { exit_code: 3 })).rejects.toThrow(/Connection closed/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(closed).toBe(true);
    expect(stderr()).toContain("crash: exiting with code 3");
    await client.close();
  });
});

describe("testMcpServerCommand", () => {
  it("runs the TypeScript source through tsx when there is no built file beside it", () => {
    const { command, args } = testMcpServerCommand();
    expect(command).toBe(process.execPath);
    expect(args).toEqual([
      "--import",
      expect.stringMatching(/^file:\/\/.*\/tsx\/dist\/loader\.mjs$/),
      expect.stringMatching(/src\/testing\/mcp-test-server\.ts$/),
    ]);
  });
});

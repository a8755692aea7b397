/**
 * `spillway mcp --http` end to end: the built binary serving Streamable HTTP in front of the
 * everything fixture (a real stdio MCP server), used by the official SDK client over real
 * HTTP. Each MCP session is its own spillway session.
 */
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "../conformance/gateway-conformance.js";
import { BIN, ensureBuilt } from "../helpers/built-cli.js";
import { everythingServer, firstText, handleId } from "../helpers/gateway-fixture.js";

async function connect(url: string, capabilities: Record<string, unknown> = {}) {
  const client = new Client({ name: "http-e2e", version: "1.0.0" }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  return { client, transport };
}

describe("spillway mcp --http (built CLI, SDK client over Streamable HTTP)", () => {
  let home: string;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    await ensureBuilt();
    home = await mkdtemp(join(tmpdir(), "spillway-gw-http-"));
    const fixture = everythingServer();
    gateway = await startGateway(home, [fixture.command, ...fixture.args]);
  }, 60_000);
  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null) {
      gateway.child.kill("SIGTERM");
      await once(gateway.child, "exit");
    }
    await rm(home, { recursive: true, force: true });
  });

  it("passes small results, stores large ones behind a handle, reads them back", async () => {
    const { client, transport } = await connect(gateway.url);
    await client.connect(transport);
    try {
      expect(await client.callTool({ name: "test_simple_text", arguments: {} })).toEqual({
        content: [{ type: "text", text: "This is a simple text response for testing." }],
      });
      const big = await client.callTool({
        name: "big_text",
        arguments: { bytes: 300_000, needle: "HTTP-NEEDLE-55" },
      });
      const id = handleId(big);
      const grep = await client.callTool({
        name: "get_tool_output",
        arguments: { id, mode: "grep", pattern: "HTTP-NEEDLE-55" },
      });
      expect(firstText(grep)).toMatch(/\n\d+:1: HTTP-NEEDLE-55/);
      const part = await client.readResource({ uri: `spillway://outputs/${id}?lines=1-1` });
      expect((part.contents[0] as { text: string }).text).toMatch(/^line 0000001 /);
      const progress: number[] = [];
      await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      expect(progress).toEqual([0, 50, 100]);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  }, 60_000);

  it("relays a server's sampling request on the call's stream, one spillway session per MCP session", async () => {
    const a = await connect(gateway.url, { sampling: {} });
    a.client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "four" },
      model: "stand-in",
    }));
    const b = await connect(gateway.url);
    await a.client.connect(a.transport);
    await b.client.connect(b.transport);
    try {
      expect(
        firstText(
          await a.client.callTool({ name: "test_sampling", arguments: { prompt: "2+2?" } }),
        ),
      ).toBe("LLM response: four");
      await b.client.callTool({ name: "test_simple_text", arguments: {} });
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    } finally {
      await a.transport.terminateSession();
      await b.transport.terminateSession();
      await a.client.close();
      await b.client.close();
    }
    const list = JSON.parse(
      execFileSync(process.execPath, [BIN, "--home", home, "--json", "sessions", "list"], {
        encoding: "utf8",
      }),
    ) as { agentName: string; status: string; turns: number }[];
    const gatewaySessions = list.filter((s) => s.agentName === "mcp-gateway");
    expect(gatewaySessions.length).toBeGreaterThanOrEqual(3);
    expect(
      gatewaySessions.slice(0, 2).every((s) => s.status === "completed" && s.turns === 1),
    ).toBe(true);
  }, 60_000);

  it("rejects a non-loopback Host or Origin (DNS rebinding protection)", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "x", version: "1" },
      },
    });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const evil = await fetch(gateway.url, {
      method: "POST",
      body,
      headers: { ...headers, origin: "http://evil.example" },
    });
    expect(evil.status).toBe(403);
    expect(await evil.text()).toContain(
      'Origin \\"http://evil.example\\" is not a loopback address',
    );
    const missing = await fetch(gateway.url.replace("/mcp", "/other"), {
      method: "POST",
      body,
      headers,
    });
    expect(missing.status).toBe(404);
    const noSession = await fetch(gateway.url, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      headers,
    });
    expect(noSession.status).toBe(400);
  });

  it("stops on SIGTERM, closing its sessions and servers", async () => {
    const { client, transport } = await connect(gateway.url);
    await client.connect(transport);
    await client.callTool({ name: "test_simple_text", arguments: {} });
    gateway.child.kill("SIGTERM");
    const [code] = await once(gateway.child, "exit");
    expect(code).toBe(0);
    expect(gateway.stderr.join("")).toContain("stopping: closing sessions and servers");
    const list = JSON.parse(
      execFileSync(process.execPath, [BIN, "--home", home, "--json", "sessions", "list"], {
        encoding: "utf8",
      }),
    ) as { agentName: string; status: string }[];
    expect(
      list.filter((s) => s.agentName === "mcp-gateway").every((s) => s.status !== "running"),
    ).toBe(true);
  }, 60_000);
});

import { once } from "node:events";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSpillwayError, type SpillwayError } from "../../core/errors.js";
import { type HttpFixture, startHttpFixture } from "./fixtures/http-server.js";
import { bigText, IMAGE_BYTES } from "./fixtures/test-tools.js";
import { connectMcpServers, type McpHub } from "./index.js";

async function rejection(promise: Promise<unknown>): Promise<SpillwayError> {
  try {
    await promise;
  } catch (error) {
    if (isSpillwayError(error)) return error;
    throw error;
  }
  throw new Error("expected the promise to reject");
}

/** A localhost port that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function text(result: { content: { type: string; text?: unknown }[] }): string {
  return result.content.map((c) => (typeof c.text === "string" ? c.text : "")).join("");
}

describe("Streamable HTTP servers", () => {
  let fixture: HttpFixture;
  let hub: McpHub;
  let deadUrl: string;

  beforeAll(async () => {
    fixture = await startHttpFixture();
    deadUrl = `http://127.0.0.1:${await closedPort()}/mcp`;
    hub = await connectMcpServers(
      {
        web: { url: fixture.url, headers: { authorization: "Bearer test-token" } },
        down: { url: deadUrl },
        wrong: { url: fixture.url.replace("/mcp", "/elsewhere") },
      },
      { maxRestarts: 1 },
    );
  });

  afterAll(async () => {
    await hub?.close();
    await fixture?.close();
  });

  it("lists and calls tools of an HTTP server, sending the spec's headers", async () => {
    expect(
      hub
        .tools()
        .filter((t) => t.server === "web")
        .map((t) => t.name),
    ).toContain("web__echo");
    expect(text(await hub.callTool("web__echo", { text: "over http" }))).toBe("over http");
    expect(fixture.lastHeaders().authorization).toBe("Bearer test-token");
    const media = await hub.callTool("web__media");
    expect(media.content[0]).toEqual({
      type: "binary",
      kind: "image",
      mediaType: "image/png",
      data: IMAGE_BYTES,
    });
    expect(media.structured).toEqual({ kinds: 5 });
  });

  it("records an unreachable URL and a wrong path as failures", () => {
    const failures = new Map(hub.failures().map((f) => [f.server, f.error]));
    expect([...failures.keys()].sort()).toEqual(["down", "wrong"]);
    const down = failures.get("down")!;
    expect(down.code).toBe("MCP_SERVER_FAILED");
    expect(down.message).toContain(`"down" at ${deadUrl} could not be reached`);
    expect(down.message).toContain("ECONNREFUSED");
    expect(down.details).toMatchObject({ reason: "unreachable" });
    expect(failures.get("wrong")?.message).toMatch(
      /"wrong" at \S+\/elsewhere answered the MCP handshake with HTTP 404/,
    );
  });

  it("carries a 30 MB multi-byte result exactly", async () => {
    const length = 30_000_000;
    const started = performance.now();
    const received = text(await hub.callTool("web__big_text", { length }));
    console.log(
      `[spillway mcp] 30 M characters over Streamable HTTP (SSE): ${Math.round(performance.now() - started)} ms`,
    );
    expect(received.length).toBe(length);
    expect(received === bigText(length)).toBe(true);
  });

  it("times out and aborts like stdio", async () => {
    const timeout = await rejection(hub.callTool("web__sleep", { ms: 5_000 }, { timeoutMs: 200 }));
    expect(timeout.code).toBe("TOOL_TIMEOUT");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await rejection(
      hub.callTool("web__sleep", { ms: 5_000 }, { signal: controller.signal }),
    );
    expect(aborted.code).toBe("ABORTED");
  });

  it("fails a call at once when the connection drops mid-call, then reconnects", async () => {
    const started = Date.now();
    const error = await rejection(hub.callTool("web__crash", {}));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe("MCP_SERVER_FAILED");
    expect(error.message).toContain(
      `MCP server "web" at ${fixture.url} lost its connection while running tool web__crash`,
    );
    expect(error.details).toMatchObject({ reason: "connection_lost", tool: "web__crash" });
    expect(text(await hub.callTool("web__echo", { text: "reconnected" }))).toBe("reconnected");
  });
});

describe("Streamable HTTP with JSON responses", () => {
  it("carries a 30 MB result sent as one application/json body", async () => {
    const fixture = await startHttpFixture({ jsonResponses: true });
    const hub = await connectMcpServers({ web: { url: fixture.url } });
    try {
      const length = 30_000_000;
      const started = performance.now();
      const received = text(await hub.callTool("web__big_text", { length }));
      console.log(
        `[spillway mcp] 30 M characters over Streamable HTTP (JSON): ${Math.round(performance.now() - started)} ms`,
      );
      expect(received === bigText(length)).toBe(true);
    } finally {
      await hub.close();
      await fixture.close();
    }
  });
});

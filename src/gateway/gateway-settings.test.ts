import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startTestGateway } from "../../test/helpers/gateway-fixture.js";
import { tempDir } from "../../test/helpers/temp-store.js";
import { loadConfigFile } from "../config/index.js";
import { isSpillwayError } from "../core/errors.js";
import { openSqliteStores } from "../store/sqlite-history-store.js";
import { hostPort } from "./command.js";
import { extractionSource } from "./gateway-extractor.js";
import { resolveGatewaySettings } from "./gateway-settings.js";

async function config(body: unknown) {
  const dir = await tempDir();
  const path = join(dir, "spillway.config.json");
  await writeFile(path, JSON.stringify(body));
  return loadConfigFile(path);
}

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

describe("resolveGatewaySettings", () => {
  it("wraps the command after --, keeping tool names, with the defaults", () => {
    const settings = resolveGatewaySettings(
      { command: ["npx", "-y", "server", "/data"] },
      undefined,
      {},
    );
    expect(settings.servers).toEqual({
      upstream: { command: "npx", args: ["-y", "server", "/data"] },
    });
    expect(settings.namespace).toBe(false);
    expect(settings.limits).toEqual({
      maxInlineBytes: 12_288,
      maxInlineTokens: 10_000,
      maxReferenceBytes: 8 * 1024 * 1024,
      maxReadChars: 16_000,
    });
    expect(settings.extraction.models).toBeNull();
    expect(settings.durability).toBe("full");
    expect(settings.toolTimeoutMs).toBe(300_000);
  });

  it("takes --servers from the config file's mcpServers, namespaced, with the gateway section under the CLI", async () => {
    const loaded = await config({
      mcpServers: { fs: { command: "fs-server" }, web: { url: "http://localhost:9/mcp" } },
      defaults: { toolResponseMaxBytes: 2048, extraction: { models: ["openai/gpt-4.1-mini"] } },
      gateway: { maxReferenceBytes: 1000, durability: "normal", sampling: { concurrency: 2 } },
    });
    const settings = resolveGatewaySettings(
      { servers: ["fs", "web"], maxReferenceBytes: 5000 },
      loaded,
      {},
    );
    expect(Object.keys(settings.servers)).toEqual(["fs", "web"]);
    expect(settings.namespace).toBe(true);
    expect(settings.limits.maxInlineBytes).toBe(2048);
    expect(settings.limits.maxReferenceBytes).toBe(5000);
    expect(settings.durability).toBe("normal");
    expect(settings.sampling.concurrency).toBe(2);
    expect(settings.extraction.models?.map((m) => m.ref)).toEqual(["openai/gpt-4.1-mini"]);
    const one = resolveGatewaySettings({ servers: ["fs"] }, loaded, {});
    expect(one.namespace).toBe(false);
    expect(resolveGatewaySettings({ servers: ["fs"], namespace: true }, loaded, {}).namespace).toBe(
      true,
    );
  });

  it("names what is wrong: unknown servers, both forms, neither", async () => {
    const loaded = await config({ mcpServers: { fs: { command: "fs-server" } } });
    const unknown = thrown(() => resolveGatewaySettings({ servers: ["fs", "nope"] }, loaded, {}));
    expect(isSpillwayError(unknown, "CONFIG_INVALID")).toBe(true);
    expect(unknown.message).toContain('--servers names "nope", not defined in the config file');
    expect(unknown.message).toContain("defined: fs");
    const both = thrown(() =>
      resolveGatewaySettings({ servers: ["fs"], command: ["x"] }, loaded, {}),
    );
    expect(both.message).toContain("not both");
    const neither = thrown(() => resolveGatewaySettings({}, undefined, {}));
    expect(neither.message).toContain("No MCP server to wrap");
  });

  it("rejects an invalid gateway section, naming the key", async () => {
    const error = await config({ gateway: { durability: "sometimes" } }).catch(
      (e: unknown) => e as Error,
    );
    expect(isSpillwayError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toContain("gateway.durability");
  });
});

describe("extractionSource", () => {
  const settings = resolveGatewaySettings({ command: ["x"] }, undefined, {});
  it("prefers the client's model, then a configured one, else says why there is none", () => {
    expect(extractionSource(settings, { sampling: {} })).toEqual({ kind: "sampling" });
    const off = { ...settings, sampling: { ...settings.sampling, enabled: false } };
    const none = extractionSource(off, { sampling: {} });
    expect(none.kind).toBe("none");
    expect(none.kind === "none" && none.reason).toContain("sampling is turned off (--no-sampling)");
    const configured = resolveGatewaySettings(
      { command: ["x"], extractionModels: ["ollama/qwen2.5:7b"] },
      undefined,
      {},
    );
    expect(extractionSource(configured, {})).toEqual({
      kind: "model",
      refs: ["ollama/qwen2.5:7b"],
    });
  });
});

describe("--http values", () => {
  it("parses a port, host:port and [v6]:port, and refuses the rest", () => {
    expect(hostPort("8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(hostPort("0.0.0.0:0")).toEqual({ host: "0.0.0.0", port: 0 });
    expect(hostPort("[::1]:9000")).toEqual({ host: "::1", port: 9000 });
    expect(() => hostPort("70000")).toThrow(/Valid: \[host:\]port/);
    expect(() => hostPort("localhost")).toThrow(/Valid/);
  });
});

describe("a gateway whose every server fails to start", () => {
  it("refuses the client's initialize, naming the failure, and records the session failed", async () => {
    const home = await tempDir();
    const error = await startTestGateway({
      home,
      servers: { broken: { command: "/nonexistent/spillway-no-such-server" } },
    }).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/no server behind the gateway started: .*broken/);
    const stores = await openSqliteStores({ home });
    try {
      const [session] = await stores.history.listSessions();
      expect(session).toMatchObject({ agentName: "mcp-gateway", status: "failed" });
      expect(session?.error).toContain("broken");
    } finally {
      await stores.close();
    }
  });
});

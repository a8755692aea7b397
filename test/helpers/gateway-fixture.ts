/**
 * A gateway for tests, in process: a real GatewaySession (the SDK Server) linked to a real SDK
 * Client by the SDK's in-memory transport, in front of real MCP servers run as child processes
 * (the everything fixture, server-filesystem), over a real SQLite store in a temporary home.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServerSpec } from "../../src/config/index.js";
import { GatewaySession } from "../../src/gateway/gateway-session.js";
import {
  type GatewayCliOptions,
  type GatewaySettings,
  resolveGatewaySettings,
} from "../../src/gateway/gateway-settings.js";
import { openSqliteStores, type SpillwayStores } from "../../src/store/sqlite-history-store.js";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** The everything fixture server (test/fixtures/everything-server.ts) as a stdio spec. */
export function everythingServer(): { command: string; args: string[] } {
  const tsx = pathToFileURL(require.resolve("tsx")).href;
  return {
    command: process.execPath,
    args: ["--import", tsx, join(here, "..", "fixtures", "everything-server.ts")],
  };
}

/** The real @modelcontextprotocol/server-filesystem, allowed under `root`. */
export function filesystemServer(
  root: string,
  preload?: string,
): { command: string; args: string[] } {
  const packageJson = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
  const { bin } = require(packageJson) as { bin: Record<string, string> };
  const entry = join(dirname(packageJson), Object.values(bin)[0] ?? "dist/index.js");
  return {
    command: process.execPath,
    args: [...(preload ? ["--import", pathToFileURL(preload).href] : []), entry, root],
  };
}

/** A running in-process gateway and a connected client. */
export interface TestGateway {
  readonly client: Client;
  readonly session: GatewaySession;
  readonly stores: SpillwayStores;
  readonly settings: GatewaySettings;
  readonly home: string;
  /** Lines the gateway logged. */
  readonly logs: string[];
  /** Closes client, session (servers) and store; removes the home unless `keepHome`. */
  close(options?: { keepHome?: boolean }): Promise<void>;
}

/** Options of {@link startTestGateway}. */
export interface TestGatewayOptions {
  readonly servers?: Record<string, McpServerSpec>;
  readonly cli?: GatewayCliOptions;
  readonly settings?: (settings: GatewaySettings) => GatewaySettings;
  /** Client capabilities (sampling, elicitation, roots); register handlers in `setup`. */
  readonly capabilities?: Record<string, unknown>;
  readonly setup?: (client: Client) => void;
  readonly home?: string;
  readonly resume?: string;
}

/**
 * Starts a gateway in front of the everything fixture (or `servers`) and connects a client.
 *
 * @example
 * const gateway = await startTestGateway();
 * const result = await gateway.client.callTool({ name: "test_simple_text", arguments: {} });
 * await gateway.close();
 */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const home = options.home ?? (await mkdtemp(join(tmpdir(), "spillway-gateway-")));
  const stores = await openSqliteStores({ home });
  const servers = options.servers ?? { everything: everythingServer() };
  const names = Object.keys(servers);
  const base = resolveGatewaySettings({ command: ["unused"], ...options.cli }, undefined, {});
  const resolved: GatewaySettings = {
    ...base,
    servers,
    namespace: names.length > 1 || (options.cli?.namespace ?? false),
  };
  const settings = options.settings ? options.settings(resolved) : resolved;
  const logs: string[] = [];
  const session = new GatewaySession({
    settings,
    stores,
    ids: (prefix) => `${prefix}_${Math.random().toString(36).slice(2, 12).padEnd(10, "0")}`,
    clock: Date.now,
    description: "test gateway",
    serverInfo: { name: "spillway", version: "test" },
    log: (line) => logs.push(line),
    ...(options.resume ? { resume: options.resume } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client(
    { name: "gateway-test", version: "1.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  options.setup?.(client);
  try {
    await client.connect(clientSide);
  } catch (error) {
    await session.close();
    await stores.close();
    if (!options.home) await rm(home, { recursive: true, force: true });
    throw error;
  }
  return {
    client,
    session,
    stores,
    settings,
    home,
    logs,
    close: async (closeOptions = {}) => {
      await client.close();
      await session.close();
      await stores.close();
      if (!closeOptions.keepHome && !options.home) await rm(home, { recursive: true, force: true });
    },
  };
}

/** The text of a result's first text block. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((c) => c.type === "text")?.text ?? "";
}

/** The output id a handle result names (its first resource link). */
export function handleId(result: unknown): string {
  const content = (result as { content?: { type: string; name?: string }[] }).content ?? [];
  const link = content.find((c) => c.type === "resource_link");
  if (!link?.name) throw new Error(`not a handle result: ${JSON.stringify(result).slice(0, 300)}`);
  return link.name;
}

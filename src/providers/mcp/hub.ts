/**
 * The MCP hub: every configured server connected in parallel, their tools under one namespace,
 * calls routed by name, failures recorded instead of thrown.
 */

import { SpillwayError } from "../../core/errors.js";
import { serverDownError, unknownToolError } from "./mcp-errors.js";
import { McpServerConnection } from "./server-connection.js";
import { namespaceTools, SERVER_NAME_PATTERN } from "./tool-names.js";
import {
  isStdioSpec,
  type McpCallOptions,
  type McpCallResult,
  type McpHubOptions,
  type McpMessage,
  type McpServerFailure,
  type McpServerSpec,
  type McpServerStatus,
  type McpToolInfo,
  resolveHubOptions,
} from "./types.js";

type Route = { connection: McpServerConnection; toolName: string };

/**
 * Connected MCP servers and their tools. Create one with {@link connectMcpServers}.
 *
 * The tool catalog is fixed at connect time, so the model's tool list stays stable: a server
 * that dies later keeps its tools listed, and calls to them fail with `MCP_SERVER_FAILED` (or
 * restart it, see `maxRestarts`).
 */
export class McpHub {
  readonly #connections: McpServerConnection[];
  readonly #catalog: McpToolInfo[];
  readonly #routes: Map<string, Route>;
  #closing: Promise<void> | undefined;

  private constructor(connections: McpServerConnection[]) {
    this.#connections = connections;
    const named = namespaceTools(
      connections.flatMap((c) => c.tools.map((tool) => ({ server: c.name, toolName: tool.name }))),
    );
    const byServer = new Map(connections.map((c) => [c.name, c]));
    this.#routes = new Map();
    this.#catalog = named.map(({ name, server, toolName }) => {
      const connection = byServer.get(server)!;
      const tool = connection.tools.find((t) => t.name === toolName)!;
      this.#routes.set(name, { connection, toolName });
      return {
        name,
        server,
        toolName,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema as Record<string, unknown>,
        definition: tool as Record<string, unknown>,
      };
    });
  }

  /** Connects to every server in parallel; see {@link connectMcpServers}. */
  static async connect(
    servers: Record<string, McpServerSpec>,
    options: McpHubOptions = {},
  ): Promise<McpHub> {
    const resolved = resolveHubOptions(options);
    const connections = Object.entries(servers).map(([name, spec]) => {
      validateServer(name, spec);
      return new McpServerConnection(name, spec, resolved);
    });
    await Promise.all(connections.map((c) => c.connect()));
    return new McpHub(connections);
  }

  /** Every tool of every server that connected, namespaced `server__tool`. */
  tools(): McpToolInfo[] {
    return this.#catalog.map((tool) => ({ ...tool }));
  }

  /** Servers that cannot be used: failed to start, or died with no restart left. */
  failures(): McpServerFailure[] {
    return this.servers().flatMap((s) =>
      s.state === "failed" && s.error ? [{ server: s.server, error: s.error }] : [],
    );
  }

  /** The state of every configured server, in configuration order. */
  servers(): McpServerStatus[] {
    return this.#connections.map((c) => c.status());
  }

  /**
   * Calls a tool by its namespaced name. Resolves with the tool's result (also when the tool
   * reports `isError`); rejects with a `SpillwayError`: `UNKNOWN_TOOL`, `MCP_SERVER_FAILED`
   * (the server is down or died during the call), `TOOL_TIMEOUT`, `ABORTED`, `TOOL_FAILED`
   * or `INVALID_TOOL_ARGUMENTS` (the server rejected the request).
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: McpCallOptions = {},
  ): Promise<McpCallResult> {
    const route = this.#routes.get(name);
    if (!route) {
      // A tool of a server that failed to start: say why, rather than "unknown".
      const failed = this.failures().find((f) => name.startsWith(`${f.server}__`));
      if (failed) throw serverDownError(failed.server, name, failed.error);
      throw unknownToolError(name, [...this.#routes.keys()]);
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      throw new SpillwayError(
        "INVALID_TOOL_ARGUMENTS",
        `Tool ${name} takes a JSON object of arguments, not ${Array.isArray(args) ? "an array" : String(args)}.`,
        { tool: name },
        { fault: "model" },
      );
    }
    return route.connection.callTool(route.toolName, name, args, options);
  }

  /**
   * Sends any request to one server (resources, prompts, completion, logging, …) and resolves
   * with its result as the server sent it. Rejects like {@link callTool}; a method the server
   * did not declare in its capabilities is `TOOL_FAILED` without being sent.
   *
   * @example
   * const { resources } = await hub.request("docs", { method: "resources/list" });
   */
  async request(
    server: string,
    request: McpMessage,
    options: McpCallOptions = {},
  ): Promise<Record<string, unknown>> {
    const connection = this.#connections.find((c) => c.name === server);
    if (!connection) {
      throw new SpillwayError(
        "MCP_SERVER_FAILED",
        `No MCP server named "${server}" is configured; configured: ${this.#connections.map((c) => c.name).join(", ") || "none"}.`,
        { server, reason: "unknown_server" },
        { fault: "internal" },
      );
    }
    return connection.request(request, options);
  }

  /** Closes every server (stdio children are ended, then killed); resolves when all are gone. */
  close(): Promise<void> {
    this.#closing ??= Promise.all(this.#connections.map((c) => c.close())).then(() => {});
    return this.#closing;
  }
}

/**
 * Connects to MCP servers in parallel (stdio and Streamable HTTP) and lists their tools.
 *
 * Never rejects because a server fails to start: the failure is in `hub.failures()` as
 * `MCP_SERVER_FAILED` and that server's tools are absent. Rejects with `CONFIG_INVALID` only for
 * a server name outside `[a-zA-Z0-9_-]+` or a spec that is not a command or a valid http(s) URL.
 *
 * @example
 * const hub = await connectMcpServers({
 *   fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
 *   search: { url: "https://mcp.example.com/mcp", headers: { authorization: "Bearer …" } },
 * });
 * for (const { server, error } of hub.failures()) console.warn(server, error.message);
 * const result = await hub.callTool("fs__read_text_file", { path: "/tmp/app.log" });
 * await hub.close();
 */
export function connectMcpServers(
  servers: Record<string, McpServerSpec>,
  options: McpHubOptions = {},
): Promise<McpHub> {
  return McpHub.connect(servers, options);
}

function validateServer(name: string, spec: McpServerSpec): void {
  const invalid = (problem: string) =>
    new SpillwayError(
      "CONFIG_INVALID",
      `MCP server "${name}": ${problem}.`,
      { server: name, problem },
      { fault: "user" },
    );
  if (!SERVER_NAME_PATTERN.test(name)) {
    throw invalid(
      'the name must be letters, digits, "_" or "-" (it prefixes the server\'s tool names)',
    );
  }
  if (isStdioSpec(spec)) {
    if (typeof spec.command !== "string" || spec.command === "") throw invalid("command is empty");
    return;
  }
  if (typeof spec.url !== "string") throw invalid('give either "command" or "url"');
  let url: URL;
  try {
    url = new URL(spec.url);
  } catch {
    throw invalid(`url ${JSON.stringify(spec.url)} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`url ${JSON.stringify(spec.url)} must be http: or https:`);
  }
}

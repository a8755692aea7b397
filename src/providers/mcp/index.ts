/**
 * MCP client layer: connect to MCP servers (stdio and Streamable HTTP), expose their tools under
 * provider-safe namespaced names, call them with typed errors, and carry results of hundreds of
 * MB without loss.
 */

/**
 * Connects to MCP servers in parallel and returns an {@link McpHub}. Servers that fail to start
 * are recorded in `hub.failures()` instead of rejecting.
 *
 * @example
 * const hub = await connectMcpServers({ fs: { command: "mcp-server-filesystem", args: ["/data"] } });
 * hub.tools().map((t) => t.name); // ["fs__read_text_file", …]
 * const { content } = await hub.callTool("fs__read_text_file", { path: "/data/app.log" });
 * await hub.close();
 */
/**
 * Connected servers and their tools: `tools()`, `callTool()`, `failures()`, `servers()`, `close()`.
 *
 * @example
 * const hub: McpHub = await McpHub.connect({ docs: { url: "http://localhost:3000/mcp" } });
 * const result = await hub.callTool("docs__search", { query: "retry" }, { timeoutMs: 10_000 });
 * if (result.isError) console.warn("the tool reported an error", result.content);
 */
export { connectMcpServers, McpHub } from "./hub.js";

/**
 * A stdio transport for the SDK `Client` without the SDK's 10 MiB message cap and quadratic
 * buffering: linear framing, a 2 GiB - 1 default limit, stderr kept as a tail, writes that wait
 * for "drain". Use it directly only when you drive an SDK `Client` yourself.
 *
 * @example
 * const transport = new McpStdioClientTransport({ command: "node", args: ["server.js"] });
 * const client = new Client({ name: "me", version: "1.0.0" });
 * await client.connect(transport);
 * transport.pid; // the child's process id
 */
export { McpStdioClientTransport, type McpStdioTransportOptions } from "./stdio-transport.js";

/**
 * Provider-safe namespaced names for `(server, tool)` pairs (`server__tool`, at most 64 of
 * `[a-zA-Z0-9_-]`, unique). The hub uses it; exported for callers that build their own catalogs.
 *
 * @example
 * namespaceTools([{ server: "fs", toolName: "read.file" }])[0]?.name; // "fs__read_file"
 */
export { namespaceTools } from "./tool-names.js";

/**
 * Data types: server specs, the tool catalog, results and options.
 *
 * @example
 * const servers: Record<string, McpServerSpec> = {
 *   fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
 *   remote: { url: "https://mcp.example.com/mcp" },
 * };
 * const text = (r: McpCallResult) =>
 *   r.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
 */
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  type McpCallOptions,
  type McpCallResult,
  type McpContent,
  type McpHttpServerSpec,
  type McpHubOptions,
  type McpMessage,
  type McpProgress,
  type McpServerFailure,
  type McpServerHandshake,
  type McpServerRequestHandler,
  type McpServerSpec,
  type McpServerState,
  type McpServerStatus,
  type McpStdioServerSpec,
  type McpToolInfo,
} from "./types.js";

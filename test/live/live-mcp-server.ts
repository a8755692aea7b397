#!/usr/bin/env node
/**
 * The MCP server of the live scenarios: one tool per scenario, returning seeded data from
 * scenario-data.ts. `node --import tsx test/live/live-mcp-server.ts <tool> <seed> [size] [at]`.
 * Few tools, short descriptions: a small local model reads every tool definition each turn.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { buildReport, incidentLog, numberedLines, ordersJson, token } from "./scenario-data.js";

const [tool = "read_log", seedText = "1", sizeText = "200", atText = "0.5", shape = ""] =
  process.argv.slice(2);
const seed = Number(seedText);
const size = Number(sizeText);
const at = Number(atText);
const server = new McpServer({ name: "spillway-live", version: "1.0.0" });
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

switch (tool) {
  case "read_log":
    server.registerTool(
      "read_log",
      { description: "Return the payment service log.", inputSchema: {} },
      () => text(incidentLog(seed, size, at).text),
    );
    break;
  case "get_orders":
    server.registerTool(
      "get_orders",
      { description: "Return all orders as JSON.", inputSchema: {} },
      () => text(ordersJson(seed, size, shape !== "minified").text),
    );
    break;
  case "get_records":
    server.registerTool(
      "get_records",
      { description: "Return the numbered records.", inputSchema: {} },
      () => text(numberedLines(seed, size, Math.round(size * at)).text),
    );
    break;
  case "get_build_report":
    server.registerTool(
      "get_build_report",
      { description: "Return the latest build report.", inputSchema: {} },
      () => text(buildReport(seed, size).text),
    );
    break;
  case "build_status":
    server.registerTool(
      "build_status",
      {
        description: "Wait for the running build to finish and return its result.",
        inputSchema: {},
      },
      async () => {
        await new Promise((resolve) => setTimeout(resolve, size * 1000));
        return text(`build finished: artifact digest sha-${token(seed, "artifact", 12)}`);
      },
    );
    break;
  case "vault_lookup":
    server.registerTool(
      "vault_lookup",
      { description: "Look up the current deploy key.", inputSchema: {} },
      async () => {
        await new Promise((resolve) => setTimeout(resolve, size * 1000));
        return text(`deploy key: KEY-${token(seed, "vault", 10).toUpperCase()}`);
      },
    );
    break;
  default:
    throw new Error(`unknown live tool ${tool}`);
}
await server.connect(new StdioServerTransport());

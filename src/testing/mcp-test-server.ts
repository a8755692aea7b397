#!/usr/bin/env node
/**
 * The test MCP server as a stdio process: `node dist/testing/mcp-test-server.js`, or from
 * source `node --import tsx src/testing/mcp-test-server.ts`. Spawn it with
 * {@link testMcpServerCommand} (from `spillway/testing`); this file only runs the server.
 *
 * Large results: the SDK's StdioServerTransport writes each message as one JSON line with a
 * single `stdout.write` and waits for `drain` when the pipe is full, and stdout to a pipe is
 * asynchronous on Linux, so a 100 MB result is queued whole and flushed while the process
 * lives. The only way to lose its tail is to exit early; this process never calls
 * `process.exit` except in the `crash` tool, and on stdin EOF it only stops running `slow`
 * calls, letting pending writes finish before the event loop empties.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createTestMcpServer } from "./mcp-test-tools.js";

const shutdown = new AbortController();
const server = createTestMcpServer({ shutdownSignal: shutdown.signal });
process.stdin.once("end", () => shutdown.abort());
await server.connect(new StdioServerTransport());

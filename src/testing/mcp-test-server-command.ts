/**
 * How to spawn the test MCP server (a separate module from the server script, so importing
 * `spillway/testing` never starts a server on this process's stdio).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A command to spawn: pass to StdioClientTransport or child_process.spawn. */
export interface SpawnCommand {
  command: string;
  args: string[];
}

/**
 * The command that starts the test MCP server over stdio. From the built package (this module
 * is `dist/testing/*.js`) that is `node dist/testing/mcp-test-server.js`; from source (vitest
 * runs `src/testing/*.ts`) it is `node --import <tsx> src/testing/mcp-test-server.ts`. The
 * server file is looked up beside this module, so tests of the source never run a stale build.
 *
 * @example
 * const { command, args } = testMcpServerCommand();
 * const transport = new StdioClientTransport({ command, args, maxBufferSize: 256 * 1024 * 1024 });
 * const client = new Client({ name: "test", version: "1.0.0" });
 * await client.connect(transport);
 */
export function testMcpServerCommand(): SpawnCommand {
  const built = fileURLToPath(new URL("./mcp-test-server.js", import.meta.url));
  if (existsSync(built)) return { command: process.execPath, args: [built] };
  const source = fileURLToPath(new URL("./mcp-test-server.ts", import.meta.url));
  return { command: process.execPath, args: ["--import", tsxLoader(), source] };
}

/** tsx's loader as an absolute file URL, so the child resolves it whatever its cwd. */
function tsxLoader(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  } catch {
    return "tsx";
  }
}

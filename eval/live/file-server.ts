/**
 * The file tool every policy's agent reads with: the real `@modelcontextprotocol/server-filesystem`
 * over stdio. spillway's runtime starts it from the plain agent file (agent-file.ts); the peers'
 * loop starts the same server with the same arguments through the MCP SDK's client and offers its
 * `read_text_file` tool with the server's own schema, every argument visible (head and tail too).
 */
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The server's entry point, as installed from npm. */
export const FILE_SERVER_PATH = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-filesystem/dist/index.js",
);

/** The one server tool the plain agent file lists. */
export const FILE_TOOL = "read_text_file";
/** The name the model sees: `<server>__<tool>`, as spillway's runtime names MCP tools. */
export const FILE_TOOL_NAME = `fs__${FILE_TOOL}`;

export interface FileServer {
  /** The tool as the server declares it. */
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** Calls the tool; its text (an error's text too, marked as the server marks it). */
  call(args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the server over `dataDir` with `cwd` as its working directory (relative paths in a
 * question resolve against it, as they do for spillway's agent).
 *
 * @example
 * const fs = await connectFileServer("/tmp/run/data", "/tmp/run");
 * const text = await fs.call({ path: "data/01-app.log", tail: 20 });
 */
export async function connectFileServer(dataDir: string, cwd: string): Promise<FileServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FILE_SERVER_PATH, dataDir],
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "spillway-eval-peer", version: "1.0.0" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === FILE_TOOL);
  if (!tool) throw new Error(`eval:live: the file server has no ${FILE_TOOL} tool`);
  return {
    description: tool.description ?? "",
    inputSchema: tool.inputSchema as Record<string, unknown>,
    async call(args) {
      try {
        const result = await client.callTool({ name: FILE_TOOL, arguments: args });
        const content = (result.content ?? []) as { type: string; text?: string }[];
        const text = content
          .filter((c) => c.type === "text")
          .map((c) => c.text ?? "")
          .join("\n");
        return result.isError ? `Error: ${text}` : text;
      } catch (error) {
        return `Error: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
    close: () => client.close(),
  };
}

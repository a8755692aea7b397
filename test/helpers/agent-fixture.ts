import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openSqliteStores, type SpillwayStores } from "../../src/store/sqlite-history-store.js";
import {
  type Responder,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../../src/testing/index.js";
import { testMcpServerCommand } from "../../src/testing/mcp-test-server-command.js";
import { onCleanup, tempDir } from "./temp-store.js";

/** The model ref that reaches the scripted server through the real openai-compatible provider. */
export const SCRIPTED_MODEL = "openai-compatible/scripted/scripted-policy";

export interface AgentFixture {
  readonly dir: string;
  readonly home: string;
  readonly server: ScriptedModelServer;
  readonly stores: SpillwayStores;
  /** Writes an agent file in the fixture directory and returns its path. */
  agent(name: string, frontmatter: Record<string, unknown>, body?: string): Promise<string>;
}

function yamlValue(value: unknown, indent: string): string {
  if (Array.isArray(value)) return value.map((v) => `\n${indent}- ${JSON.stringify(v)}`).join("");
  if (typeof value === "object" && value !== null) {
    return Object.entries(value)
      .map(
        ([k, v]) =>
          `\n${indent}${JSON.stringify(k)}:${typeof v === "object" && v !== null ? yamlValue(v, `${indent}  `) : ` ${JSON.stringify(v)}`}`,
      )
      .join("");
  }
  return ` ${JSON.stringify(value)}`;
}

/**
 * A scripted model server, a config file pointing the `scripted` openai-compatible provider at
 * it, a store, and a helper to write agent files that use the test MCP server.
 */
export async function agentFixture(respond: Responder): Promise<AgentFixture> {
  const dir = await tempDir("spillway-agent-");
  const home = join(dir, "home");
  const server = await startScriptedModelServer({ respond });
  onCleanup(() => server.close());
  await writeFile(
    join(dir, "spillway.config.json"),
    JSON.stringify({
      providers: { "openai-compatible": { scripted: { baseURL: server.baseURL } } },
    }),
  );
  const stores = await openSqliteStores({ home });
  onCleanup(() => stores.close());
  return {
    dir,
    home,
    server,
    stores,
    agent: async (name, frontmatter, body = "You are a careful test agent.") => {
      const path = join(dir, `${name}.md`);
      const lines = Object.entries({ models: [SCRIPTED_MODEL], ...frontmatter }).map(
        ([key, value]) => `${key}:${yamlValue(value, "  ")}`,
      );
      await writeFile(path, `---\n${lines.join("\n")}\n---\n${body}\n`);
      return path;
    },
  };
}

/** The test MCP server as an agent's `mcpServers` entry. */
export function testServerSpec(): { command: string; args: string[] } {
  const command = testMcpServerCommand();
  return { command: command.command, args: [...command.args] };
}

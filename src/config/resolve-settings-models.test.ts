import { describe, expect, it } from "vitest";
import { failureOf } from "../../test/helpers/spillway-failure.js";
import { type AgentDefinition, parseAgentFile } from "./agent-file.js";
import { configSchema, type LoadedConfig } from "./config-schema.js";
import { type CliSettings, resolveSettings } from "./resolve-settings.js";

const CONFIG_PATH = "/project/spillway.config.yaml";

function config(data: unknown): LoadedConfig {
  return { path: CONFIG_PATH, format: "yaml", config: configSchema.parse(data) };
}

/** An agent whose frontmatter is the given values (written as JSON, which YAML reads). */
function agent(frontmatter: Record<string, unknown>): Promise<AgentDefinition> {
  return parseAgentFile(`---\n${JSON.stringify(frontmatter)}\n---\nPrompt.`, "/agents/a.md");
}

const failure = failureOf;

const NO_ENV = {};

describe("resolveSettings: contextWindow per model", () => {
  const models = ["openai/gpt-4.1", "ollama/llama3", "anthropic/claude-sonnet-4-5"];
  const table = { models: { "ollama/llama3": { contextWindow: 8192 } } };

  it.each([
    {
      name: "built-in table",
      cli: {},
      fm: {},
      cfg: {},
      expected: {
        "openai/gpt-4.1": [1047576, "default"],
        "ollama/llama3": [32768, "default"],
        "anthropic/claude-sonnet-4-5": [200000, "default"],
      },
    },
    {
      name: "config models table beats the built-in table",
      cli: {},
      fm: {},
      cfg: table,
      expected: {
        "openai/gpt-4.1": [1047576, "default"],
        "ollama/llama3": [8192, "config"],
        "anthropic/claude-sonnet-4-5": [200000, "default"],
      },
    },
    {
      name: "in the config file, the models table beats a defaults integer",
      cli: {},
      fm: {},
      cfg: { ...table, defaults: { contextWindow: 50000 } },
      expected: {
        "openai/gpt-4.1": [50000, "config"],
        "ollama/llama3": [8192, "config"],
        "anthropic/claude-sonnet-4-5": [50000, "config"],
      },
    },
    {
      name: "a defaults map entry beats the models table",
      cli: {},
      fm: {},
      cfg: { ...table, defaults: { contextWindow: { "ollama/llama3": 4096 } } },
      expected: {
        "openai/gpt-4.1": [1047576, "default"],
        "ollama/llama3": [4096, "config"],
        "anthropic/claude-sonnet-4-5": [200000, "default"],
      },
    },
    {
      name: "a frontmatter integer applies to every model and beats the config file",
      cli: {},
      fm: { contextWindow: 64000 },
      cfg: table,
      expected: {
        "openai/gpt-4.1": [64000, "frontmatter"],
        "ollama/llama3": [64000, "frontmatter"],
        "anthropic/claude-sonnet-4-5": [64000, "frontmatter"],
      },
    },
    {
      name: "a frontmatter map sets only its models",
      cli: {},
      fm: { contextWindow: { "ollama/llama3": 16000 } },
      cfg: { defaults: { contextWindow: 50000 } },
      expected: {
        "openai/gpt-4.1": [50000, "config"],
        "ollama/llama3": [16000, "frontmatter"],
        "anthropic/claude-sonnet-4-5": [50000, "config"],
      },
    },
    {
      name: "a CLI map entry beats a frontmatter integer",
      cli: { contextWindow: { "openai/gpt-4.1": 500000 } },
      fm: { contextWindow: 64000 },
      cfg: table,
      expected: {
        "openai/gpt-4.1": [500000, "cli"],
        "ollama/llama3": [64000, "frontmatter"],
        "anthropic/claude-sonnet-4-5": [64000, "frontmatter"],
      },
    },
    {
      name: "a CLI integer beats everything",
      cli: { contextWindow: 1000 },
      fm: { contextWindow: { "ollama/llama3": 16000 } },
      cfg: table,
      expected: {
        "openai/gpt-4.1": [1000, "cli"],
        "ollama/llama3": [1000, "cli"],
        "anthropic/claude-sonnet-4-5": [1000, "cli"],
      },
    },
  ])("$name", async ({ cli, fm, cfg, expected }) => {
    const settings = resolveSettings({
      cli: cli as CliSettings,
      agent: await agent({ models, ...fm }),
      config: config(cfg),
      env: NO_ENV,
    });
    for (const [ref, [value, source]] of Object.entries(expected)) {
      expect(settings.contextWindow[ref], ref).toBe(value);
      expect(settings.sources[`contextWindow.${ref}`], ref).toBe(source);
    }
  });

  it("covers extraction models and map entries for other models", async () => {
    const settings = resolveSettings({
      agent: await agent({
        models: "openai/gpt-4o-mini",
        extraction: { models: "ollama/phi3" },
        contextWindow: { "openai-compatible/vllm/org/model-x": 9000 },
      }),
      env: NO_ENV,
    });
    expect(settings.contextWindow).toEqual({
      "openai/gpt-4o-mini": 128000,
      "ollama/phi3": 32768,
      "openai-compatible/vllm/org/model-x": 9000,
    });
  });
});

describe("resolveSettings: mcpServers", () => {
  const servers = config({
    mcpServers: {
      fs: { command: "npx", args: ["server-fs"] },
      web: { url: "https://example.com/mcp" },
    },
  });

  it("looks up a list of names in the config file", async () => {
    const settings = resolveSettings({
      agent: await agent({ mcpServers: ["web"] }),
      config: servers,
      env: NO_ENV,
    });
    expect(settings.mcpServers).toEqual({ web: { url: "https://example.com/mcp" } });
    expect(settings.sources.mcpServers).toBe("frontmatter");
  });

  it("uses frontmatter specs, and CLI settings before them", async () => {
    const fromAgent = await agent({
      mcpServers: { local: { command: "node", args: ["s.js"], cwd: "srv" } },
    });
    const settings = resolveSettings({ agent: fromAgent, config: servers, env: NO_ENV });
    expect(settings.mcpServers).toEqual({
      local: { command: "node", args: ["s.js"], cwd: "/agents/srv" },
    });
    const cli = resolveSettings({
      cli: { mcpServers: ["fs"] },
      agent: fromAgent,
      config: servers,
      env: NO_ENV,
    });
    expect(cli.mcpServers).toEqual({ fs: { command: "npx", args: ["server-fs"] } });
    expect(cli.sources.mcpServers).toBe("cli");
  });

  it("has none when nothing names any (the config file's servers are a catalog)", () => {
    expect(resolveSettings({ config: servers, env: NO_ENV }).mcpServers).toEqual({});
  });

  it("rejects an unknown name, listing the config file's servers", async () => {
    const fromAgent = await agent({ mcpServers: ["fs", "github"] });
    const error = failure(() =>
      resolveSettings({ agent: fromAgent, config: servers, env: NO_ENV }),
    );
    expect(error.code).toBe("AGENT_FILE_INVALID");
    expect(error.message).toBe(
      'Invalid agent file /agents/a.md: mcpServers names server "github" that the config file does ' +
        `not define; the config file ${CONFIG_PATH} defines these servers: fs, web. Define it under ` +
        "mcpServers in the config file, or give the server spec ({ command, args } or { url }) in the agent file.",
    );
    expect(error.details).toMatchObject({
      file: "/agents/a.md",
      value: ["github"],
      available: ["fs", "web"],
    });
  });

  it("says when there is no config file to look names up in", async () => {
    const fromAgent = await agent({ mcpServers: ["fs"] });
    const missing = failure(() => resolveSettings({ agent: fromAgent, env: NO_ENV }));
    expect(missing.message).toContain("no config file was found");
  });
});

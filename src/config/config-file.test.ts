import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { asyncFailureOf } from "../../test/helpers/spillway-failure.js";
import { projectDirs, writeText } from "../../test/helpers/temp-dirs.js";
import { loadConfigFile } from "./config-file.js";

const dirs = projectDirs();
let cwd = "";
beforeEach(() => {
  cwd = dirs.cwd;
});
const write = writeText;

const failure = asyncFailureOf;

const YAML_CONFIG = `# spillway config
providers:
  openai:
    apiKeyEnv: MY_OPENAI_KEY
  anthropic:
    baseURL: https://proxy.example.com/anthropic
  ollama:
    baseURL: http://gpu-box:11434/v1
  openai-compatible:
    vllm:
      baseURL: http://localhost:8000/v1
      apiKeyEnv: VLLM_KEY
      headers: { X-Team: search }
models:
  openai/gpt-4.1:
    contextWindow: 1000000
    maxOutputTokens: 8192
    tokenizer: o200k_base
    pricing: { inputPerMTok: 2, outputPerMTok: 8 }
mcpServers:
  fs: { command: npx, args: [-y, server-fs], cwd: data }
  web: { url: "https://example.com/mcp" }
defaults:
  models: [openai/gpt-4.1, ollama/qwen2.5:7b]
  maxTurns: 40
  toolOutput: { continuationChars: 8000 }
`;

describe("loadConfigFile", () => {
  it("loads YAML and resolves server cwd against the config file's folder", async () => {
    const path = write(join(cwd, "spillway.config.yaml"), YAML_CONFIG);
    const loaded = await loadConfigFile(path);
    expect(loaded.path).toBe(path);
    expect(loaded.format).toBe("yaml");
    expect(loaded.config.providers).toEqual({
      openai: { apiKeyEnv: "MY_OPENAI_KEY" },
      anthropic: { baseURL: "https://proxy.example.com/anthropic" },
      ollama: { baseURL: "http://gpu-box:11434/v1" },
      "openai-compatible": {
        vllm: {
          baseURL: "http://localhost:8000/v1",
          apiKeyEnv: "VLLM_KEY",
          headers: { "X-Team": "search" },
        },
      },
    });
    expect(loaded.config.models["openai/gpt-4.1"]).toEqual({
      contextWindow: 1000000,
      maxOutputTokens: 8192,
      tokenizer: "o200k_base",
      pricing: { inputPerMTok: 2, outputPerMTok: 8 },
    });
    expect(loaded.config.mcpServers).toEqual({
      fs: { command: "npx", args: ["-y", "server-fs"], cwd: join(cwd, "data") },
      web: { url: "https://example.com/mcp" },
    });
    expect(loaded.config.defaults.maxTurns).toBe(40);
    expect(loaded.config.defaults.models?.map((model) => model.ref)).toEqual([
      "openai/gpt-4.1",
      "ollama/qwen2.5:7b",
    ]);
  });

  it("loads JSON the same way", async () => {
    const path = write(
      join(cwd, "spillway.config.json"),
      JSON.stringify({ $schema: "x", defaults: { maxTurns: 7, stream: true } }, null, 2),
    );
    const loaded = await loadConfigFile(path);
    expect(loaded.format).toBe("json");
    expect(loaded.config).toEqual({
      $schema: "x",
      providers: {},
      models: {},
      mcpServers: {},
      defaults: { maxTurns: 7, stream: true },
    });
  });

  it("treats an empty YAML file as an empty config", async () => {
    const loaded = await loadConfigFile(write(join(cwd, "spillway.config.yml"), "# nothing yet\n"));
    expect(loaded.config).toEqual({ providers: {}, models: {}, mcpServers: {}, defaults: {} });
  });

  it("reports malformed JSON with line and column", async () => {
    const path = write(
      join(cwd, "spillway.config.json"),
      '{\n  "defaults": {\n    "maxTurns": ,\n  }\n}',
    );
    const error = await failure(() => loadConfigFile(path));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `Invalid config file ${path}: malformed JSON at line 3, column 17: expected a value, found ",".`,
    );
    expect(error.details).toMatchObject({ file: path, line: 3, column: 17 });
  });

  it("reports a trailing comma and an unterminated JSON document", async () => {
    const comma = write(join(cwd, "a.json"), '{"defaults": {"maxTurns": 5,}}');
    expect((await failure(() => loadConfigFile(comma))).message).toContain(
      "malformed JSON at line 1, column 29: expected a property name in double quotes",
    );
    const open = write(join(cwd, "b.json"), '{\n"defaults": {}\n');
    expect((await failure(() => loadConfigFile(open))).message).toContain(
      'malformed JSON at line 3, column 1: expected "," or "}", found the end of the file',
    );
  });

  it("reports malformed YAML with line and column", async () => {
    const path = write(
      join(cwd, "spillway.config.yaml"),
      "defaults:\n  maxTurns: 5\n  models: [a\n",
    );
    const error = await failure(() => loadConfigFile(path));
    expect(error.message).toMatch(
      /^Invalid config file .*: malformed YAML at line \d, column \d+: /,
    );
  });

  it("names the file, key path, line, value and what is allowed (YAML and JSON)", async () => {
    const yaml = write(join(cwd, "spillway.config.yaml"), "defaults:\n  maxTurns: 0\n");
    const fromYaml = await failure(() => loadConfigFile(yaml));
    expect(fromYaml.code).toBe("CONFIG_INVALID");
    expect(fromYaml.message).toBe(
      `Invalid config file ${yaml}: defaults.maxTurns (line 2): got 0; expected an integer from 1 to 1000.`,
    );
    const json = write(
      join(cwd, "spillway.config.json"),
      '{\n  "defaults": {\n    "maxTurns": 0\n  }\n}',
    );
    const fromJson = await failure(() => loadConfigFile(json));
    expect(fromJson.message).toBe(
      `Invalid config file ${json}: defaults.maxTurns (line 3): got 0; expected an integer from 1 to 1000.`,
    );
  });

  it.each([
    [
      "providers: { openai: { baseURL: localhost } }",
      "providers.openai.baseURL",
      'got "localhost"; expected an http(s) URL',
    ],
    [
      "providers: { openai: { apiKeyEnv: 'my key' } }",
      "providers.openai.apiKeyEnv",
      "an environment variable name",
    ],
    [
      "providers: { ollama: { apiKeyEnv: X } }",
      "providers.ollama.apiKeyEnv",
      'unknown key "apiKeyEnv"; valid keys: baseURL',
    ],
    [
      "providers: { gemini: {} }",
      "providers.gemini",
      'unknown key "gemini"; valid keys: openai, anthropic, ollama, openai-compatible',
    ],
    [
      "providers: { openai-compatible: { vllm: { apiKeyEnv: X } } }",
      "providers.openai-compatible.vllm.baseURL",
      "missing; expected an http(s) URL",
    ],
    [
      "providers: { openai-compatible: { 'my/vllm': { baseURL: 'http://h' } } }",
      "providers.openai-compatible.my/vllm",
      "an endpoint name",
    ],
    [
      "models: { openai/gpt-4.1: { tokenizer: p50k } }",
      "models.openai/gpt-4.1.tokenizer",
      'one of "o200k_base" or "cl100k_base"',
    ],
    [
      "models: { openai/gpt-4.1: { pricing: { inputPerMTok: 1 } } }",
      "models.openai/gpt-4.1.pricing.outputPerMTok",
      "missing; expected a number >= 0",
    ],
    [
      "models: { openai/gpt-4.1: { contextWindow: -5 } }",
      "models.openai/gpt-4.1.contextWindow",
      "got -5; expected an integer >= 1",
    ],
    [
      "mcpServers: { fs: { command: npx, comand: x } }",
      "mcpServers.fs.comand",
      'unknown key "comand" (did you mean "command"?)',
    ],
    ["mcpServers: [fs]", "mcpServers", "a mapping of server name to server spec"],
    [
      "defaults: { mcpServers: { fs: { command: x } } }",
      "defaults.mcpServers",
      'unknown key "mcpServers"',
    ],
    [
      "defaults: { toolOutput: { surface: x } }",
      "defaults.toolOutput.surface",
      'got "x"; expected one of',
    ],
    [
      "default: { maxTurns: 5 }",
      "default",
      'unknown key "default" (did you mean "defaults"?); valid keys: $schema, providers, models, mcpServers, defaults',
    ],
  ])("%s → %s", async (yaml, key, text) => {
    const path = write(join(cwd, "spillway.config.yaml"), `# config\n${yaml}\n`);
    const error = await failure(() => loadConfigFile(path));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain(`Invalid config file ${path}: ${key} (line 2): `);
    expect(error.message).toContain(text);
  });

  it("reports an unknown provider in the models table as UNKNOWN_PROVIDER", async () => {
    const path = write(
      join(cwd, "spillway.config.yaml"),
      "models:\n  gemini/flash: { contextWindow: 5 }\n",
    );
    const error = await failure(() => loadConfigFile(path));
    expect(error.code).toBe("UNKNOWN_PROVIDER");
    expect(error.message).toContain(
      `${path}: models.gemini/flash (line 2): unknown provider "gemini"`,
    );
    expect(error.message).toContain(
      "valid providers: openai, anthropic, ollama, openai-compatible/<name>",
    );
  });

  it("says a missing config file is not found", async () => {
    const error = await failure(() => loadConfigFile(join(cwd, "nope.yaml")));
    expect(error.message).toBe(`config file not found: ${join(cwd, "nope.yaml")}`);
  });
});

describe("loadConfigFile: secrets only from the environment", () => {
  it.each([
    [
      "providers:\n  openai:\n    apiKey: sk-secret-123\n",
      "providers.openai.apiKey (line 3)",
      'apiKeyEnv: "OPENAI_API_KEY"',
    ],
    [
      "providers:\n  openai-compatible:\n    vllm:\n      baseURL: http://h\n      token: abc\n",
      "providers.openai-compatible.vllm.token (line 5)",
      'apiKeyEnv: "VLLM_API_KEY"',
    ],
    [
      "providers:\n  anthropic: { ANTHROPIC_APIKEY: sk-secret-123 }\n",
      "providers.anthropic.ANTHROPIC_APIKEY (line 2)",
      'apiKeyEnv: "ANTHROPIC_API_KEY"',
    ],
    [
      "mcpServers:\n  gh:\n    command: gh-mcp\n    env: { GITHUB_TOKEN: ghp_secret }\n",
      "mcpServers.gh.env.GITHUB_TOKEN (line 4)",
      'apiKeyEnv: "VAR_NAME"',
    ],
    [
      "providers:\n  openai-compatible:\n    x:\n      baseURL: http://h\n      headers: { X-Client-Secret: s3cr3t }\n",
      "providers.openai-compatible.x.headers.X-Client-Secret (line 5)",
      "VAR_NAME",
    ],
  ])("rejects a literal secret: %s", async (yaml, where, advice) => {
    const path = write(join(cwd, "spillway.config.yaml"), yaml);
    const error = await failure(() => loadConfigFile(path));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain(
      `Invalid config file ${path}: ${where}: a literal secret is not allowed`,
    );
    expect(error.message).toContain("secrets are read only from the environment");
    expect(error.message).toContain(advice);
    expect(error.message).not.toMatch(/sk-secret|ghp_secret|s3cr3t|: abc/);
    expect(JSON.stringify(error.details)).not.toMatch(/sk-secret|ghp_secret|s3cr3t|"abc"/);
  });

  it("rejects a literal secret in JSON with its line", async () => {
    const path = write(
      join(cwd, "spillway.config.json"),
      '{\n  "providers": {\n    "openai": { "apiKey": "sk-x" }\n  }\n}',
    );
    const error = await failure(() => loadConfigFile(path));
    expect(error.message).toContain("providers.openai.apiKey (line 3): a literal secret");
  });

  it("accepts apiKeyEnv and non-secret values", async () => {
    const path = write(
      join(cwd, "spillway.config.yaml"),
      "providers:\n  openai: { apiKeyEnv: OPENAI_KEY }\n",
    );
    expect((await loadConfigFile(path)).config.providers.openai).toEqual({
      apiKeyEnv: "OPENAI_KEY",
    });
  });
});

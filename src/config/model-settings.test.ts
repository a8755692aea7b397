import { describe, expect, it } from "vitest";
import { failureOf } from "../../test/helpers/spillway-failure.js";
import { parseAgentFile } from "./agent-file.js";
import { configSchema, type LoadedConfig } from "./config-schema.js";
import { modelSettings } from "./model-settings.js";
import { providerSettings, readApiKey } from "./provider-settings.js";
import { resolveSettings } from "./resolve-settings.js";

function config(data: unknown, path = "/project/spillway.config.yaml"): LoadedConfig {
  return {
    path,
    format: path.endsWith(".json") ? "json" : "yaml",
    config: configSchema.parse(data),
  };
}

const failure = failureOf;

describe("modelSettings", () => {
  const loaded = config({
    models: {
      "openai/gpt-4.1": {
        maxOutputTokens: 32768,
        tokenizer: "o200k_base",
        pricing: { inputPerMTok: 2, outputPerMTok: 8 },
      },
      "ollama/llama3": { contextWindow: 8192, tokenizer: "cl100k_base" },
    },
    defaults: { maxOutputTokens: 2048 },
  });

  it("combines resolved settings, the config models table and built-ins", () => {
    const settings = resolveSettings({ config: loaded, env: {} });
    expect(modelSettings(settings, "openai/gpt-4.1")).toEqual({
      contextWindow: 1047576,
      maxOutputTokens: 32768,
      tokenizer: "o200k_base",
      pricing: { inputPerMTok: 2, outputPerMTok: 8 },
    });
    expect(modelSettings(settings, "ollama/llama3")).toEqual({
      contextWindow: 8192,
      maxOutputTokens: 2048,
      tokenizer: "cl100k_base",
    });
    expect(modelSettings(settings, "openai/gpt-4-turbo")).toEqual({
      contextWindow: 128000,
      maxOutputTokens: 2048,
      tokenizer: "cl100k_base",
    });
    expect(modelSettings(settings, "anthropic/claude-opus-4-1").contextWindow).toBe(200000);
  });

  it("lets CLI or frontmatter maxOutputTokens and contextWindow beat the table", async () => {
    const agent = await parseAgentFile(
      "---\nmodels: [openai/gpt-4.1]\nmaxOutputTokens: 1000\ncontextWindow: 50000\n---\n",
      "/agents/a.md",
    );
    const settings = resolveSettings({ agent, config: loaded, env: {} });
    expect(modelSettings(settings, settings.models[0]!)).toMatchObject({
      contextWindow: 50000,
      maxOutputTokens: 1000,
    });
  });
});

describe("providerSettings", () => {
  const loaded = config({
    providers: {
      openai: { baseURL: "https://gateway.example.com/v1" },
      anthropic: { apiKeyEnv: "CLAUDE_KEY" },
      ollama: { baseURL: "http://gpu:11434/v1" },
      "openai-compatible": {
        vllm: {
          baseURL: "http://localhost:8000/v1",
          apiKeyEnv: "VLLM_KEY",
          headers: { "X-A": "b" },
        },
        local: { baseURL: "http://localhost:1234/v1" },
      },
    },
  });

  it("has defaults without a config file", () => {
    expect(providerSettings(undefined, "openai")).toEqual({ apiKeyEnv: "OPENAI_API_KEY" });
    expect(providerSettings(undefined, "anthropic")).toEqual({ apiKeyEnv: "ANTHROPIC_API_KEY" });
    expect(providerSettings(undefined, "ollama")).toEqual({ baseURL: "http://localhost:11434/v1" });
  });

  it("reads the config file, directly or through resolved settings", () => {
    const settings = resolveSettings({ config: loaded, env: {} });
    for (const from of [loaded, settings]) {
      expect(providerSettings(from, "openai")).toEqual({
        baseURL: "https://gateway.example.com/v1",
        apiKeyEnv: "OPENAI_API_KEY",
      });
      expect(providerSettings(from, "anthropic")).toEqual({ apiKeyEnv: "CLAUDE_KEY" });
      expect(providerSettings(from, "ollama")).toEqual({ baseURL: "http://gpu:11434/v1" });
      expect(providerSettings(from, "openai-compatible", "vllm")).toEqual({
        baseURL: "http://localhost:8000/v1",
        apiKeyEnv: "VLLM_KEY",
        headers: { "X-A": "b" },
      });
      expect(providerSettings(from, "openai-compatible", "local")).toEqual({
        baseURL: "http://localhost:1234/v1",
      });
    }
  });

  it("requires an openai-compatible endpoint to be in the config file", () => {
    const error = failure(() => providerSettings(loaded, "openai-compatible", "tgi"));
    expect(error.code).toBe("UNKNOWN_PROVIDER");
    expect(error.message).toBe(
      'Unknown openai-compatible endpoint "tgi": add it to the config file ' +
        "/project/spillway.config.yaml under providers.openai-compatible (declared there: vllm, " +
        "local), for example:\nproviders:\n  openai-compatible:\n    tgi:\n      baseURL: " +
        '"http://localhost:8000/v1"\n      apiKeyEnv: "TGI_API_KEY"  # optional',
    );
    const json = failure(() =>
      providerSettings(config({}, "/p/spillway.config.json"), "openai-compatible", "tgi"),
    );
    expect(json.message).toContain('{ "providers": { "openai-compatible": { "tgi": { "baseURL"');
    const none = failure(() => providerSettings(undefined, "openai-compatible", "tgi"));
    expect(none.message).toContain(
      "add it to a config file (spillway.config.json, spillway.config.yaml, spillway.config.yml in " +
        "the working directory or in $SPILLWAY_HOME, default ~/.spillway)",
    );
  });
});

describe("readApiKey", () => {
  it("reads the named variable, or needs none", () => {
    expect(readApiKey({ apiKeyEnv: "K" }, "openai", { env: { K: "sk-1" } })).toBe("sk-1");
    expect(
      readApiKey({ baseURL: "http://localhost:11434/v1" }, "ollama", { env: {} }),
    ).toBeUndefined();
  });

  it("throws MISSING_API_KEY naming the variable and the config key", () => {
    const error = failure(() => readApiKey({ apiKeyEnv: "OPENAI_API_KEY" }, "openai", { env: {} }));
    expect(error.code).toBe("MISSING_API_KEY");
    expect(error.message).toBe(
      "Provider openai needs an API key: set the environment variable OPENAI_API_KEY (or name " +
        "another variable with providers.openai.apiKeyEnv in the config file).",
    );
    const compatible = failure(() =>
      readApiKey({ apiKeyEnv: "VLLM_KEY" }, "openai-compatible", {
        name: "vllm",
        env: { VLLM_KEY: "" },
      }),
    );
    expect(compatible.message).toContain("providers.openai-compatible.vllm.apiKeyEnv");
  });
});

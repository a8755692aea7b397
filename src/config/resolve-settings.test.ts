import { describe, expect, it } from "vitest";
import { failureOf } from "../../test/helpers/spillway-failure.js";
import { type AgentDefinition, parseAgentFile } from "./agent-file.js";
import { configSchema, type LoadedConfig } from "./config-schema.js";
import { GUIDANCE_SWITCHES } from "./guidance.js";
import { type CliSettings, resolveSettings, type SettingSource } from "./resolve-settings.js";

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

/** Which levels set the value, and which source must win. */
const LEVEL_COMBOS: { cli: boolean; fm: boolean; cfg: boolean; winner: SettingSource }[] = [
  { cli: true, fm: true, cfg: true, winner: "cli" },
  { cli: true, fm: false, cfg: false, winner: "cli" },
  { cli: true, fm: false, cfg: true, winner: "cli" },
  { cli: false, fm: true, cfg: true, winner: "frontmatter" },
  { cli: false, fm: true, cfg: false, winner: "frontmatter" },
  { cli: false, fm: false, cfg: true, winner: "config" },
  { cli: false, fm: false, cfg: false, winner: "default" },
];

/** [setting, CLI value, frontmatter value, config value, built-in default] */
const SCALARS: [string, unknown, unknown, unknown, unknown][] = [
  ["maxTurns", 5, 6, 7, 20],
  ["toolResponseMaxBytes", 1000, 2000, 3000, 12288],
  ["toolConcurrency", 1, 2, 3, 4],
  ["toolTimeoutSecs", 1.5, 2, 3, 300],
  ["maxOutputTokens", 100, 200, 300, 4096],
  ["stream", true, false, true, false],
  ["async", false, true, false, true],
  ["asyncTimeoutSecs", 1, 2, 3, 5],
  ["asyncTokenThreshold", 10, 20, 30, 10000],
  ["asyncMaxRunning", 1, 2, 3, 4],
];

describe("resolveSettings: precedence CLI > frontmatter > config > default", () => {
  for (const [key, cliValue, fmValue, cfgValue, defaultValue] of SCALARS) {
    it.each(LEVEL_COMBOS)(
      `${key}: cli=$cli frontmatter=$fm config=$cfg → $winner`,
      async (combo) => {
        const settings = resolveSettings({
          ...(combo.cli ? { cli: { [key]: cliValue } as CliSettings } : {}),
          agent: await agent(combo.fm ? { [key]: fmValue } : {}),
          config: config(combo.cfg ? { defaults: { [key]: cfgValue } } : {}),
          env: NO_ENV,
        });
        const expected = {
          cli: cliValue,
          frontmatter: fmValue,
          config: cfgValue,
          default: defaultValue,
        }[combo.winner as "cli" | "frontmatter" | "config" | "default"];
        expect((settings as unknown as Record<string, unknown>)[key]).toEqual(expected);
        expect(settings.sources[key]).toBe(combo.winner);
      },
    );
  }

  it.each(LEVEL_COMBOS)("models: cli=$cli frontmatter=$fm config=$cfg → $winner", async (combo) => {
    const settings = resolveSettings({
      ...(combo.cli ? { cli: { models: "openai/gpt-4.1" } } : {}),
      agent: await agent(
        combo.fm ? { models: ["anthropic/claude-sonnet-4-5", "ollama/llama3"] } : {},
      ),
      config: config(combo.cfg ? { defaults: { models: "ollama/mistral" } } : {}),
      env: NO_ENV,
    });
    const refs = {
      cli: ["openai/gpt-4.1"],
      frontmatter: ["anthropic/claude-sonnet-4-5", "ollama/llama3"],
      config: ["ollama/mistral"],
      default: ["ollama/qwen2.5:7b", "local/qwen2.5-coder-1.5b-instruct-q4_k_m"],
    }[combo.winner as "cli" | "frontmatter" | "config" | "default"];
    expect(settings.models.map((model) => model.ref)).toEqual(refs);
    expect(settings.sources.models).toBe(combo.winner);
  });

  it("works with no inputs at all: every setting has its default and a source", () => {
    const settings = resolveSettings({ env: NO_ENV });
    expect(settings).toEqual({
      models: [
        { provider: "ollama", model: "qwen2.5:7b", ref: "ollama/qwen2.5:7b" },
        {
          provider: "local",
          model: "qwen2.5-coder-1.5b-instruct-q4_k_m",
          ref: "local/qwen2.5-coder-1.5b-instruct-q4_k_m",
        },
      ],
      maxTurns: 20,
      toolResponseMaxBytes: 12288,
      toolConcurrency: 4,
      toolTimeoutSecs: 300,
      toolOutput: {
        enabled: true,
        surface: "get_tool_output",
        continuationChars: 4000,
        synopsisLines: 5,
      },
      contextWindow: {
        "ollama/qwen2.5:7b": 32768,
        "local/qwen2.5-coder-1.5b-instruct-q4_k_m": 16384,
      },
      maxOutputTokens: 4096,
      stream: false,
      extraction: {},
      async: true,
      asyncTimeoutSecs: 5,
      asyncTokenThreshold: 10000,
      asyncMaxRunning: 4,
      compaction: {
        enabled: true,
        warn: 0.75,
        compact: 0.9,
        hard: 0.95,
        model: "serving",
        summaryMaxTokens: 2048,
      },
      asyncReadyMessage: "handle",
      helperTools: undefined,
      textReplies: undefined,
      guidance: Object.fromEntries(GUIDANCE_SWITCHES.map((name) => [name, true])),
      mcpServers: {},
      providers: {},
      modelConfigs: {},
      sources: {
        models: "default",
        maxTurns: "default",
        toolResponseMaxBytes: "default",
        toolConcurrency: "default",
        toolTimeoutSecs: "default",
        maxOutputTokens: "default",
        stream: "default",
        async: "default",
        asyncTimeoutSecs: "default",
        asyncTokenThreshold: "default",
        asyncMaxRunning: "default",
        asyncReadyMessage: "default",
        helperTools: "default",
        textReplies: "default",
        "toolOutput.enabled": "default",
        "toolOutput.surface": "default",
        "toolOutput.continuationChars": "default",
        "toolOutput.synopsisLines": "default",
        "contextWindow.local/qwen2.5-coder-1.5b-instruct-q4_k_m": "default",
        "contextWindow.ollama/qwen2.5:7b": "default",
        "compaction.enabled": "default",
        "compaction.warn": "default",
        "compaction.compact": "default",
        "compaction.hard": "default",
        "compaction.model": "default",
        "compaction.summaryMaxTokens": "default",
        ...Object.fromEntries(GUIDANCE_SWITCHES.map((name) => [`guidance.${name}`, "default"])),
        mcpServers: "default",
      },
    });
  });

  it("merges guidance switches key by key, CLI over frontmatter over config", async () => {
    const settings = resolveSettings({
      cli: { guidance: { notice: false } },
      agent: await agent({ guidance: { notice: true, taskFocus: false } }),
      config: config({ defaults: { guidance: { reportGuards: false, taskFocus: true } } }),
      env: NO_ENV,
    });
    expect(settings.guidance).toMatchObject({
      notice: false,
      taskFocus: false,
      reportGuards: false,
      wholeReads: true,
    });
    expect(settings.sources["guidance.notice"]).toBe("cli");
    expect(settings.sources["guidance.taskFocus"]).toBe("frontmatter");
    expect(settings.sources["guidance.reportGuards"]).toBe("config");
    expect(settings.sources["guidance.wholeReads"]).toBe("default");
  });

  it("refuses an unknown guidance switch, naming the valid ones", () => {
    expect(() =>
      resolveSettings({ cli: { guidance: { notices: false } as never }, env: NO_ENV }),
    ).toThrow(/guidance\.notices.*unknown key.*notice/s);
  });

  it("ignores CLI keys given as undefined", () => {
    const settings = resolveSettings({
      cli: { maxTurns: undefined, toolOutput: undefined },
      env: NO_ENV,
    });
    expect(settings.maxTurns).toBe(20);
    expect(settings.sources.maxTurns).toBe("default");
  });

  it("validates CLI settings like the files", () => {
    const error = failure(() => resolveSettings({ cli: { maxTurns: 0 }, env: NO_ENV }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      "Invalid CLI settings: maxTurns: got 0; expected an integer from 1 to 1000.",
    );
    const provider = failure(() =>
      resolveSettings({ cli: { models: ["gemini/pro"] }, env: NO_ENV }),
    );
    expect(provider.code).toBe("UNKNOWN_PROVIDER");
    expect(provider.message).toContain('Invalid CLI settings: models.0: unknown provider "gemini"');
  });
});

describe("resolveSettings: SPILLWAY_MODEL", () => {
  it("sits between the config file and the built-in default", async () => {
    const env = { SPILLWAY_MODEL: "openai-compatible/vllm/meta-llama/Llama-3-8B" };
    const fromEnv = resolveSettings({ agent: await agent({}), config: config({}), env });
    expect(fromEnv.models).toEqual([
      {
        provider: "openai-compatible",
        name: "vllm",
        model: "meta-llama/Llama-3-8B",
        ref: "openai-compatible/vllm/meta-llama/Llama-3-8B",
      },
    ]);
    expect(fromEnv.sources.models).toBe("env");
    const fromConfig = resolveSettings({
      config: config({ defaults: { models: "openai/gpt-4o" } }),
      env,
    });
    expect(fromConfig.models.map((model) => model.ref)).toEqual(["openai/gpt-4o"]);
    expect(fromConfig.sources.models).toBe("config");
  });

  it("is ignored when empty and rejected when its provider is unknown", () => {
    expect(resolveSettings({ env: { SPILLWAY_MODEL: " " } }).sources.models).toBe("default");
    const error = failure(() => resolveSettings({ env: { SPILLWAY_MODEL: "gemini/pro" } }));
    expect(error.code).toBe("UNKNOWN_PROVIDER");
    expect(error.message).toContain(
      'environment variable SPILLWAY_MODEL: unknown provider "gemini"',
    );
  });
});

describe("resolveSettings: merged settings", () => {
  it("merges toolOutput key by key across levels", async () => {
    const settings = resolveSettings({
      cli: { toolOutput: { enabled: false } },
      agent: await agent({ toolOutput: { surface: "tool_output" } }),
      config: config({
        defaults: { toolOutput: { continuationChars: 8000, surface: "get_continuation" } },
      }),
      env: NO_ENV,
    });
    expect(settings.toolOutput).toEqual({
      enabled: false,
      surface: "tool_output",
      continuationChars: 8000,
      synopsisLines: 5,
    });
    expect(settings.sources).toMatchObject({
      "toolOutput.enabled": "cli",
      "toolOutput.surface": "frontmatter",
      "toolOutput.continuationChars": "config",
      "toolOutput.synopsisLines": "default",
    });
  });

  it("merges extraction key by key and records sources only for set keys", async () => {
    const settings = resolveSettings({
      cli: { extraction: { concurrency: 2 } },
      agent: await agent({ extraction: { models: "ollama/llama3", concurrency: 8 } }),
      config: config({ defaults: { extraction: { maxChunks: 40 } } }),
      env: NO_ENV,
    });
    expect(settings.extraction).toEqual({
      models: [{ provider: "ollama", model: "llama3", ref: "ollama/llama3" }],
      maxChunks: 40,
      concurrency: 2,
    });
    expect(settings.sources["extraction.models"]).toBe("frontmatter");
    expect(settings.sources["extraction.maxChunks"]).toBe("config");
    expect(settings.sources["extraction.concurrency"]).toBe("cli");
    expect(settings.sources["extraction.chunkOverlapPercent"]).toBeUndefined();
  });
});

/**
 * Settings resolution: every setting gets a value and the level it came from.
 * Precedence: CLI flag > agent frontmatter > config file `defaults` > environment (only
 * `SPILLWAY_MODEL`, for `models`) > built-in default.
 */

import type { ChunkSizeRule } from "../core/chunk-size-rule.js";
import { SpillwayError } from "../core/errors.js";
import type { AgentDefinition } from "./agent-file.js";
import type { LoadedConfig, ModelConfig, ProvidersConfig } from "./config-schema.js";
import { defaultModels } from "./default-models.js";
import { builtinContextWindow, DEFAULT_SETTINGS } from "./defaults.js";
import { ALL_GUIDANCE, GUIDANCE_SWITCHES, type Guidance, type GuidanceSwitch } from "./guidance.js";
import {
  type McpServerSpec,
  mcpServersSettingSchema,
  resolveServerPaths,
} from "./mcp-server-schema.js";
import { type ModelRef, parseModelRef } from "./model-ref.js";
import { problemsFromIssues, throwProblems } from "./problems.js";
import { type ResolvedCompaction, resolveCompaction } from "./resolve-compaction.js";
import { strictObject } from "./schema-helpers.js";
import {
  type AsyncReadyMessage,
  type CompactionModel,
  type SettingsValues,
  settingsShape,
  type TextReplies,
  type ToolOutputSurface,
} from "./settings-schema.js";

/** The level a resolved setting came from. */
export type SettingSource = "cli" | "frontmatter" | "config" | "env" | "default";

type Maybe<T> = T | undefined;

/** Settings given on the command line (the CLI layer parses flags into this). */
export interface CliSettings {
  models?: Maybe<string | readonly string[]>;
  maxTurns?: Maybe<number>;
  toolResponseMaxBytes?: Maybe<number>;
  toolConcurrency?: Maybe<number>;
  toolTimeoutSecs?: Maybe<number>;
  toolOutput?: Maybe<{
    enabled?: Maybe<boolean>;
    surface?: Maybe<ToolOutputSurface>;
    continuationChars?: Maybe<number>;
    synopsisLines?: Maybe<number>;
  }>;
  contextWindow?: Maybe<number | Readonly<Record<string, number>>>;
  maxOutputTokens?: Maybe<number>;
  stream?: Maybe<boolean>;
  extraction?: Maybe<{
    models?: Maybe<string | readonly string[]>;
    maxChunks?: Maybe<number>;
    chunkOverlapPercent?: Maybe<number>;
    concurrency?: Maybe<number>;
    fullModeMaxChunks?: Maybe<number>;
    longLineBytes?: Maybe<number>;
    chunkSize?: Maybe<ChunkSizeRule>;
    readGrepMaxTurns?: Maybe<number>;
    readGrepMaxToolCallsPerTurn?: Maybe<number>;
  }>;
  async?: Maybe<boolean>;
  asyncTimeoutSecs?: Maybe<number>;
  asyncTokenThreshold?: Maybe<number>;
  asyncMaxRunning?: Maybe<number>;
  compaction?: Maybe<{
    enabled?: Maybe<boolean>;
    warn?: Maybe<number>;
    compact?: Maybe<number>;
    hard?: Maybe<number>;
    model?: Maybe<CompactionModel>;
    summaryMaxTokens?: Maybe<number>;
  }>;
  asyncReadyMessage?: Maybe<AsyncReadyMessage>;
  helperTools?: Maybe<boolean>;
  textReplies?: Maybe<TextReplies>;
  guidance?: Maybe<Partial<Record<GuidanceSwitch, Maybe<boolean>>>>;
  /** Server specs (a relative `cwd` resolves against `process.cwd()`) or config server names. */
  mcpServers?: Maybe<Readonly<Record<string, McpServerSpec>> | readonly string[]>;
}

/** `toolOutput`, every key resolved. */
export interface ResolvedToolOutput {
  enabled: boolean;
  surface: ToolOutputSurface;
  continuationChars: number;
  synopsisLines: number;
}

/** `extraction`: only the keys some level set (there are no built-in values yet). */
export interface ResolvedExtraction {
  models?: ModelRef[];
  maxChunks?: number;
  chunkOverlapPercent?: number;
  concurrency?: number;
  fullModeMaxChunks?: number;
  longLineBytes?: number;
  chunkSize?: ChunkSizeRule;
  readGrepMaxTurns?: number;
  readGrepMaxToolCallsPerTurn?: number;
}

/** Every setting's value, plus where each came from. */
export interface ResolvedSettings {
  /** Ordered fallback list; never empty. */
  models: ModelRef[];
  maxTurns: number;
  toolResponseMaxBytes: number;
  toolConcurrency: number;
  toolTimeoutSecs: number;
  toolOutput: ResolvedToolOutput;
  /** Tokens per model ref, for every model of `models` and `extraction.models` (and every ref a level names). */
  contextWindow: Record<string, number>;
  maxOutputTokens: number;
  stream: boolean;
  extraction: ResolvedExtraction;
  async: boolean;
  asyncTimeoutSecs: number;
  asyncTokenThreshold: number;
  asyncMaxRunning: number;
  compaction: ResolvedCompaction;
  asyncReadyMessage: AsyncReadyMessage;
  helperTools: boolean | undefined; // undefined: by the models (planRun)
  textReplies: TextReplies | undefined; // likewise
  /** Every guidance switch, merged key by key across levels (default: on). */
  guidance: Guidance;
  /** Servers by name (`cwd` absolute); empty when neither CLI nor frontmatter names any. */
  mcpServers: Record<string, McpServerSpec>;
  /** The config file's `providers` (empty without a config file). */
  providers: ProvidersConfig;
  /** The config file's `models` table (empty without a config file). */
  modelConfigs: Record<string, ModelConfig>;
  /** The config file the settings came from, if any. */
  configPath?: string;
  /**
   * Source per setting path: `models`, `maxTurns`, …, `toolOutput.<key>`,
   * `extraction.<key>` (set keys only), `contextWindow.<model ref>`, `mcpServers`.
   */
  sources: Record<string, SettingSource>;
}

/** What to resolve from; every part is optional. */
export interface ResolveSettingsOptions {
  cli?: CliSettings;
  agent?: AgentDefinition;
  config?: LoadedConfig;
  /** For `SPILLWAY_MODEL`; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

const cliSchema = strictObject({
  ...settingsShape,
  mcpServers: mcpServersSettingSchema.optional(),
});

type CliValues = SettingsValues & {
  mcpServers?: Record<string, McpServerSpec> | string[] | undefined;
};

function validateCli(cli: CliSettings): CliValues {
  const input: unknown = cli;
  const result = cliSchema.safeParse(input);
  if (!result.success) {
    throwProblems(
      "CONFIG_INVALID",
      "CLI settings",
      undefined,
      problemsFromIssues(result.error.issues, input),
    );
  }
  return result.data;
}

interface Layer {
  source: SettingSource;
  values: SettingsValues;
}

const SCALAR_KEYS = [
  "maxTurns",
  "toolResponseMaxBytes",
  "toolConcurrency",
  "toolTimeoutSecs",
  "maxOutputTokens",
  "stream",
  "async",
  "asyncTimeoutSecs",
  "asyncTokenThreshold",
  "asyncMaxRunning",
  "asyncReadyMessage",
  "helperTools",
  "textReplies",
] as const;
type ScalarKey = (typeof SCALAR_KEYS)[number];

const TOOL_OUTPUT_KEYS = ["enabled", "surface", "continuationChars", "synopsisLines"] as const;
const EXTRACTION_KEYS = [
  "models",
  "maxChunks",
  "chunkOverlapPercent",
  "concurrency",
  "fullModeMaxChunks",
  "longLineBytes",
  "chunkSize",
  "readGrepMaxTurns",
  "readGrepMaxToolCallsPerTurn",
] as const;

/**
 * Resolves every setting from the CLI, the agent's frontmatter, the config file's `defaults`
 * and built-in defaults, in that order of precedence. `toolOutput` and `extraction` merge key
 * by key across levels. `models` falls back to `SPILLWAY_MODEL` (source `env`) after the config
 * file and before the built-in list (`ollama/qwen2.5:7b`, then
 * `local/qwen2.5-coder-1.5b-instruct-q4_k_m`). `contextWindow` resolves per model: CLI >
 * frontmatter > config (`defaults` map entry, then `models[ref].contextWindow`, then a
 * `defaults` integer) > built-in table; an integer applies to every model of the agent
 * (`models` and `extraction.models`). `mcpServers` come from the CLI or the frontmatter;
 * a list of names is looked up in the config file's `mcpServers`.
 *
 * @example
 * const settings = resolveSettings({
 *   cli: { maxTurns: 5 },
 *   agent: await loadAgentFile("agent.md"),
 *   config: await loadConfig(),
 * });
 * settings.maxTurns; // 5
 * settings.sources.maxTurns; // "cli"
 * settings.sources["toolOutput.surface"]; // "frontmatter", "config" or "default"
 */
export function resolveSettings(options: ResolveSettingsOptions = {}): ResolvedSettings {
  const env = options.env ?? process.env;
  const cli = options.cli ? validateCli(options.cli) : undefined;
  const config = options.config?.config;
  const layers: Layer[] = [
    ...(cli ? [{ source: "cli" as const, values: cli }] : []),
    ...(options.agent
      ? [{ source: "frontmatter" as const, values: options.agent.frontmatter }]
      : []),
    ...(config ? [{ source: "config" as const, values: config.defaults }] : []),
  ];
  const sources: Record<string, SettingSource> = {};

  const modelsLayer = layers.find((layer) => layer.values.models !== undefined);
  const models = modelsLayer?.values.models
    ? { value: modelsLayer.values.models, source: modelsLayer.source }
    : defaultModels(env);
  sources.models = models.source;

  const scalars = {} as { [K in ScalarKey]: (typeof DEFAULT_SETTINGS)[K] };
  for (const key of SCALAR_KEYS) {
    const layer = layers.find((candidate) => candidate.values[key] !== undefined);
    (scalars as Record<ScalarKey, unknown>)[key] = layer
      ? layer.values[key]
      : DEFAULT_SETTINGS[key];
    sources[key] = layer?.source ?? "default";
  }

  const toolOutput: Record<string, unknown> = {};
  for (const key of TOOL_OUTPUT_KEYS) {
    const layer = layers.find((candidate) => candidate.values.toolOutput?.[key] !== undefined);
    toolOutput[key] = layer ? layer.values.toolOutput?.[key] : DEFAULT_SETTINGS.toolOutput[key];
    sources[`toolOutput.${key}`] = layer?.source ?? "default";
  }

  const extraction: Record<string, unknown> = {};
  for (const key of EXTRACTION_KEYS) {
    const layer = layers.find((candidate) => candidate.values.extraction?.[key] !== undefined);
    if (!layer) continue;
    extraction[key] = layer.values.extraction?.[key];
    sources[`extraction.${key}`] = layer.source;
  }
  const resolvedExtraction = extraction as ResolvedExtraction;

  const guidance: Record<string, boolean> = {};
  for (const key of GUIDANCE_SWITCHES) {
    const layer = layers.find((candidate) => candidate.values.guidance?.[key] !== undefined);
    guidance[key] = layer ? layer.values.guidance![key]! : ALL_GUIDANCE[key];
    sources[`guidance.${key}`] = layer?.source ?? "default";
  }

  const agentRefs = [...models.value, ...(resolvedExtraction.models ?? [])];
  const contextWindow = resolveContextWindows(agentRefs, layers, config?.models ?? {}, sources);

  return {
    models: [...models.value],
    ...scalars,
    toolOutput: toolOutput as unknown as ResolvedToolOutput,
    contextWindow,
    extraction: resolvedExtraction,
    compaction: resolveCompaction(layers, sources),
    guidance: guidance as Guidance,
    mcpServers: resolveMcpServers(cli, options.agent, options.config, sources),
    providers: config?.providers ?? {},
    modelConfigs: config?.models ?? {},
    ...(options.config ? { configPath: options.config.path } : {}),
    sources,
  };
}

function resolveContextWindows(
  agentRefs: readonly ModelRef[],
  layers: readonly Layer[],
  modelConfigs: Readonly<Record<string, ModelConfig>>,
  sources: Record<string, SettingSource>,
): Record<string, number> {
  const refs = new Map<string, ModelRef>(agentRefs.map((ref) => [ref.ref, ref]));
  const agentRefNames = new Set(refs.keys());
  for (const layer of layers) {
    const setting = layer.values.contextWindow;
    if (typeof setting !== "object") continue;
    for (const ref of Object.keys(setting)) if (!refs.has(ref)) refs.set(ref, parseModelRef(ref));
  }
  const windows: Record<string, number> = {};
  for (const [name, ref] of refs) {
    let value: number | undefined;
    let source: SettingSource = "default";
    for (const layer of layers) {
      const setting = layer.values.contextWindow;
      const specific = typeof setting === "object" ? setting[name] : undefined;
      const fromTable = layer.source === "config" ? modelConfigs[name]?.contextWindow : undefined;
      const general = typeof setting === "number" && agentRefNames.has(name) ? setting : undefined;
      value = specific ?? fromTable ?? general;
      if (value !== undefined) {
        source = layer.source;
        break;
      }
    }
    windows[name] = value ?? builtinContextWindow(ref);
    sources[`contextWindow.${name}`] = source;
  }
  return windows;
}

function resolveMcpServers(
  cli: CliValues | undefined,
  agent: AgentDefinition | undefined,
  config: LoadedConfig | undefined,
  sources: Record<string, SettingSource>,
): Record<string, McpServerSpec> {
  const fromCli = cli?.mcpServers;
  const fromAgent = agent?.frontmatter.mcpServers;
  const setting = fromCli ?? fromAgent;
  sources.mcpServers = fromCli ? "cli" : fromAgent ? "frontmatter" : "default";
  if (setting === undefined) return {};
  if (!Array.isArray(setting)) {
    return fromCli ? resolveServerPaths(setting, process.cwd()) : { ...setting };
  }
  const defined = config?.config.mcpServers ?? {};
  const unknown = setting.filter((name) => !Object.hasOwn(defined, name));
  if (unknown.length > 0) {
    const names = unknown.map((name) => JSON.stringify(name)).join(", ");
    const where = fromCli
      ? "CLI settings: mcpServers"
      : `Invalid agent file ${agent?.path}: mcpServers`;
    const available = Object.keys(defined);
    const fix = config
      ? `the config file ${config.path} defines ${
          available.length > 0 ? `these servers: ${available.join(", ")}` : "no mcpServers"
        }`
      : "no config file was found (spillway.config.json, .yaml or .yml in the working " +
        "directory or in $SPILLWAY_HOME, default ~/.spillway)";
    throw new SpillwayError(
      fromCli ? "CONFIG_INVALID" : "AGENT_FILE_INVALID",
      `${where} names ${unknown.length === 1 ? "server" : "servers"} ${names} that the config ` +
        `file does not define; ${fix}. Define ${unknown.length === 1 ? "it" : "them"} under ` +
        "mcpServers in the config file, or give the server spec ({ command, args } or { url }) " +
        "in the agent file.",
      {
        ...(agent && !fromCli ? { file: agent.path } : {}),
        key: "mcpServers",
        value: unknown,
        ...(config ? { configFile: config.path } : {}),
        available,
      },
    );
  }
  const servers: Record<string, McpServerSpec> = {};
  for (const name of setting) {
    const spec = defined[name];
    if (spec) servers[name] = spec;
  }
  return servers;
}

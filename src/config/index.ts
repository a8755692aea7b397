/**
 * Agent files, the config file, and settings resolution
 * (CLI flag > frontmatter > config file > default).
 */
export {
  type AgentDefinition,
  type AgentFrontmatter,
  loadAgentFile,
  parseAgentFile,
} from "./agent-file.js";
export {
  CONFIG_FILE_NAMES,
  type FindConfigFileOptions,
  findConfigFile,
  loadConfig,
  loadConfigFile,
} from "./config-file.js";
export {
  configSchema,
  type LoadedConfig,
  type ModelConfig,
  type ProvidersConfig,
  type SpillwayConfig,
  TOKENIZER_NAMES,
} from "./config-schema.js";
export {
  builtinContextWindow,
  DEFAULT_MODEL,
  DEFAULT_OLLAMA_BASE_URL,
  DEFAULT_SETTINGS,
  defaultTokenizer,
} from "./defaults.js";
export { type MarkdownParts, splitFrontmatter } from "./frontmatter.js";
export { FRONTMATTER_KEYS, frontmatterSchema } from "./frontmatter-schema.js";
export { type GatewayConfig, gatewaySchema } from "./gateway-schema.js";
export type { McpHttpServerSpec, McpServerSpec, McpStdioServerSpec } from "./mcp-server-schema.js";
export {
  checkModelRef,
  isProviderName,
  type ModelRef,
  PROVIDER_NAMES,
  type ProviderName,
  parseModelRef,
} from "./model-ref.js";
export { type ModelSettings, modelSettings } from "./model-settings.js";
export type { ConfigProblem } from "./problems.js";
export { type ProviderSettings, providerSettings, readApiKey } from "./provider-settings.js";
export type { ResolvedCompaction } from "./resolve-compaction.js";
export {
  type CliSettings,
  type ResolvedExtraction,
  type ResolvedSettings,
  type ResolvedToolOutput,
  type ResolveSettingsOptions,
  resolveSettings,
  type SettingSource,
} from "./resolve-settings.js";
export {
  ASYNC_READY_MESSAGES,
  type AsyncReadyMessage,
  COMPACTION_MODELS,
  type CompactionModel,
  TEXT_REPLIES,
  TOOL_OUTPUT_SURFACES,
  type ToolOutputSurface,
} from "./settings-schema.js";

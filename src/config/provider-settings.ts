/**
 * Provider endpoints and the environment variables that hold their API keys.
 */
import { SpillwayError } from "../core/errors.js";
import { CONFIG_FILE_NAMES } from "./config-file.js";
import type { LoadedConfig, ProvidersConfig } from "./config-schema.js";
import { DEFAULT_OLLAMA_BASE_URL } from "./defaults.js";
import type { ProviderName } from "./model-ref.js";
import type { ResolvedSettings } from "./resolve-settings.js";

/** How to reach one provider. */
export interface ProviderSettings {
  /** Absent means the provider SDK's own default endpoint. */
  baseURL?: string;
  /** The environment variable holding the API key; absent when the provider needs none. */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
}

function providersOf(from: ResolvedSettings | LoadedConfig | undefined): {
  providers: ProvidersConfig;
  configPath?: string;
} {
  if (from === undefined) return { providers: {} };
  if ("sources" in from) {
    return {
      providers: from.providers,
      ...(from.configPath !== undefined ? { configPath: from.configPath } : {}),
    };
  }
  return { providers: from.config.providers, configPath: from.path };
}

function compatibleExample(name: string, json: boolean): string {
  const env = `${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`;
  return json
    ? `{ "providers": { "openai-compatible": { "${name}": { "baseURL": "http://localhost:8000/v1", "apiKeyEnv": "${env}" } } } }`
    : `providers:\n  openai-compatible:\n    ${name}:\n      baseURL: "http://localhost:8000/v1"\n      apiKeyEnv: "${env}"  # optional`;
}

/**
 * Where a provider is and which environment variable holds its key. Defaults: `openai` reads
 * `OPENAI_API_KEY`, `anthropic` reads `ANTHROPIC_API_KEY`, `ollama` is at
 * `http://localhost:11434/v1` without a key. An `openai-compatible` endpoint must be declared
 * in the config file's `providers.openai-compatible.<name>` (else `UNKNOWN_PROVIDER`).
 *
 * @example
 * providerSettings(settings, "openai"); // { apiKeyEnv: "OPENAI_API_KEY" }
 * providerSettings(settings, "openai-compatible", "vllm");
 * // { baseURL: "http://localhost:8000/v1", apiKeyEnv: "VLLM_API_KEY" }
 */
export function providerSettings(
  from: ResolvedSettings | LoadedConfig | undefined,
  provider: ProviderName,
  name?: string,
): ProviderSettings {
  const { providers, configPath } = providersOf(from);
  switch (provider) {
    case "openai":
    case "anthropic": {
      const entry = providers[provider];
      return {
        ...(entry?.baseURL !== undefined ? { baseURL: entry.baseURL } : {}),
        apiKeyEnv:
          entry?.apiKeyEnv ?? (provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY"),
      };
    }
    case "ollama":
      return { baseURL: providers.ollama?.baseURL ?? DEFAULT_OLLAMA_BASE_URL };
    case "local":
      // In-process: no endpoint, no key.
      return {};
    case "openai-compatible": {
      const entry = name === undefined ? undefined : providers["openai-compatible"]?.[name];
      if (entry === undefined) {
        const label = name ?? "<name>";
        const where = configPath
          ? `the config file ${configPath}`
          : `a config file (${CONFIG_FILE_NAMES.join(", ")} in the working directory or in ` +
            "$SPILLWAY_HOME, default ~/.spillway)";
        const declared = Object.keys(providers["openai-compatible"] ?? {});
        throw new SpillwayError(
          "UNKNOWN_PROVIDER",
          `Unknown openai-compatible endpoint "${label}": add it to ${where} under ` +
            `providers.openai-compatible${
              declared.length > 0 ? ` (declared there: ${declared.join(", ")})` : ""
            }, for example:\n${compatibleExample(label, configPath?.endsWith(".json") ?? false)}`,
          {
            provider,
            ...(name !== undefined ? { name } : {}),
            ...(configPath ? { configFile: configPath } : {}),
            declared,
          },
        );
      }
      return {
        baseURL: entry.baseURL,
        ...(entry.apiKeyEnv !== undefined ? { apiKeyEnv: entry.apiKeyEnv } : {}),
        ...(entry.headers !== undefined ? { headers: { ...entry.headers } } : {}),
      };
    }
  }
}

/**
 * The API key for a provider, read from the environment variable its settings name;
 * `undefined` when the provider needs none. A missing variable throws `MISSING_API_KEY`.
 *
 * @example
 * readApiKey(providerSettings(settings, "openai"), "openai"); // process.env.OPENAI_API_KEY
 */
export function readApiKey(
  settings: ProviderSettings,
  provider: ProviderName,
  options: { name?: string; env?: NodeJS.ProcessEnv } = {},
): string | undefined {
  if (settings.apiKeyEnv === undefined) return undefined;
  const value = (options.env ?? process.env)[settings.apiKeyEnv];
  if (value !== undefined && value !== "") return value;
  const label =
    provider === "openai-compatible" ? `openai-compatible/${options.name ?? ""}` : provider;
  const key =
    provider === "openai-compatible"
      ? `providers.openai-compatible.${options.name ?? "<name>"}.apiKeyEnv`
      : `providers.${provider}.apiKeyEnv`;
  throw new SpillwayError(
    "MISSING_API_KEY",
    `Provider ${label} needs an API key: set the environment variable ${settings.apiKeyEnv} ` +
      `(or name another variable with ${key} in the config file).`,
    {
      provider,
      ...(options.name !== undefined ? { name: options.name } : {}),
      apiKeyEnv: settings.apiKeyEnv,
    },
  );
}

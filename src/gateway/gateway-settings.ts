/**
 * The gateway's settings: which servers it wraps, its limits, and how `extract` reaches a
 * model. Precedence: CLI flag > the config file's `gateway` section (and `defaults` where a
 * setting is shared with agents) > built-in default.
 */
import { extractionSettings } from "../agent/run-settings.js";
import {
  type LoadedConfig,
  type McpServerSpec,
  resolveSettings,
  TOKENIZER_NAMES,
} from "../config/index.js";
import { SpillwayError } from "../core/errors.js";
import type { TokenizerName } from "../core/tokens.js";
import type { ExtractionSettings } from "../extraction/settings.js";

/** How large a result may be to pass through unchanged, and how much a read may return. */
export interface GatewayLimits {
  /** Results up to this many bytes (text, base64 and structuredContent JSON) pass through. */
  readonly maxInlineBytes: number;
  /** ... and up to this many tokens (estimated). */
  readonly maxInlineTokens: number;
  /** The most bytes one call's handle references, or one resource read, may carry. */
  readonly maxReferenceBytes: number;
  /** The most characters one get_tool_output answer may hold (it pages beyond). */
  readonly maxReadChars: number;
}

/** Extraction through the client's model (`sampling/createMessage`). */
export interface GatewaySampling {
  /** Use the client's model when it declares sampling (default true). */
  readonly enabled: boolean;
  /** `maxTokens` of each sampling request. */
  readonly maxTokens: number;
  /** The context window assumed for the client's model (chunks are sized from it). */
  readonly contextWindow: number;
  /** Sampling requests in flight at once (the map calls of one extraction). */
  readonly concurrency: number;
}

/** Everything a gateway runs with. */
export interface GatewaySettings {
  /** The servers behind the gateway, by name. */
  readonly servers: Readonly<Record<string, McpServerSpec>>;
  /** Tool and prompt names as `server__name` (always with several servers). */
  readonly namespace: boolean;
  readonly limits: GatewayLimits;
  readonly sampling: GatewaySampling;
  /** The configured extraction models (`models: null` when none is configured). */
  readonly extraction: ExtractionSettings;
  /** First and last lines shown in a handle message. */
  readonly synopsisLines: number;
  /** Inactivity limit of one upstream call (progress notifications reset it). */
  readonly toolTimeoutMs: number;
  readonly tokenizer: TokenizerName;
  /**
   * How the store commits: `full` fsyncs every output before the client is answered;
   * `normal` survives a crash of the gateway but not of the machine, and answers faster.
   */
  readonly durability: "full" | "normal";
  /** The config file the settings came from, if any. */
  readonly configPath: string | null;
}

/** Built-in defaults of the gateway's own settings. */
export const GATEWAY_DEFAULTS = {
  maxInlineTokens: 10_000,
  maxReferenceBytes: 8 * 1024 * 1024,
  maxReadChars: 16_000,
  sampling: { enabled: true, maxTokens: 2_048, contextWindow: 64_000, concurrency: 4 },
} as const;

/** What the command line says (every field optional). */
export interface GatewayCliOptions {
  /** `-- <command> [args…]`: the one server to wrap. */
  readonly command?: readonly string[];
  /** The name of that server (default "upstream"). */
  readonly name?: string;
  /** `--servers a,b`: names from the config file's `mcpServers`. */
  readonly servers?: readonly string[];
  readonly namespace?: boolean;
  readonly maxInlineBytes?: number;
  readonly maxInlineTokens?: number;
  readonly maxReferenceBytes?: number;
  readonly maxReadChars?: number;
  readonly extractionModels?: readonly string[];
  readonly sampling?: boolean;
  readonly samplingMaxTokens?: number;
  readonly samplingContextWindow?: number;
  readonly samplingConcurrency?: number;
  readonly toolTimeoutSecs?: number;
  readonly durability?: "full" | "normal";
}

function usage(message: string, details: Record<string, unknown>): SpillwayError {
  return new SpillwayError("CONFIG_INVALID", message, details, { fault: "user" });
}

function serversOf(
  cli: GatewayCliOptions,
  config: LoadedConfig | undefined,
): Record<string, McpServerSpec> {
  const command = cli.command ?? [];
  const names = cli.servers ?? [];
  if (command.length > 0 && names.length > 0) {
    throw usage(
      "Give either a server command after -- or --servers names from the config file, not both.",
      { command, servers: names },
    );
  }
  if (command.length > 0) {
    const [program, ...args] = command as [string, ...string[]];
    return { [cli.name ?? "upstream"]: { command: program, ...(args.length ? { args } : {}) } };
  }
  if (names.length === 0) {
    throw usage(
      "No MCP server to wrap: give its command after -- (spillway mcp -- npx -y @modelcontextprotocol/server-filesystem /data) " +
        "or name servers of the config file's mcpServers with --servers a,b.",
      {},
    );
  }
  const catalog = config?.config.mcpServers ?? {};
  const unknown = names.filter((name) => !Object.hasOwn(catalog, name));
  if (unknown.length > 0) {
    const available = Object.keys(catalog);
    throw usage(
      `--servers names ${unknown.map((n) => JSON.stringify(n)).join(", ")}, not defined in ${
        config ? `the config file ${config.path}` : "any config file (none was found)"
      }; defined: ${available.join(", ") || "none"}. Define servers under mcpServers in spillway.config.json or .yaml.`,
      { key: "servers", value: unknown, available, ...(config ? { file: config.path } : {}) },
    );
  }
  return Object.fromEntries(names.map((name) => [name, catalog[name] as McpServerSpec]));
}

/**
 * Resolves the gateway's settings from the command line and the config file.
 *
 * @example
 * const settings = resolveGatewaySettings(
 *   { command: ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"] },
 *   await loadConfig(),
 * );
 * settings.limits.maxInlineBytes; // 12288 unless configured
 */
export function resolveGatewaySettings(
  cli: GatewayCliOptions,
  config: LoadedConfig | undefined,
  env: NodeJS.ProcessEnv = process.env,
): GatewaySettings {
  const servers = serversOf(cli, config);
  const section = config?.config.gateway ?? {};
  const resolved = resolveSettings({
    cli: {
      ...(cli.extractionModels?.length ? { extraction: { models: cli.extractionModels } } : {}),
      ...(cli.toolTimeoutSecs !== undefined ? { toolTimeoutSecs: cli.toolTimeoutSecs } : {}),
    },
    ...(config ? { config } : {}),
    env,
  });
  const several = Object.keys(servers).length > 1;
  const extraction = extractionSettings(resolved);
  const tokenizer = (extraction.models?.[0]?.tokenizer ?? TOKENIZER_NAMES[0]) as TokenizerName;
  return {
    servers,
    namespace: several || (cli.namespace ?? section.namespace ?? false),
    limits: {
      maxInlineBytes: cli.maxInlineBytes ?? section.maxInlineBytes ?? resolved.toolResponseMaxBytes,
      maxInlineTokens:
        cli.maxInlineTokens ?? section.maxInlineTokens ?? GATEWAY_DEFAULTS.maxInlineTokens,
      maxReferenceBytes:
        cli.maxReferenceBytes ?? section.maxReferenceBytes ?? GATEWAY_DEFAULTS.maxReferenceBytes,
      maxReadChars: cli.maxReadChars ?? section.maxReadChars ?? GATEWAY_DEFAULTS.maxReadChars,
    },
    sampling: {
      enabled: cli.sampling ?? section.sampling?.enabled ?? GATEWAY_DEFAULTS.sampling.enabled,
      maxTokens:
        cli.samplingMaxTokens ?? section.sampling?.maxTokens ?? GATEWAY_DEFAULTS.sampling.maxTokens,
      contextWindow:
        cli.samplingContextWindow ??
        section.sampling?.contextWindow ??
        GATEWAY_DEFAULTS.sampling.contextWindow,
      concurrency:
        cli.samplingConcurrency ??
        section.sampling?.concurrency ??
        GATEWAY_DEFAULTS.sampling.concurrency,
    },
    extraction: { ...extraction, models: extraction.models?.length ? extraction.models : null },
    synopsisLines: resolved.toolOutput.synopsisLines,
    toolTimeoutMs: resolved.toolTimeoutSecs * 1000,
    tokenizer,
    durability: cli.durability ?? section.durability ?? "full",
    configPath: config?.path ?? null,
  };
}

import {
  type AgentDefinition,
  type CliSettings,
  loadAgentFile,
  loadConfig,
  type McpServerSpec,
  modelSettings,
  providerSettings,
  type ResolvedSettings,
  resolveSettings,
} from "../config/index.js";
import { SpillwayError } from "../core/errors.js";
import { DEFAULT_EXTRACTION, type ExtractionSettings } from "../extraction/settings.js";
import { DEFAULT_RETRY } from "../providers/model-caller.js";
import { type ModelTarget, OLLAMA_DEFAULT_BASE_URL } from "../providers/models.js";
import { type OllamaProbeOptions, ollamaServes } from "../providers/ollama-probe.js";
import type { CompactionSettings, SessionSettings } from "./session-context.js";

/**
 * Everything a session needs to run (and to resume): the agent, its resolved settings, its
 * MCP servers and sub-agents. Stored as JSON with the session (no secrets: API keys are read
 * from the environment by variable name at call time).
 */
export interface RunPlan {
  readonly version: 1;
  readonly agentName: string;
  readonly agentPath: string | null;
  readonly description: string;
  readonly systemPrompt: string;
  readonly settings: SessionSettings;
  readonly mcpServers: Record<string, McpServerSpec>;
  readonly subagents: readonly { readonly path: string; readonly description: string }[];
  /** CLI-level settings, passed on to sub-agents (a flag applies to the whole run). */
  readonly cli: CliSettings;
  readonly configPath: string | null;
  /** Where each setting came from (cli, frontmatter, config, env, default). */
  readonly sources: Record<string, string>;
  /** Extraction (model-driven reads); absent in sessions stored before it existed. */
  readonly extraction?: ExtractionSettings;
}

export interface PlanOptions {
  readonly agent: string | AgentDefinition;
  readonly cli?: CliSettings;
  readonly mcpServers?: Record<string, McpServerSpec>;
  readonly cwd?: string;
  readonly home?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly configPath?: string;
  /** How the built-in default list checks for Ollama (tests). */
  readonly ollamaProbe?: OllamaProbeOptions;
}

/**
 * The built-in default list (nothing configured): `ollama/…` only when an Ollama server
 * answers and has the model, else the embedded local model that follows it.
 */
async function reachableDefaults(
  targets: ModelTarget[],
  probe: OllamaProbeOptions | undefined,
): Promise<ModelTarget[]> {
  const kept: ModelTarget[] = [];
  for (const target of targets) {
    const last = kept.length === 0 && target === targets[targets.length - 1];
    if (
      target.provider !== "ollama" ||
      last ||
      (await ollamaServes(target.baseURL ?? OLLAMA_DEFAULT_BASE_URL, target.model, probe))
    )
      kept.push(target);
  }
  return kept;
}

/** The model targets of resolved settings, in fallback order. */
export function modelTargets(
  resolved: ResolvedSettings,
  refs = resolved.models,
  home?: string,
): ModelTarget[] {
  return refs.map((ref) => {
    const provider = providerSettings(resolved, ref.provider, ref.name);
    const model = modelSettings(resolved, ref);
    const baseURL =
      provider.baseURL ?? (ref.provider === "ollama" ? OLLAMA_DEFAULT_BASE_URL : undefined);
    return {
      ref: ref.ref,
      provider: ref.provider,
      model: ref.model,
      contextWindow: model.contextWindow,
      maxOutputTokens: model.maxOutputTokens,
      tokenizer: model.tokenizer,
      ...(ref.name ? { name: ref.name } : {}),
      ...(baseURL ? { baseURL } : {}),
      ...(provider.apiKeyEnv ? { apiKeyEnv: provider.apiKeyEnv } : {}),
      ...(provider.headers ? { headers: provider.headers } : {}),
      ...(model.pricing ? { pricing: model.pricing } : {}),
      ...(ref.provider === "local" && home ? { home } : {}),
    };
  });
}

/**
 * Loads the agent file and the config file and resolves every setting
 * (CLI flag > frontmatter > config file > default).
 *
 * @example
 * const plan = await planRun({ agent: "examples/incident-triage/agent.md", cli: { maxTurns: 8 } });
 */
export async function planRun(options: PlanOptions): Promise<RunPlan> {
  const agent =
    typeof options.agent === "string" ? await loadAgentFile(options.agent) : options.agent;
  const env = options.env ?? process.env;
  const config = await loadConfig({
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.home ? { home: options.home } : {}),
    env,
    ...(options.configPath ? { path: options.configPath } : {}),
  });
  const cli = options.cli ?? {};
  const resolved = resolveSettings({ cli, agent, ...(config ? { config } : {}), env });
  const targets = modelTargets(resolved, resolved.models, options.home);
  const models =
    resolved.sources.models === "default"
      ? await reachableDefaults(targets, options.ollamaProbe)
      : targets;
  // Small local models: fewer tools, and text must be confirmed as the answer (measured,
  // docs/local-models.md).
  const allLocal = models.every((t) => t.ref.startsWith("local/"));
  const settings: SessionSettings = {
    models,
    maxTurns: resolved.maxTurns,
    toolResponseMaxBytes: resolved.toolResponseMaxBytes,
    toolConcurrency: resolved.toolConcurrency,
    toolTimeoutSecs: resolved.toolTimeoutSecs,
    toolOutput: { ...resolved.toolOutput },
    stream: resolved.stream,
    retry: DEFAULT_RETRY,
    async: {
      enabled: resolved.async,
      timeoutSecs: resolved.asyncTimeoutSecs,
      tokenThreshold: resolved.asyncTokenThreshold,
      readyMessage: resolved.asyncReadyMessage,
      maxRunning: resolved.asyncMaxRunning,
    },
    compaction: compactionSettings(resolved, options.home),
    // Opt-in: neither reads a tool result, and each definition costs every request (SW-31).
    helperTools: resolved.helperTools ?? false,
    surfaceFromFirstTurn: !allLocal,
    textReplies: resolved.textReplies ?? (allLocal ? "none" : "final"),
    guidance: resolved.guidance,
  };
  const subagents = (agent.frontmatter.agents ?? []).map((path) => ({ path, description: "" }));
  for (const sub of subagents) {
    if (sub.path === agent.path) {
      throw new SpillwayError(
        "AGENT_FILE_INVALID",
        `Agent file ${agent.path} lists itself in agents:.`,
        { file: agent.path },
      );
    }
  }
  return {
    version: 1,
    agentName: agent.name,
    agentPath: agent.path,
    description: agent.description ?? "",
    systemPrompt: agent.systemPrompt,
    settings,
    mcpServers: { ...resolved.mcpServers, ...(options.mcpServers ?? {}) },
    subagents: await Promise.all(
      subagents.map(async (sub) => ({
        path: sub.path,
        description: (await loadAgentFile(sub.path)).description ?? "",
      })),
    ),
    cli,
    configPath: config?.path ?? null,
    sources: { ...resolved.sources },
    extraction: extractionSettings(resolved, options.home),
  };
}

/** Compaction settings: the summarizer's models are the extraction models when asked for. */
function compactionSettings(resolved: ResolvedSettings, home?: string): CompactionSettings {
  const { model, ...rest } = resolved.compaction;
  const extraction = resolved.extraction.models;
  return {
    ...rest,
    model,
    models: model === "extraction" && extraction ? modelTargets(resolved, extraction, home) : null,
  };
}

/** Extraction settings: the keys some level set, over spillway's defaults. */
export function extractionSettings(resolved: ResolvedSettings, home?: string): ExtractionSettings {
  const { models, ...set } = resolved.extraction;
  const defined = Object.fromEntries(
    Object.entries(set).filter(([, value]) => value !== undefined),
  );
  return {
    ...DEFAULT_EXTRACTION,
    ...defined,
    models: models ? modelTargets(resolved, models, home) : null,
  };
}

/** Reads a stored plan back (resume), checking it is one this version wrote. */
export function storedPlan(value: unknown, sessionId: string): RunPlan {
  const plan = value as Partial<RunPlan> | null;
  if (plan?.version !== 1 || !plan.settings || !Array.isArray(plan.settings.models)) {
    throw new SpillwayError(
      "STORE_CORRUPT",
      `Session ${sessionId} has no run settings this version of spillway can resume.`,
      { sessionId },
      { fault: "store" },
    );
  }
  return plan as RunPlan;
}

/**
 * The plan of a resumed session: its stored plan, or, when new CLI-level settings are given
 * (e.g. another model after the first went down), a new plan from its agent file with them on
 * top of the session's own CLI settings.
 */
export async function resumePlan(
  stored: RunPlan,
  overrides: CliSettings,
  options: Omit<PlanOptions, "agent" | "cli">,
): Promise<RunPlan> {
  if (Object.keys(overrides).length === 0) return stored;
  if (!stored.agentPath) {
    throw new SpillwayError(
      "INVALID_ARGUMENT",
      "This session was started without an agent file, so it cannot be resumed with new settings (a model, a window, flags). Resume it without them, or start a new run with an agent file.",
      {},
    );
  }
  return planRun({ ...options, agent: stored.agentPath, cli: { ...stored.cli, ...overrides } });
}

/**
 * Model preflight for `spillway run`: before a session starts, check that some model of the
 * fallback list can be reached, and otherwise fail fast saying exactly how to configure one.
 *
 * - `ollama` and `openai-compatible` targets on this machine (localhost, 127.0.0.1, ::1):
 *   `GET <baseURL>/models` with a 2 s timeout; any HTTP answer means the server is up (for
 *   Ollama the model must also be pulled).
 * - `openai` and `anthropic`: the API key variable must be set (no network call).
 * - remote `ollama`/`openai-compatible` endpoints are not checked (assumed reachable).
 * - `local`: the GGUF file must be on this machine and node-llama-cpp installed.
 */
import type { SettingSource } from "../config/index.js";
import { isSpillwayError } from "../core/errors.js";
import { DEFAULT_LOCAL_MODEL } from "../providers/local/catalog.js";
import { howToGetModel, resolveModelFile } from "../providers/local/model-files.js";
import { INSTALL_COMMAND, importNodeLlama } from "../providers/local/node-llama.js";
import type { ModelTarget } from "../providers/models.js";
import { CliFailure } from "./errors.js";

export const PREFLIGHT_TIMEOUT_MS = 2000;

/** What the preflight found out about one model target. */
export interface ModelCheck {
  readonly ref: string;
  readonly ok: boolean;
  /** How it was checked: by a request, by its API key variable, or not at all (remote). */
  readonly method: "request" | "api-key" | "file" | "unchecked";
  /** Why it is not usable (e.g. "connection refused", "OPENAI_API_KEY is not set"). */
  readonly problem?: string;
  readonly kind?: "unreachable" | "missing-key" | "not-pulled" | "missing-dependency";
}

export interface PreflightOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /** Injectable for tests. */
  readonly fetch?: typeof fetch;
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"]);

/** True for a base URL on this machine. */
export function isLocalBaseUrl(baseURL: string): boolean {
  try {
    const host = new URL(baseURL).hostname.toLowerCase();
    return (
      LOCAL_HOSTS.has(host) || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host)
    );
  } catch {
    return false;
  }
}

/** A fetch failure in words: "connection refused", "no answer within 2 s", … */
function reasonOf(error: unknown, timeoutMs: number): string {
  const err = error as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (err?.name === "TimeoutError" || err?.name === "AbortError") {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  switch (err?.cause?.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
      return "host not found";
    case "ECONNRESET":
      return "connection reset";
    default:
      return err?.cause?.message ?? err?.message ?? String(error);
  }
}

/** The model ids a `/models` answer lists (OpenAI list format), or undefined. */
function listedModels(body: unknown): string[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return data
    .map((entry) => (entry as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === "string");
}

async function probe(
  target: ModelTarget,
  baseURL: string,
  options: PreflightOptions,
): Promise<ModelCheck> {
  const timeoutMs = options.timeoutMs ?? PREFLIGHT_TIMEOUT_MS;
  const url = `${baseURL.replace(/\/+$/, "")}/models`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      signal: AbortSignal.timeout(timeoutMs),
      ...(target.headers ? { headers: target.headers } : {}),
    });
  } catch (error) {
    return {
      ref: target.ref,
      ok: false,
      method: "request",
      kind: "unreachable",
      problem: reasonOf(error, timeoutMs),
    };
  }
  let body: unknown;
  try {
    body = response.ok ? await response.json() : undefined;
  } catch {
    body = undefined;
  } finally {
    if (!response.bodyUsed) await response.body?.cancel();
  }
  if (target.provider === "ollama") {
    const ids = listedModels(body);
    const pulled = ids?.some((id) => id === target.model || id === `${target.model}:latest`);
    if (ids !== undefined && !pulled) {
      return {
        ref: target.ref,
        ok: false,
        method: "request",
        kind: "not-pulled",
        problem: `Ollama answers, but the model ${target.model} is not pulled`,
      };
    }
  }
  return { ref: target.ref, ok: true, method: "request" };
}

/** A local model: its file is on this machine and node-llama-cpp loads. */
async function checkLocal(target: ModelTarget, env: NodeJS.ProcessEnv): Promise<ModelCheck> {
  try {
    resolveModelFile(target.model, { ...(target.home ? { home: target.home } : {}), env });
    await importNodeLlama();
    return { ref: target.ref, ok: true, method: "file" };
  } catch (error) {
    if (isSpillwayError(error, "DEPENDENCY_MISSING")) {
      return {
        ref: target.ref,
        ok: false,
        method: "file",
        kind: "missing-dependency",
        problem: "node-llama-cpp is not installed",
      };
    }
    if (isSpillwayError(error, "MODEL_FILE_NOT_FOUND")) {
      return {
        ref: target.ref,
        ok: false,
        method: "file",
        kind: "not-pulled",
        problem: "its model file is not on this machine",
      };
    }
    throw error;
  }
}

/** Checks each model target (in parallel); the results are in the targets' order. */
export async function checkModels(
  targets: readonly ModelTarget[],
  options: PreflightOptions = {},
): Promise<ModelCheck[]> {
  const env = options.env ?? process.env;
  return Promise.all(
    targets.map(async (target): Promise<ModelCheck> => {
      if (target.provider === "openai" || target.provider === "anthropic") {
        const variable = target.apiKeyEnv;
        if (variable && !env[variable]) {
          return {
            ref: target.ref,
            ok: false,
            method: "api-key",
            kind: "missing-key",
            problem: `${variable} is not set`,
          };
        }
        return { ref: target.ref, ok: true, method: "api-key" };
      }
      if (target.provider === "local") return checkLocal(target, env);
      if (target.baseURL && isLocalBaseUrl(target.baseURL))
        return probe(target, target.baseURL, options);
      return { ref: target.ref, ok: true, method: "unchecked" };
    }),
  );
}

/** How to make one target work, in words. */
function fixOf(target: ModelTarget, check: ModelCheck, configPath: string | null): string {
  if (check.kind === "missing-key") return `export ${target.apiKeyEnv}=… for ${target.ref}`;
  if (check.kind === "missing-dependency")
    return `install the local model runtime (${INSTALL_COMMAND})`;
  if (target.provider === "local")
    return `get the model file: ${howToGetModel(target.model, target.home)}`;
  if (target.provider === "ollama") {
    return check.kind === "not-pulled"
      ? `pull it (\`ollama pull ${target.model}\`)`
      : `start Ollama (\`ollama serve\` and \`ollama pull ${target.model}\`)`;
  }
  const key = `providers.openai-compatible.${target.name ?? "<name>"}.baseURL`;
  return `start the server at ${target.baseURL} or correct ${key} in ${configPath ?? "spillway.config.json"}`;
}

const SOURCE_WORDS: Partial<Record<string, string>> & Record<SettingSource, string> = {
  cli: "`--model`",
  frontmatter: "the agent file's `models`",
  config: "the config file's `defaults.models`",
  env: "`SPILLWAY_MODEL`",
  default: "the built-in default",
};

/** The wanted models and what went wrong with each, e.g. "ollama/x at http://… (connection refused)". */
function wanted(targets: readonly ModelTarget[], checks: readonly ModelCheck[]): string {
  return targets
    .map((target, i) => {
      const at = target.baseURL && checks[i]?.method === "request" ? ` at ${target.baseURL}` : "";
      return `${target.ref}${at} (${checks[i]?.problem ?? "unusable"})`;
    })
    .join(", then ");
}

/** The failure when no model can be used: every problem, then how to fix each, then alternatives. */
export function noModelFailure(
  targets: readonly ModelTarget[],
  checks: readonly ModelCheck[],
  source: string | undefined,
  configPath: string | null,
): CliFailure {
  const fixes = targets.map((target, i) => fixOf(target, checks[i]!, configPath)).join("; or ");
  const fixText = fixes.charAt(0).toUpperCase() + fixes.slice(1);
  // SPILLWAY_MODEL only applies below the agent file and the config file.
  const byEnv = source === undefined || source === "env" || source === "default";
  const named =
    source !== undefined ? (SOURCE_WORDS[source as SettingSource] ?? source) : undefined;
  const wants = (provider: string) => targets.some((t) => t.provider === provider);
  // With nothing configured the three ways are SPILLWAY_MODEL, Ollama, the local model.
  const builtin = source === undefined || source === "default";
  const alternatives = [
    ...(builtin && !wants("ollama")
      ? ["start Ollama (`ollama serve` and `ollama pull qwen2.5:7b`)"]
      : []),
    ...(wants("local")
      ? []
      : [
          `a local model run in-process (\`npx spillway models pull\`, then --model local/${DEFAULT_LOCAL_MODEL})`,
        ]),
    ...(wants("openai")
      ? []
      : [
          byEnv
            ? "export SPILLWAY_MODEL=openai/gpt-4.1 and OPENAI_API_KEY=…"
            : "--model openai/gpt-4.1 with OPENAI_API_KEY",
        ]),
    ...(wants("anthropic") ? [] : ["--model anthropic/claude-sonnet-4-5 with ANTHROPIC_API_KEY"]),
    "an OpenAI-compatible server in spillway.config.json (providers.openai-compatible.<name>.baseURL) " +
      "with --model openai-compatible/<name>/<model>",
  ].join(", or ");
  const from = named !== undefined ? `, named by ${named}` : "";
  const allKeys = checks.every((check) => check.kind === "missing-key");
  return new CliFailure(
    allKeys ? "MISSING_API_KEY" : "MODEL_UNAVAILABLE",
    `No model is reachable. The agent wants ${wanted(targets, checks)}${from}. ${fixText}, ` +
      `or choose another model: ${alternatives}. (Skip this check with --no-preflight.)`,
    {
      models: checks.map((check) => ({ ...check })),
      ...(allKeys
        ? { variables: targets.map((t) => t.apiKeyEnv).filter((v) => v !== undefined) }
        : {}),
    },
  );
}

/**
 * Runs the preflight over a plan's models: throws a {@link CliFailure} (MODEL_UNAVAILABLE, or
 * MISSING_API_KEY when only keys are missing) when none is usable; otherwise returns a warning
 * for each unusable model ahead of the first usable one.
 */
export async function preflightModels(
  targets: readonly ModelTarget[],
  source: string | undefined,
  configPath: string | null,
  options: PreflightOptions = {},
): Promise<string[]> {
  const checks = await checkModels(targets, options);
  const first = checks.findIndex((check) => check.ok);
  if (first === -1) throw noModelFailure(targets, checks, source, configPath);
  return checks
    .slice(0, first)
    .map(
      (check) =>
        `${check.ref} is not reachable (${check.problem}); the run will fall back to ${checks[first]!.ref}`,
    );
}

import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { SpillwayError } from "../core/errors.js";
import { PROVIDER_NAMES, type ProviderName } from "../core/providers.js";
import type { TokenizerName } from "../core/tokens.js";
import { LocalLanguageModel } from "./local/local-language-model.js";

export type ProviderKind = ProviderName;

/** Everything needed to call one model of an agent's fallback list. */
export interface ModelTarget {
  /** The ref as configured, e.g. `openai/gpt-4.1` or `openai-compatible/vllm/llama-3`. */
  readonly ref: string;
  readonly provider: ProviderKind;
  /** For openai-compatible: the configured provider name. */
  readonly name?: string;
  readonly model: string;
  readonly baseURL?: string;
  /** The environment variable holding the API key (keys never come from files). */
  readonly apiKeyEnv?: string;
  readonly headers?: Record<string, string>;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly tokenizer: TokenizerName;
  readonly pricing?: { readonly inputPerMTok: number; readonly outputPerMTok: number };
  /** For `local`: the store home whose `models/` is searched for the model's name. */
  readonly home?: string;
}

export const OLLAMA_DEFAULT_BASE_URL = "http://localhost:11434/v1";

function apiKeyOf(
  target: ModelTarget,
  env: NodeJS.ProcessEnv,
  required: boolean,
): string | undefined {
  if (!target.apiKeyEnv) return undefined;
  const key = env[target.apiKeyEnv];
  if (!key && required) {
    throw new SpillwayError(
      "MISSING_API_KEY",
      `Model ${target.ref} needs an API key in the environment variable ${target.apiKeyEnv}, which is not set. ` +
        `Export it (export ${target.apiKeyEnv}=…) or choose another model with --model or SPILLWAY_MODEL.`,
      { model: target.ref, variable: target.apiKeyEnv },
    );
  }
  return key || undefined;
}

/**
 * Machine-level tuning of local models from the environment: `SPILLWAY_LOCAL_THREADS` (CPU
 * threads) and `SPILLWAY_LOCAL_SEQUENCES` (context sequences kept per model, default 2).
 */
function localTuning(env: NodeJS.ProcessEnv): { threads?: number; sequences?: number } {
  const positive = (name: string) => {
    const value = Number.parseInt(env[name] ?? "", 10);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  const threads = positive("SPILLWAY_LOCAL_THREADS");
  const sequences = positive("SPILLWAY_LOCAL_SEQUENCES");
  return { ...(threads ? { threads } : {}), ...(sequences ? { sequences } : {}) };
}

const cachedModels = new Map<string, LanguageModel>();

/**
 * The language model of a target, built once per process and configuration (a provider
 * builds its response schemas when created: worth keeping across a session's calls).
 */
export function languageModelFor(
  target: ModelTarget,
  env: NodeJS.ProcessEnv = process.env,
): LanguageModel {
  const key = JSON.stringify([
    target.provider,
    target.name,
    target.model,
    target.baseURL,
    target.headers,
    target.apiKeyEnv,
    target.apiKeyEnv ? env[target.apiKeyEnv] : undefined,
    target.provider === "local" ? [target.home, target.contextWindow, localTuning(env)] : null,
  ]);
  let model = cachedModels.get(key);
  if (!model) {
    model = createLanguageModel(target, env);
    if (cachedModels.size >= 64) cachedModels.delete(cachedModels.keys().next().value!);
    cachedModels.set(key, model);
  }
  return model;
}

/**
 * Creates the AI SDK language model for a target. API keys are read from the environment
 * variable the target names; a missing required key is MISSING_API_KEY naming the variable.
 *
 * @example
 * const model = createLanguageModel({ ref: "ollama/qwen2.5:7b", provider: "ollama", model: "qwen2.5:7b",
 *   baseURL: OLLAMA_DEFAULT_BASE_URL, contextWindow: 32768, maxOutputTokens: 4096, tokenizer: "o200k_base" });
 */
export function createLanguageModel(
  target: ModelTarget,
  env: NodeJS.ProcessEnv = process.env,
): LanguageModel {
  const headers = target.headers ? { headers: target.headers } : {};
  const baseURL = target.baseURL ? { baseURL: target.baseURL } : {};
  switch (target.provider) {
    case "openai": {
      const apiKey = apiKeyOf(target, env, true);
      // Chat Completions: the API every OpenAI-compatible server shares.
      return createOpenAI({ ...baseURL, ...headers, ...(apiKey ? { apiKey } : {}) }).chat(
        target.model,
      );
    }
    case "anthropic": {
      const apiKey = apiKeyOf(target, env, true);
      return createAnthropic({ ...baseURL, ...headers, ...(apiKey ? { apiKey } : {}) })(
        target.model,
      );
    }
    case "ollama":
    case "openai-compatible": {
      const apiKey = apiKeyOf(target, env, false);
      return createOpenAICompatible({
        name: target.name ?? target.provider,
        baseURL: target.baseURL ?? OLLAMA_DEFAULT_BASE_URL,
        includeUsage: true,
        ...headers,
        ...(apiKey ? { apiKey } : {}),
      }).chatModel(target.model);
    }
    case "local":
      return new LocalLanguageModel(target.model, {
        contextSize: target.contextWindow,
        ...(target.home ? { home: target.home } : {}),
        env,
        ...localTuning(env),
      });
    default:
      throw new SpillwayError(
        "UNKNOWN_PROVIDER",
        `Unknown provider in model ref "${(target as ModelTarget).ref}"; valid providers: ${PROVIDER_NAMES.join(", ")}.`,
        {
          model: (target as ModelTarget).ref,
        },
      );
  }
}

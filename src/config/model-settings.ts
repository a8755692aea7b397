/**
 * Per-model facts the runtime needs: context window, output limit, tokenizer, pricing.
 */
import type { TokenizerName } from "../core/tokens.js";
import { builtinContextWindow, defaultTokenizer, LOCAL_MAX_OUTPUT_TOKENS } from "./defaults.js";
import { type ModelRef, parseModelRef } from "./model-ref.js";
import type { ResolvedSettings } from "./resolve-settings.js";

/** What spillway knows about one model. */
export interface ModelSettings {
  contextWindow: number;
  maxOutputTokens: number;
  tokenizer: TokenizerName;
  /** USD per million tokens, when the config file gives it. */
  pricing?: { inputPerMTok: number; outputPerMTok: number };
}

/**
 * The settings of one model. `contextWindow` is the resolved value for the agent's models
 * (see `resolveSettings`), else the config file's `models[ref].contextWindow`, else the
 * built-in table. `maxOutputTokens` from the CLI or frontmatter applies to every model;
 * otherwise the config file's `models[ref].maxOutputTokens` beats `defaults.maxOutputTokens`
 * (a `local/…` model with nothing set reserves 1,024 instead of the default 4,096).
 * `tokenizer` and `pricing` come from the config file's `models[ref]` (tokenizer default by
 * model family).
 *
 * @example
 * const settings = resolveSettings({ config: await loadConfig() });
 * modelSettings(settings, "openai/gpt-4.1");
 * // { contextWindow: 1047576, maxOutputTokens: 4096, tokenizer: "o200k_base" }
 */
export function modelSettings(resolved: ResolvedSettings, ref: string | ModelRef): ModelSettings {
  const model = typeof ref === "string" ? parseModelRef(ref) : ref;
  const configured = resolved.modelConfigs[model.ref];
  const agentLevel =
    resolved.sources.maxOutputTokens === "cli" ||
    resolved.sources.maxOutputTokens === "frontmatter";
  return {
    contextWindow:
      resolved.contextWindow[model.ref] ?? configured?.contextWindow ?? builtinContextWindow(model),
    maxOutputTokens: agentLevel
      ? resolved.maxOutputTokens
      : (configured?.maxOutputTokens ??
        (model.provider === "local" && resolved.sources.maxOutputTokens === "default"
          ? LOCAL_MAX_OUTPUT_TOKENS
          : resolved.maxOutputTokens)),
    tokenizer: configured?.tokenizer ?? defaultTokenizer(model),
    ...(configured?.pricing ? { pricing: { ...configured.pricing } } : {}),
  };
}

import { SpillwayError } from "../core/errors.js";
import { PROVIDER_NAMES, type ProviderName } from "../core/providers.js";

export { PROVIDER_NAMES, type ProviderName };

/** How the valid provider forms are listed in messages. */
export const VALID_PROVIDERS_TEXT =
  'openai, anthropic, ollama, openai-compatible/<name>, local (e.g. "openai/gpt-4.1", ' +
  '"ollama/qwen2.5:7b", "openai-compatible/vllm/meta-llama/Llama-3-8B", ' +
  '"local/qwen2.5-coder-1.5b-instruct-q4_k_m" or "local/./models/model.gguf")';

/** A parsed model reference such as `openai/gpt-4.1` or `openai-compatible/vllm/org/model`. */
export interface ModelRef {
  provider: ProviderName;
  /** The configured endpoint name, for `openai-compatible` only. */
  name?: string;
  /** The provider's model id; may contain `/` and `:`. */
  model: string;
  /** The reference as written, e.g. `openai-compatible/vllm/meta-llama/Llama-3-8B`. */
  ref: string;
}

/** Names of `openai-compatible` endpoints and of MCP servers. */
export const NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** The result of checking a model reference without throwing. */
export type ModelRefCheck =
  | { ok: true; value: ModelRef }
  | { ok: false; kind: "unknown_provider"; provider: string; message: string }
  | { ok: false; kind: "malformed"; message: string };

const FORM = 'a model ref "provider/model", e.g. "openai/gpt-4.1"';

/**
 * Checks a model reference and says what is wrong in words (no throw).
 *
 * @example
 * checkModelRef("gemini/flash"); // { ok: false, kind: "unknown_provider", provider: "gemini", … }
 */
export function checkModelRef(ref: string): ModelRefCheck {
  if (ref.length === 0 || /\s/.test(ref)) {
    return { ok: false, kind: "malformed", message: `expected ${FORM} without spaces` };
  }
  const slash = ref.indexOf("/");
  if (slash <= 0) {
    return { ok: false, kind: "malformed", message: `expected ${FORM}; the provider is missing` };
  }
  const provider = ref.slice(0, slash);
  const rest = ref.slice(slash + 1);
  if (!isProviderName(provider)) {
    return {
      ok: false,
      kind: "unknown_provider",
      provider,
      message: `unknown provider "${provider}" in model ref "${ref}"; valid providers: ${VALID_PROVIDERS_TEXT}`,
    };
  }
  if (provider === "openai-compatible") {
    const nameEnd = rest.indexOf("/");
    const name = nameEnd < 0 ? rest : rest.slice(0, nameEnd);
    const model = nameEnd < 0 ? "" : rest.slice(nameEnd + 1);
    if (!NAME_PATTERN.test(name) || model.length === 0) {
      return {
        ok: false,
        kind: "malformed",
        message:
          'expected "openai-compatible/<name>/<model>" where <name> is an endpoint from the config ' +
          'file\'s providers.openai-compatible (letters, digits, "_", "-"), e.g. ' +
          '"openai-compatible/vllm/meta-llama/Llama-3-8B"',
      };
    }
    return { ok: true, value: { provider, name, model, ref } };
  }
  if (rest.length === 0) {
    return { ok: false, kind: "malformed", message: `expected ${FORM}; the model is missing` };
  }
  return { ok: true, value: { provider, model: rest, ref } };
}

/**
 * Parses a model reference `provider/model`. The provider is `openai`, `anthropic`, `ollama`,
 * `openai-compatible/<name>` or `local` (a GGUF file by name or path); everything after it is
 * the model id, slashes included.
 * Throws `UNKNOWN_PROVIDER` for another provider and `CONFIG_INVALID` for a malformed ref.
 *
 * @example
 * parseModelRef("ollama/qwen2.5:7b");
 * // { provider: "ollama", model: "qwen2.5:7b", ref: "ollama/qwen2.5:7b" }
 * parseModelRef("openai-compatible/vllm/meta-llama/Llama-3-8B");
 * // { provider: "openai-compatible", name: "vllm", model: "meta-llama/Llama-3-8B", ref: "…" }
 */
export function parseModelRef(ref: string, where?: string): ModelRef {
  const checked = checkModelRef(ref);
  if (checked.ok) return checked.value;
  const prefix = where ? `${where}: ` : "";
  if (checked.kind === "unknown_provider") {
    throw new SpillwayError("UNKNOWN_PROVIDER", `${prefix}${checked.message}.`, {
      ref,
      provider: checked.provider,
      validProviders: [...PROVIDER_NAMES],
      ...(where ? { where } : {}),
    });
  }
  throw new SpillwayError(
    "CONFIG_INVALID",
    `${prefix}model ref ${JSON.stringify(ref)} is malformed: ${checked.message}.`,
    { ref, expected: FORM, ...(where ? { where } : {}) },
  );
}

/**
 * True when `value` names one of {@link PROVIDER_NAMES}.
 *
 * @example
 * isProviderName("ollama"); // true
 * isProviderName("gemini"); // false
 */
export function isProviderName(value: string): value is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(value);
}

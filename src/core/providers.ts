/**
 * The model providers spillway can call, kept in core so that the config layer (which parses
 * model refs) and the providers layer (which builds clients) share one list.
 *
 * @example
 * ```ts
 * PROVIDER_NAMES.includes("ollama"); // true
 * ```
 */
export const PROVIDER_NAMES = [
  "openai",
  "anthropic",
  "ollama",
  "openai-compatible",
  "local",
] as const;

/** One of {@link PROVIDER_NAMES}. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

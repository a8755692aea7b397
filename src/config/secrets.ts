/**
 * Secrets come only from the environment: a config file that holds a literal API key, token
 * or secret is rejected (without echoing the value).
 */
import type { ConfigProblem, Locate } from "./problems.js";
import { keyPath } from "./problems.js";

const SECRET_KEY = /(apikey|token|secret)$/i;

/** The variable name to suggest: `<PROVIDER>_API_KEY` directly under a provider entry. */
function suggestedEnvName(path: readonly PropertyKey[]): string {
  const [top, provider, name] = path.map(String);
  const envName = (word: string): string =>
    `${word.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`;
  if (top !== "providers" || provider === undefined) return "VAR_NAME";
  if (provider === "openai-compatible") {
    return path.length === 3 && name !== undefined ? envName(name) : "VAR_NAME";
  }
  return path.length === 2 ? envName(provider) : "VAR_NAME";
}

/**
 * Problems for every key named like a secret (`apiKey`, or ending in `apiKey`, `token` or
 * `secret`, any case) that holds a literal string or number. The value is never shown.
 *
 * @example
 * literalSecretProblems({ providers: { openai: { apiKey: "sk-…" } } });
 * // [{ key: "providers.openai.apiKey", text: 'a literal secret is not allowed …' }]
 */
export function literalSecretProblems(
  data: unknown,
  locate: Locate = () => undefined,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const visit = (value: unknown, path: PropertyKey[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, [...path, index]);
      });
      return;
    }
    if (typeof value !== "object" || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      const childPath = [...path, key];
      if (SECRET_KEY.test(key) && (typeof child === "string" || typeof child === "number")) {
        const line = locate(childPath);
        problems.push({
          key: keyPath(childPath),
          ...(line !== undefined ? { line } : {}),
          text:
            "a literal secret is not allowed in the config file; secrets are read only from the " +
            `environment: use apiKeyEnv: "${suggestedEnvName(path)}" (the name of the environment ` +
            "variable that holds it) and set that variable",
        });
      } else {
        visit(child, childPath);
      }
    }
  };
  visit(data, []);
  return problems;
}

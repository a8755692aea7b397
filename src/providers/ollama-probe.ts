/**
 * Whether an Ollama server answers at a base URL and has a model pulled: how model resolution
 * decides, with nothing configured, between Ollama and the embedded local model.
 */

export interface OllamaProbeOptions {
  readonly timeoutMs?: number;
  /** Injectable for tests. */
  readonly fetch?: typeof fetch;
}

/**
 * True when `GET <baseURL>/models` answers within the timeout (default 1.5 s) and lists
 * `model` (or `model:latest`); an answer without a readable list counts as yes.
 *
 * @example
 * await ollamaServes("http://localhost:11434/v1", "qwen2.5:7b"); // false when Ollama is not running
 */
export async function ollamaServes(
  baseURL: string,
  model: string,
  options: OllamaProbeOptions = {},
): Promise<boolean> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(`${baseURL.replace(/\/+$/, "")}/models`, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 1500),
    });
  } catch {
    return false;
  }
  if (!response.ok) {
    await response.body?.cancel();
    return false;
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return true;
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return true;
  return data.some((entry) => {
    const id = (entry as { id?: unknown } | null)?.id;
    return id === model || id === `${model}:latest`;
  });
}

import { DEFAULT_LOCAL_MODEL_REF, DEFAULT_MODEL } from "./defaults.js";
import { type ModelRef, parseModelRef } from "./model-ref.js";

/**
 * The models when no level sets them: `SPILLWAY_MODEL`, else Ollama's default model (used when
 * a server answers), then the local model.
 *
 * @example
 * defaultModels({ SPILLWAY_MODEL: "ollama/llama3.1" }); // { value: [ollama/llama3.1], source: "env" }
 */
export function defaultModels(env: NodeJS.ProcessEnv): {
  value: ModelRef[];
  source: "env" | "default";
} {
  const fromEnv = env.SPILLWAY_MODEL?.trim();
  if (fromEnv) {
    return {
      value: [parseModelRef(fromEnv, "environment variable SPILLWAY_MODEL")],
      source: "env",
    };
  }
  // Nothing configured: Ollama's default model when a server answers, else the local model
  // (the agent layer drops an Ollama that does not answer before the run starts).
  return {
    value: [parseModelRef(DEFAULT_MODEL), parseModelRef(DEFAULT_LOCAL_MODEL_REF)],
    source: "default",
  };
}

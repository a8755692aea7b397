import type { LanguageModelV3 } from "@ai-sdk/provider";
import { DEFAULT_LOCAL_MODEL } from "../providers/local/catalog.js";
import {
  LocalLanguageModel,
  type LocalModelOptions,
} from "../providers/local/local-language-model.js";

/**
 * spillway's embedded local model (`local/<name-or-path>`, a GGUF file run in-process by
 * node-llama-cpp) as an AI SDK language model: no key, no server. By name it is looked up in
 * `$SPILLWAY_HOME/models` and the shared model cache; a path is taken as it is. The file is
 * loaded on the first call (once per process). Needs the optional `node-llama-cpp` package.
 *
 * @example
 * import { generateText } from "ai";
 * import { localModel, spillwayTools } from "spillway/ai";
 *
 * const { text } = await generateText({ model: localModel(), tools: spillwayTools(tools), prompt });
 */
export function localModel(
  nameOrPath: string = DEFAULT_LOCAL_MODEL,
  options: Pick<LocalModelOptions, "contextSize" | "home" | "threads"> = {},
): LanguageModelV3 {
  return new LocalLanguageModel(nameOrPath, options);
}

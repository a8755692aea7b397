/**
 * Picks the example's model from the environment: any AI SDK provider works.
 *
 * - `OPENAI_API_KEY`: OpenAI (`EXAMPLE_MODEL`, default gpt-4.1-mini);
 * - `ANTHROPIC_API_KEY`: Anthropic (`EXAMPLE_MODEL`, default claude-sonnet-4-5);
 * - `OPENAI_COMPATIBLE_BASE_URL`: any OpenAI-compatible server (Ollama, vLLM, llama.cpp; model
 *   `EXAMPLE_MODEL`);
 * - none of these: the embedded local model (no key, no server).
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { localModel } from "spillway/ai";

export interface ChosenModel {
  readonly model: LanguageModel;
  /** How the example names it in its output. */
  readonly name: string;
  /** Tokens the conversation may use (context window less the answer's reserve). */
  readonly tokenBudget: number;
}

export async function chooseModel(env: NodeJS.ProcessEnv = process.env): Promise<ChosenModel> {
  if (env.OPENAI_COMPATIBLE_BASE_URL) {
    const id = env.EXAMPLE_MODEL ?? "default";
    const provider = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: env.OPENAI_COMPATIBLE_BASE_URL,
      ...(env.OPENAI_COMPATIBLE_API_KEY ? { apiKey: env.OPENAI_COMPATIBLE_API_KEY } : {}),
    });
    return {
      model: provider(id),
      name: `${id} at ${env.OPENAI_COMPATIBLE_BASE_URL}`,
      tokenBudget: 28_000,
    };
  }
  if (env.OPENAI_API_KEY) {
    const id = env.EXAMPLE_MODEL ?? "gpt-4.1-mini";
    return {
      model: createOpenAI({ apiKey: env.OPENAI_API_KEY })(id),
      name: `openai/${id}`,
      tokenBudget: 120_000,
    };
  }
  if (env.ANTHROPIC_API_KEY) {
    const id = env.EXAMPLE_MODEL ?? "claude-sonnet-4-5";
    return {
      model: createAnthropic({ apiKey: env.ANTHROPIC_API_KEY })(id),
      name: `anthropic/${id}`,
      tokenBudget: 190_000,
    };
  }
  // No key, no server: the embedded local model (npm run model:fetch puts it in the model cache).
  const id = env.EXAMPLE_MODEL ?? "qwen2.5-coder-1.5b-instruct-q4_k_m";
  return {
    model: localModel(id, { contextSize: 16_384 }),
    name: `local/${id} (embedded, no key)`,
    tokenBudget: 12_000,
  };
}

import { describe, expect, it } from "vitest";
import { PROVIDER_NAMES } from "../core/providers.js";
import { createLanguageModel, type ModelTarget } from "./models.js";

describe("createLanguageModel", () => {
  it("names the target's ref and every valid provider when the provider is unknown", () => {
    const target = {
      ref: "gemini/flash",
      provider: "gemini",
      model: "flash",
      contextWindow: 8_192,
      maxOutputTokens: 512,
      tokenizer: "o200k_base",
    } as unknown as ModelTarget;
    expect(() => createLanguageModel(target, {})).toThrow(
      `Unknown provider in model ref "gemini/flash"; valid providers: ${PROVIDER_NAMES.join(", ")}.`,
    );
    expect(PROVIDER_NAMES).toEqual(["openai", "anthropic", "ollama", "openai-compatible", "local"]);
  });

  it("names the missing environment variable when a required API key is absent", () => {
    const target: ModelTarget = {
      ref: "openai/gpt-4.1",
      provider: "openai",
      model: "gpt-4.1",
      apiKeyEnv: "SPILLWAY_TEST_OPENAI_KEY",
      contextWindow: 8_192,
      maxOutputTokens: 512,
      tokenizer: "o200k_base",
    };
    expect(() => createLanguageModel(target, {})).toThrow(/SPILLWAY_TEST_OPENAI_KEY/);
  });
});

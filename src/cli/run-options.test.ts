import { describe, expect, it } from "vitest";
import { cliSettingsOf } from "./run-options.js";

describe("run flags as CLI-level settings", () => {
  it("keeps only the flags given, and maps each to its setting", () => {
    expect(cliSettingsOf({})).toEqual({});
    expect(
      cliSettingsOf({
        model: ["openai/gpt-4.1", "ollama/qwen2.5:7b"],
        extractionModel: ["openai/gpt-4.1-mini"],
        maxTurns: 8,
        toolOutput: false,
        surface: "get_continuation",
        toolTimeout: 30,
      }),
    ).toEqual({
      models: ["openai/gpt-4.1", "ollama/qwen2.5:7b"],
      extraction: { models: ["openai/gpt-4.1-mini"] },
      maxTurns: 8,
      toolOutput: { enabled: false, surface: "get_continuation" },
      toolTimeoutSecs: 30,
    });
  });

  it("maps the async flags: --async/--no-async, timeout, token threshold, max running", () => {
    expect(cliSettingsOf({ async: false })).toEqual({ async: false });
    expect(
      cliSettingsOf({
        async: true,
        asyncTimeout: 0.5,
        asyncTokenThreshold: 20_000,
        asyncMaxRunning: 2,
      }),
    ).toEqual({
      async: true,
      asyncTimeoutSecs: 0.5,
      asyncTokenThreshold: 20_000,
      asyncMaxRunning: 2,
    });
  });

  it("maps the compaction flags into one compaction object", () => {
    expect(cliSettingsOf({ compaction: true })).toEqual({});
    expect(cliSettingsOf({ compaction: false })).toEqual({ compaction: { enabled: false } });
    expect(
      cliSettingsOf({
        compactionWarn: 0.6,
        compactionAt: 0.8,
        compactionHard: 0.9,
        compactionModel: "extraction",
        summaryMaxTokens: 900,
      }),
    ).toEqual({
      compaction: {
        warn: 0.6,
        compact: 0.8,
        hard: 0.9,
        model: "extraction",
        summaryMaxTokens: 900,
      },
    });
  });
});

import { describe, expect, it } from "vitest";
import { isSpillwayError } from "../core/errors.js";
import { resolveSettings } from "./resolve-settings.js";

const NO_ENV = {};

describe("compaction settings", () => {
  it("merge key by key: CLI > frontmatter > config > default", () => {
    const settings = resolveSettings({
      env: NO_ENV,
      cli: { compaction: { compact: 0.8 } },
      agent: {
        path: "/a.md",
        name: "a",
        systemPrompt: "",
        frontmatter: { compaction: { compact: 0.85, warn: 0.6, model: "extraction" } },
      },
      config: {
        path: "/c.json",
        format: "json",
        config: {
          providers: {},
          models: {},
          mcpServers: {},
          defaults: { compaction: { warn: 0.5, hard: 0.97, summaryMaxTokens: 500 } },
        },
      },
    });
    expect(settings.compaction).toEqual({
      enabled: true,
      warn: 0.6,
      compact: 0.8,
      hard: 0.97,
      model: "extraction",
      summaryMaxTokens: 500,
    });
    expect(settings.sources).toMatchObject({
      "compaction.compact": "cli",
      "compaction.warn": "frontmatter",
      "compaction.hard": "config",
      "compaction.enabled": "default",
    });
  });

  it("rejects thresholds that do not rise, naming each key, its value and where it came from", () => {
    let error: unknown;
    try {
      resolveSettings({
        env: NO_ENV,
        cli: { compaction: { warn: 0.95 } },
        agent: {
          path: "/a.md",
          name: "a",
          systemPrompt: "",
          frontmatter: { compaction: { hard: 0.85 } },
        },
      });
    } catch (caught) {
      error = caught;
    }
    expect(isSpillwayError(error, "CONFIG_INVALID")).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain(
      "compaction.warn: got 0.95 (from cli), above compaction.compact (0.9, from default)",
    );
    expect(message).toContain(
      "compaction.compact: got 0.9 (from default), above compaction.hard (0.85, from frontmatter)",
    );
  });

  it("rejects a threshold outside (0, 1] and an unknown summarizer", () => {
    expect(() => resolveSettings({ env: NO_ENV, cli: { compaction: { compact: 1.5 } } })).toThrow(
      /compaction\.compact.*a number > 0 and <= 1/,
    );
    expect(() =>
      resolveSettings({ env: NO_ENV, cli: { compaction: { model: "cheap" as "serving" } } }),
    ).toThrow(/compaction\.model.*one of "serving" or "extraction"/);
  });
});

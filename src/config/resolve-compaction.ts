/**
 * `compaction` resolution: each key from the highest level that sets it (CLI > frontmatter >
 * config `defaults` > built-in), then one check across keys: warn <= compact <= hard.
 */
import { DEFAULT_SETTINGS } from "./defaults.js";
import type { ConfigProblem } from "./problems.js";
import { throwProblems } from "./problems.js";
import type { CompactionModel, CompactionValues } from "./settings-schema.js";

/** `compaction`, every key resolved. */
export interface ResolvedCompaction {
  enabled: boolean;
  /** Fractions of the window the input may use (context window less maxOutputTokens). */
  warn: number;
  compact: number;
  hard: number;
  model: CompactionModel;
  summaryMaxTokens: number;
}

const KEYS = ["enabled", "warn", "compact", "hard", "model", "summaryMaxTokens"] as const;

type Source = "cli" | "frontmatter" | "config" | "env" | "default";

/**
 * Merges `compaction` key by key across levels and records each key's source.
 *
 * @example
 * resolveCompaction([{ source: "cli", values: { compaction: { compact: 0.8 } } }], {});
 * // { enabled: true, warn: 0.75, compact: 0.8, hard: 0.95, model: "serving", summaryMaxTokens: 2048 }
 */
export function resolveCompaction(
  layers: readonly { source: Source; values: { compaction?: CompactionValues | undefined } }[],
  sources: Record<string, Source>,
): ResolvedCompaction {
  const resolved: Record<string, unknown> = {};
  for (const key of KEYS) {
    const layer = layers.find((candidate) => candidate.values.compaction?.[key] !== undefined);
    resolved[key] = layer ? layer.values.compaction?.[key] : DEFAULT_SETTINGS.compaction[key];
    sources[`compaction.${key}`] = layer?.source ?? "default";
  }
  const compaction = resolved as unknown as ResolvedCompaction;
  const problems: ConfigProblem[] = [];
  const order = [
    ["warn", "compact"],
    ["compact", "hard"],
  ] as const;
  for (const [low, high] of order) {
    if (compaction[low] <= compaction[high]) continue;
    problems.push({
      key: `compaction.${low}`,
      value: compaction[low],
      expected: `at most compaction.${high} (${compaction[high]}, from ${sources[`compaction.${high}`]})`,
      text:
        `got ${compaction[low]} (from ${sources[`compaction.${low}`]}), above compaction.${high} ` +
        `(${compaction[high]}, from ${sources[`compaction.${high}`]}); the thresholds must rise: warn <= compact <= hard`,
    });
  }
  if (problems.length > 0)
    throwProblems("CONFIG_INVALID", "compaction settings", undefined, problems);
  return compaction;
}

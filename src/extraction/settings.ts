import type { ChunkSizeRule } from "../core/chunk-size-rule.js";
import type { ModelTarget } from "../providers/models.js";

/** The extraction strategies ([extraction](../../docs/extraction.md)). */
export const EXTRACTION_STRATEGIES = ["auto", "full-chunked", "read-grep", "truncate"] as const;
export type ExtractionStrategy = (typeof EXTRACTION_STRATEGIES)[number];

/** How extraction runs; resolved from `extraction:` (CLI > frontmatter > config > these defaults). */
export interface ExtractionSettings {
  /** Extraction models in fallback order; null means the model that served the current turn. */
  readonly models: readonly ModelTarget[] | null;
  /** Most chunks a full-chunked run may read (cost bound). */
  readonly maxChunks: number;
  readonly chunkOverlapPercent: number;
  /** Map calls running at once. */
  readonly concurrency: number;
  /** auto routing: outputs of at most this many chunks go full-chunked (default 1). */
  readonly fullModeMaxChunks: number;
  /** auto routing: outputs whose average line is at least this many bytes go full-chunked. */
  readonly longLineBytes: number;
  readonly chunkSize: ChunkSizeRule;
  readonly readGrepMaxTurns: number;
  readonly readGrepMaxToolCallsPerTurn: number;
  /** Retries of a failed extraction call (no answer, or no final-report wrapper). */
  readonly retries: number;
}

export const DEFAULT_EXTRACTION: Omit<ExtractionSettings, "models"> = {
  maxChunks: 20,
  chunkOverlapPercent: 10,
  concurrency: 4,
  fullModeMaxChunks: 1,
  longLineBytes: 1000,
  chunkSize: "safer",
  readGrepMaxTurns: 10,
  readGrepMaxToolCallsPerTurn: 4,
  retries: 2,
};

/** Bump when prompts or parsing change: cached results of older versions are not reused. */
export const EXTRACTION_PROMPT_VERSION = "spillway-extract-1";

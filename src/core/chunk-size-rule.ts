/**
 * How extraction sizes chunks: `window-minus-output` (context window - max output -
 * prompt), `half-window` (50% of the window), or `safer`, the smaller of the two.
 * Shared by the config schema and the extraction chunker (D3-size in docs/architecture.md).
 */
export const CHUNK_SIZE_RULES = ["safer", "window-minus-output", "half-window"] as const;
export type ChunkSizeRule = (typeof CHUNK_SIZE_RULES)[number];

import type { OutputRecord } from "../store/output-store.js";

/**
 * Model-driven reads (extraction) plug in here; until configured, surfaces that need it say
 * so (or fall back, where the surface has a fallback).
 */
export interface Extractor {
  extract(request: {
    readonly output: OutputRecord;
    readonly query: string;
    readonly strategy: "auto" | "full-chunked" | "read-grep" | "truncate";
    /** The tool call that asked (for the trace). */
    readonly toolCallId?: string;
    readonly signal?: AbortSignal;
    /** Characters the answer may take (bounds a truncate answer). */
    readonly maxChars?: number;
  }): Promise<{
    /** The strategy that produced `text`. */
    readonly strategy: string;
    readonly text: string;
    /** True when extraction could not produce an answer (the text says why). */
    readonly failed: boolean;
  }>;
}

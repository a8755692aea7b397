import type { Snippet } from "./quotes.js";
import type { ExtractionStrategy } from "./settings.js";

/** What an extraction found, with its provenance (D3-12). */
export interface ExtractionResult {
  readonly requested: ExtractionStrategy;
  /** The strategy that produced the answer (truncate when a fallback happened). */
  readonly strategy: "full-chunked" | "read-grep" | "truncate";
  /** False when nothing relevant was found (a successful answer, not a failure). */
  readonly found: boolean;
  readonly answer: string;
  /** Quotes verified verbatim against the stored output, in output order. */
  readonly snippets: Snippet[];
  /** Quotes the model gave that are not in the output: dropped. */
  readonly unverified: number;
  readonly outputId: string;
  /** SHA-256 of the whole stored output. */
  readonly sourceHash: string;
  /** Bytes of the stored output. */
  readonly sourceSize: number;
  readonly chunksSearched: number;
  readonly chunksTotal: number;
  /** 0..1: the model's own when it gave one, else the share of its quotes that verified. */
  readonly confidence: number;
  readonly noMatchReason?: string;
  /** Set when the requested strategy could not run and truncate stood in (D0-4). */
  readonly fallback?: { readonly from: ExtractionStrategy; readonly reason: string };
  /** The extraction model that answered (null for truncate). */
  readonly model: string | null;
  /** True when this answer came from the cache (no model call was made). */
  readonly cached: boolean;
}

const n = (value: number) => value.toLocaleString("en-US");
const MAX_QUOTES_SHOWN = 20;
const MAX_QUOTE_CHARS = 300;

/**
 * The model-facing text: the answer first, then the verified quotes with their offsets and
 * lines (so the model can cite them and slice around them), then what was searched.
 */
export function renderExtraction(result: ExtractionResult): string {
  const parts: string[] = [];
  if (result.fallback) {
    parts.push(
      `WARNING: strategy ${result.fallback.from}${result.requested === "auto" && result.fallback.from !== "auto" ? " (chosen by auto)" : ""} ` +
        `could not run (${result.fallback.reason}); falling back to truncate, ` +
        "which keeps only the top and bottom of the output.",
    );
  }
  parts.push(
    result.found
      ? result.answer
      : `No relevant data found. ${result.noMatchReason ?? result.answer}`.trim(),
  );
  if (result.snippets.length > 0) {
    const lines = result.snippets.slice(0, MAX_QUOTES_SHOWN).map((s, i) => {
      const text =
        s.text.length > MAX_QUOTE_CHARS ? `${s.text.slice(0, MAX_QUOTE_CHARS)}…` : s.text;
      const lines =
        s.lineStart === s.lineEnd
          ? `line ${n(s.lineStart)}`
          : `lines ${n(s.lineStart)}-${n(s.lineEnd)}`;
      return `  ${i + 1}. chars ${n(s.charStart)}-${n(s.charEnd)}, ${lines}: ${JSON.stringify(text)}`;
    });
    const more =
      result.snippets.length > MAX_QUOTES_SHOWN
        ? [`  … ${result.snippets.length - MAX_QUOTES_SHOWN} more`]
        : [];
    parts.push(
      [
        `Verified quotes from ${result.outputId} (sha256 ${result.sourceHash.slice(0, 12)}…, ${n(result.sourceSize)} bytes):`,
        ...lines,
        ...more,
      ].join("\n"),
    );
  }
  if (result.unverified > 0) {
    parts.push(
      `(${result.unverified} quote${result.unverified === 1 ? "" : "s"} the extraction model gave ${result.unverified === 1 ? "was" : "were"} dropped: not found verbatim in the output, too short, or found in several places.)`,
    );
  }
  if (result.strategy !== "truncate") {
    parts.push(
      `[extraction: ${result.strategy}${result.requested === "auto" ? " (auto)" : ""}, ${result.chunksSearched} of ${result.chunksTotal} chunks searched, ` +
        `model ${result.model ?? "none"}, confidence ${result.confidence.toFixed(2)}${result.cached ? ", cached" : ""}]`,
    );
  }
  return parts.join("\n\n");
}

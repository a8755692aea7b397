import { createHash } from "node:crypto";
import { mapConcurrent } from "../core/concurrency.js";
import { type Chunk, type ChunkPlan, snapChunk } from "./chunker.js";
import type { ParsedAnswer } from "./final-report.js";
import { mapSystemPrompt, reduceSystemPrompt } from "./prompts.js";
import { mergeSnippets, type Snippet, unverifiedReason, verifyQuotes } from "./quotes.js";
import type { ExtractionResult } from "./result.js";
import { askForAnswer, type ExtractionRun } from "./run-context.js";
import { EXTRACTION_PROMPT_VERSION } from "./settings.js";

interface ChunkAnswer {
  readonly chunk: Chunk;
  readonly parsed: ParsedAnswer;
  readonly snippets: Snippet[];
  readonly unverified: number;
  readonly model: string;
}

function chunkCacheKey(run: ExtractionRun, chunk: Chunk, total: number): string {
  return createHash("sha256")
    .update(
      JSON.stringify([
        EXTRACTION_PROMPT_VERSION,
        "map",
        run.record.sha256,
        run.query,
        run.targets[0]?.ref,
        chunk.charStart,
        chunk.charEnd,
        total,
        run.settings.chunkOverlapPercent,
      ]),
    )
    .digest("hex");
}

/** Chunk answers to cache, written together once the map step ends (one disk sync, not ten). */
type PendingCache = { key: string; kind: "chunk"; value: unknown }[];

async function mapChunk(
  run: ExtractionRun,
  planned: Chunk,
  snapChars: number,
  total: number,
  pending: PendingCache,
): Promise<ChunkAnswer> {
  const chunk = await snapChunk(run.reader, planned, snapChars);
  const range = await run.reader.readChars(chunk.charStart, chunk.charEnd);
  const key = chunkCacheKey(run, chunk, total);
  const hit = (await run.cache?.get(key)) as { parsed: ParsedAnswer; model: string } | undefined;
  let parsed: ParsedAnswer;
  let model: string;
  if (hit?.parsed) {
    ({ parsed, model } = hit);
    run.emit({
      type: "extraction.call",
      outputId: run.record.id,
      phase: "map",
      chunk: chunk.index + 1,
      chunks: total,
      model,
      inputTokens: 0,
      outputTokens: 0,
      latencyMs: 0,
      requestBytes: 0,
      responsePreview: parsed.text.slice(0, 200),
      cached: true,
      ...(run.toolCallId ? { toolCallId: run.toolCallId } : {}),
    });
  } else {
    ({ parsed, model } = await askForAnswer(run, {
      phase: "map",
      chunk: chunk.index + 1,
      chunks: total,
      system: (nonce) =>
        mapSystemPrompt(
          run.source,
          { index: chunk.index + 1, total },
          run.settings.chunkOverlapPercent,
          run.query,
          nonce,
        ),
      user:
        `Chunk ${chunk.index + 1} of ${total}: characters ${range.start.char}-${range.end.char} of ${run.reader.totalChars}, ` +
        `lines ${range.start.line + 1}-${range.end.atLineStart ? range.end.line : range.end.line + 1}.\n\n${range.text}`,
    }));
    pending.push({ key, kind: "chunk", value: { parsed, model } });
  }
  const verified = parsed.relevant
    ? await verifyQuotes(parsed.quotes, run.output, run.reader, {
        index: chunk.index,
        text: range.text,
        start: range.start,
      })
    : { snippets: [], unverified: 0 };
  return { chunk, parsed, snippets: verified.snippets, unverified: verified.unverified, model };
}

/** The chunk answers, with their verified quotes, as the reduce prompt's CHUNK OUTPUTS. */
function chunkOutputs(answers: readonly ChunkAnswer[], total: number): string {
  return answers
    .map((a) => {
      const quotes = a.snippets.map((s) => `> ${s.text}`);
      return [
        `--- chunk ${a.chunk.index + 1} of ${total} ---`,
        a.parsed.text,
        ...(quotes.length > 0 ? ["Quotes:", ...quotes] : []),
      ].join("\n");
    })
    .join("\n\n");
}

/**
 * Relevant chunk answers minus those that only repeat an earlier one's quotes (the same lines
 * seen twice in the overlap of neighbouring chunks): one finding needs no reduce call.
 */
function distinctFindings(relevant: ChunkAnswer[]): ChunkAnswer[] {
  const seen = new Set<string>();
  return relevant.filter((answer) => {
    if (answer.snippets.length === 0) return true;
    const places = answer.snippets.map((s) => `${s.charStart}:${s.charEnd}`);
    if (places.every((place) => seen.has(place))) return false;
    for (const place of places) seen.add(place);
    return true;
  });
}

function confidenceOf(model: number | undefined, verified: number, unverified: number): number {
  if (model !== undefined) return model;
  return verified + unverified === 0 ? 0.5 : verified / (verified + unverified);
}

/**
 * full-chunked: one map call per chunk, in parallel (at most `concurrency` at once), then one
 * reduce call to synthesize, skipped when at most one chunk found anything (its answer is the
 * answer). Every quote is verified against the stored output.
 */
export async function runFullChunked(
  run: ExtractionRun,
  plan: ChunkPlan,
): Promise<Omit<ExtractionResult, "requested" | "cached">> {
  const total = plan.chunks.length;
  const pending: PendingCache = [];
  let answers: ChunkAnswer[];
  try {
    answers = await mapConcurrent(plan.chunks, run.settings.concurrency, (chunk) =>
      mapChunk(run, chunk, plan.snapChars, total, pending),
    );
  } finally {
    // Even when one chunk failed, the answers of the others are kept for the next attempt.
    await run.cache?.putMany(pending);
  }
  // A chunk answer counts only with a verified quote (SW-22): nothing else pins it to the output.
  const claimed = answers.filter((a) => a.parsed.relevant);
  const relevant = distinctFindings(claimed.filter((a) => a.snippets.length > 0));
  const unverifiedInMaps = answers.reduce((sum, a) => sum + a.unverified, 0);
  const base = {
    strategy: "full-chunked" as const,
    outputId: run.record.id,
    sourceHash: run.record.sha256 ?? "",
    sourceSize: run.record.byteSize ?? 0,
    chunksSearched: answers.length,
    chunksTotal: total,
  };
  if (relevant.length === 0 && claimed.length > 0) {
    return {
      ...base,
      found: false,
      answer: "NO RELEVANT DATA FOUND",
      snippets: [],
      unverified: unverifiedInMaps,
      confidence: 0,
      noMatchReason: unverifiedReason(unverifiedInMaps),
      model: claimed[0]!.model,
    };
  }
  if (relevant.length === 0) {
    const seen = [...new Set(answers.map((a) => a.parsed.text).filter(Boolean))].slice(0, 3);
    return {
      ...base,
      found: false,
      answer: "NO RELEVANT DATA FOUND",
      snippets: [],
      unverified: 0,
      confidence: 0,
      noMatchReason:
        `Searched all ${total} chunk${total === 1 ? "" : "s"} (${run.reader.totalChars.toLocaleString("en-US")} characters) for: ${run.query}. ` +
        (seen.length > 0 ? `What they hold instead: ${seen.join(" / ")}` : ""),
      model: answers[0]?.model ?? null,
    };
  }
  if (relevant.length === 1) {
    const only = relevant[0]!;
    return {
      ...base,
      found: true,
      answer: only.parsed.text,
      snippets: mergeSnippets(only.snippets),
      unverified: unverifiedInMaps,
      confidence: confidenceOf(only.parsed.confidence, only.snippets.length, only.unverified),
      model: only.model,
    };
  }
  const reduced = await askForAnswer(run, {
    phase: "reduce",
    chunks: total,
    system: (nonce) =>
      reduceSystemPrompt(run.source, run.query, chunkOutputs(relevant, total), nonce),
    user: `Synthesize the ${relevant.length} chunk extractions above into one final answer.`,
  });
  // The reduce step mostly repeats map quotes, whose places are known: only new ones are searched.
  const known = new Map(relevant.flatMap((a) => a.snippets).map((s) => [s.text, s]));
  const reducedKnown = reduced.parsed.quotes.flatMap((q) => known.get(q.trimEnd()) ?? []);
  const reducedNew = reduced.parsed.quotes.filter((q) => !known.has(q.trimEnd()));
  const reducedQuotes = await verifyQuotes(reducedNew, run.output, run.reader);
  const snippets = mergeSnippets(
    ...relevant.map((a) => a.snippets),
    reducedKnown,
    reducedQuotes.snippets,
  );
  const unverified = unverifiedInMaps + reducedQuotes.unverified;
  // The synthesized answer must cite a verified quote of its own, too.
  const cited = reducedKnown.length + reducedQuotes.snippets.length > 0;
  const found = reduced.parsed.relevant && cited;
  return {
    ...base,
    found,
    answer: found ? reduced.parsed.text : "NO RELEVANT DATA FOUND",
    snippets,
    unverified,
    confidence: confidenceOf(reduced.parsed.confidence, snippets.length, unverified),
    ...(found
      ? {}
      : {
          noMatchReason: reduced.parsed.relevant
            ? unverifiedReason(reducedQuotes.unverified)
            : reduced.parsed.text,
        }),
    model: reduced.model,
  };
}

import { type CompactionResult, compactOnce } from "./compaction.js";
import type { ContextLimits } from "./context-usage.js";
import { historyTokens, type ProjectionTail, shortenTail } from "./projection-tail.js";
import type { SessionContext } from "./session-context.js";

/**
 * A turn's compaction step, called by the projection: compact when the projection
 * reached the `compact` threshold; when the summarizer fails, fall back to handle-form
 * shortening and say so. Never drops a message: what it removes from the projection is either
 * in a stored summary (with its handles) or still there in handle form.
 */

/** Compaction passes at most per turn (each summarizes what the summarizer can read). */
const MAX_PASSES = 3;
/** Turns without a new compaction attempt after one failed (the fallback made room). */
const RETRY_AFTER_FAILURE = 3;

/** What the turn's compaction did. */
export interface CompactionStep {
  readonly results: readonly CompactionResult[];
  readonly shortened: number;
  readonly modelMs: number;
  readonly notes: readonly string[];
}

/**
 * Compacts when the projection reached the `compact` threshold; when the summarizer fails,
 * falls back to handle-form shortening down to the `warn` threshold, and says so in an event,
 * a warning and the notice. Every attempt is an event (and so a trace entry).
 */
export async function compactIfDue(
  context: SessionContext,
  tail: ProjectionTail,
  limits: ContextLimits,
  fixed: number,
  turn: number,
): Promise<CompactionStep> {
  const total = () => fixed + historyTokens(tail);
  const results: CompactionResult[] = [];
  let shortened = 0;
  let modelMs = 0;
  const notes: string[] = [];
  if (!limits.compactionEnabled || total() < limits.compact || turn < tail.retryAt)
    return { results, shortened, modelMs, notes };
  for (let pass = 0; pass < MAX_PASSES && total() >= limits.compact; pass++) {
    const recompaction = tail.summaries.length > 0;
    const result = await compactOnce(context, tail, limits, total());
    results.push(result);
    if (result.kind === "nothing") break;
    modelMs += result.modelMs;
    if (result.kind === "compacted") {
      const { record } = result;
      context.accounting.addCompaction({
        failed: false,
        tokensSaved: result.tokensBefore - result.tokensAfter,
        inputTokens: result.inputTokens,
        outputTokens: result.outputTokens,
      });
      context.emit({
        type: "compaction",
        sessionId: context.sessionId,
        turn,
        status: "compacted",
        tokensBefore: result.tokensBefore,
        tokensAfter: total(),
        summary: record.seq,
        fromTurn: record.fromTurn,
        throughTurn: record.throughTurn,
        fromSeq: record.fromSeq,
        throughSeq: record.throughSeq,
        coveredCalls: record.calls.length,
        summaryTokens: record.textTokens,
        indexOutputId: record.indexOutputId,
        recompaction,
        model: result.model,
        inputTokens: result.inputTokens,
        outputTokens: result.outputTokens,
        durationMs: result.modelMs,
      });
      if (record.calls.some((c) => c.outputIds.length > 0)) context.state.hasStoredOutputs = true;
      continue;
    }
    // The fallback: handle-form shortening, oldest first, said out loud.
    shortened += await shortenTail(context, tail, limits.warn - fixed);
    tail.retryAt = turn + RETRY_AFTER_FAILURE;
    context.accounting.addCompaction({
      failed: true,
      tokensSaved: 0,
      inputTokens: 0,
      outputTokens: 0,
    });
    const message = `Compaction failed (${result.code}: ${result.reason}); ${shortened} older result${shortened === 1 ? " is" : "s are"} shown in handle form instead, and compaction is tried again after turn ${tail.retryAt - 1}.`;
    context.emit({
      type: "compaction",
      sessionId: context.sessionId,
      turn,
      status: "failed",
      tokensBefore: result.tokensBefore,
      tokensAfter: total(),
      recompaction,
      model: result.model,
      durationMs: result.modelMs,
      error: result.reason,
      code: result.code,
      fallback: "handle-form",
      shortened,
    });
    context.emit({ type: "warning", sessionId: context.sessionId, message });
    notes.push(
      "Earlier turns could not be summarized this time: older tool results are shown by their handle instead; read them again if you need them.",
    );
    break;
  }
  return { results, shortened, modelMs, notes };
}

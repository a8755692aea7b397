import { isSpillwayError } from "../core/errors.js";
import { loadTokenizer } from "../core/tokens.js";
import type { ModelReply } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import type { SummaryRecord } from "../store/history.js";
import { coveredCallsOf, fullIndexText, renderIndex } from "./compaction-index.js";
import {
  summarizerInput,
  summarizerSystem,
  summaryText,
  type TranscriptEntry,
} from "./compaction-prompt.js";
import { chooseSpan, type SpanEntry } from "./compaction-span.js";
import type { ContextLimits } from "./context-usage.js";
import {
  countSessionTokens,
  latestSummary,
  MESSAGE_OVERHEAD,
  type ProjectionTail,
  type TailEntry,
} from "./projection-tail.js";
import { shortenedResult } from "./render-result.js";
import { compactionSettingsOf, type SessionContext, tokenizerOf } from "./session-context.js";

/**
 * One compaction: the oldest whole turns of the projection are summarized by a
 * model call into a summary record stored beside the history (never over it), with a
 * machine-built index of every call it covers. Returns what it decided; the caller reports it.
 */
export type CompactionResult =
  | {
      readonly kind: "compacted";
      readonly record: SummaryRecord;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      readonly model: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      readonly modelMs: number;
    }
  | {
      readonly kind: "failed";
      readonly reason: string;
      readonly code: string;
      readonly tokensBefore: number;
      readonly model: string | null;
      readonly modelMs: number;
    }
  /** No span worth summarizing: only the most recent turn is left, or the older ones are too short. */
  | { readonly kind: "nothing"; readonly tokensBefore: number };

/** The tool name of the stored index output (one line a covered call). */
export const INDEX_TOOL_NAME = "spillway__compaction_index";

/** Tokens the summarizer's prompt takes besides the transcript (instructions, headers). */
const PROMPT_OVERHEAD = 1_000;

/** The summary's largest size: the setting, and at most a fifth of the input window. */
export function summaryMaxTokensOf(context: SessionContext, limits: ContextLimits): number {
  return Math.max(
    64,
    Math.min(
      compactionSettingsOf(context.settings).summaryMaxTokens,
      Math.floor(limits.inputWindow / 5),
    ),
  );
}

/** The summarizer's models: the configured ones, else the session's with the last server first. */
function summarizerTargets(context: SessionContext): readonly ModelTarget[] {
  const configured = compactionSettingsOf(context.settings).models;
  if (configured && configured.length > 0) return configured;
  const models = context.settings.models;
  const serving = models.find((m) => m.ref === context.state.servingModel);
  return serving ? [serving, ...models.filter((m) => m !== serving)] : models;
}

/** What the summarizer reads for one entry (a large result in its handle form). */
async function transcriptOf(
  context: SessionContext,
  entry: TailEntry,
  readCap: number,
): Promise<{ entry: TranscriptEntry; tokens: number }> {
  const { message } = entry;
  const role = message.role;
  if (entry.result) {
    let text = entry.result.text;
    let tokens = entry.tokens;
    if (tokens > readCap) {
      text = (await shortenedResult(context, entry.result.ref)) ?? text;
      tokens = (await countSessionTokens(context, text)) + MESSAGE_OVERHEAD;
    }
    return {
      entry: {
        turn: message.turn,
        role,
        result: { toolCallId: entry.result.toolCallId, toolName: entry.result.toolName, text },
      },
      tokens,
    };
  }
  const text = message.parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
  const calls = message.parts.flatMap((p) =>
    p.type === "tool-call"
      ? [{ toolCallId: p.toolCallId, toolName: p.toolName, argsText: p.argsText }]
      : [],
  );
  return { entry: { turn: message.turn, role, text, calls }, tokens: entry.tokens };
}

function failed(
  tokensBefore: number,
  code: string,
  reason: string,
  model: string | null,
  modelMs: number,
): CompactionResult {
  return { kind: "failed", code, reason, tokensBefore, model, modelMs };
}

/**
 * Summarizes the oldest whole turns of `tail` so the projection (now `tokensBefore`) comes
 * down toward `limits.target`, and stores the summary. On success the tail holds the new
 * summary and the turns after it; on failure it is unchanged.
 */
export async function compactOnce(
  context: SessionContext,
  tail: ProjectionTail,
  limits: ContextLimits,
  tokensBefore: number,
): Promise<CompactionResult> {
  const targets = summarizerTargets(context);
  const summaryMax = summaryMaxTokensOf(context, limits);
  const previous = latestSummary(tail);
  const window = Math.min(...targets.map((t) => t.contextWindow));
  const maxRead = window - summaryMax - PROMPT_OVERHEAD - (previous?.textTokens ?? 0);
  const readCap = Math.max(256, Math.floor(maxRead / 4));
  const transcript: TranscriptEntry[] = [];
  const spanEntries: SpanEntry[] = [];
  for (const entry of tail.entries) {
    const read = await transcriptOf(context, entry, readCap);
    transcript.push(read.entry);
    spanEntries.push({
      role: entry.message.role,
      tokens: entry.tokens,
      readTokens: read.tokens,
      callIds: entry.callIds,
      ...(entry.result ? { resultOf: entry.result.toolCallId } : {}),
    });
  }
  // A span smaller than this is not worth a model call (its summary would be about as long).
  const minSpan = Math.max(256, Math.floor(summaryMax / 2));
  const span = chooseSpan(spanEntries, {
    removeAtLeast: Math.max(minSpan, tokensBefore - limits.target),
    maxTokens: maxRead,
  });
  if (span.count === 0 || span.tokens < minSpan) return { kind: "nothing", tokensBefore };
  const covered = tail.entries.slice(0, span.count);
  const started = performance.now();
  let reply: ModelReply;
  try {
    reply = await context.callModel(
      {
        system: summarizerSystem(summaryMax),
        messages: [
          {
            role: "user",
            content: summarizerInput(previous?.summary ?? null, transcript.slice(0, span.count)),
          },
        ],
        tools: [],
        maxOutputTokens: summaryMax,
        signal: context.signal,
      },
      targets,
    );
  } catch (error) {
    if (context.signal.aborted || !isSpillwayError(error)) throw error;
    return failed(tokensBefore, error.code, error.message, null, performance.now() - started);
  }
  const modelMs = performance.now() - started;
  context.accounting.addModelCall(reply.target, reply.usage.inputTokens, reply.usage.outputTokens);
  const summary = reply.text.trim();
  const model = reply.target.ref;
  if (summary === "")
    return failed(tokensBefore, "EMPTY_SUMMARY", "the model wrote no summary", model, modelMs);
  const summaryTokens = await countSessionTokens(context, summary);
  if (summaryTokens > summaryMax || reply.finishReason === "length") {
    return failed(
      tokensBefore,
      "SUMMARY_TOO_LONG",
      `the summary has ${summaryTokens} tokens${reply.finishReason === "length" ? " and was cut at the model's output limit" : ""}; at most ${summaryMax} fit`,
      model,
      modelMs,
    );
  }
  const calls = coveredCallsOf(covered.map((e) => e.message));
  const allCalls = [...tail.summaries.flatMap((s) => s.calls), ...calls];
  const compaction = tail.summaries.length + 1;
  const first = tail.summaries[0];
  const fromSeq = covered[0]!.message.seq;
  const throughSeq = covered[covered.length - 1]!.message.seq;
  const fromTurn = covered[0]!.message.turn;
  const throughTurn = covered[covered.length - 1]!.message.turn;
  const index =
    allCalls.length === 0
      ? null
      : await context.outputs.put(
          {
            sessionId: context.sessionId,
            toolName: INDEX_TOOL_NAME,
            toolArgs: JSON.stringify({ compaction, throughSeq }),
          },
          fullIndexText(allCalls),
        );
  const tokenizer = await loadTokenizer(tokenizerOf(context.settings));
  const indexText = renderIndex({
    calls: allCalls,
    maxTokens: Math.max(256, Math.floor(limits.inputWindow / 10)),
    count: (line) => tokenizer.count(line),
    indexOutputId: index?.id ?? null,
    surface: context.surface.name,
    outputsReadable: context.settings.toolOutput.enabled,
  });
  const text = summaryText({
    fromTurn: first?.fromTurn ?? fromTurn,
    throughTurn,
    fromSeq: first?.fromSeq ?? fromSeq,
    throughSeq,
    compaction,
    summary,
    index: indexText,
  });
  const textTokens = await countSessionTokens(context, text);
  const tokensAfter =
    tokensBefore -
    span.tokens -
    (previous ? previous.textTokens + MESSAGE_OVERHEAD : 0) +
    textTokens +
    MESSAGE_OVERHEAD;
  if (tokensAfter >= tokensBefore) {
    return failed(
      tokensBefore,
      "SUMMARY_TOO_LONG",
      `the summary (${textTokens} tokens with its call index) would not make the context smaller`,
      model,
      modelMs,
    );
  }
  const record = await context.history.appendSummary({
    sessionId: context.sessionId,
    fromSeq,
    throughSeq,
    fromTurn,
    throughTurn,
    summary,
    text,
    calls,
    indexOutputId: index?.id ?? null,
    model,
    tokensBefore,
    tokensAfter,
    textTokens,
  });
  await dropCovered(context, tail, span.count, span.tokens, record);
  return {
    kind: "compacted",
    record,
    tokensBefore,
    tokensAfter,
    model,
    inputTokens: reply.usage.inputTokens,
    outputTokens: reply.usage.outputTokens,
    modelMs,
  };
}

/**
 * Takes the summarized entries out of the tail, their rendered texts out of the cache, and
 * their settled async outputs out of the notice (the summary's index lists them).
 */
async function dropCovered(
  context: SessionContext,
  tail: ProjectionTail,
  n: number,
  tokens: number,
  record: SummaryRecord,
): Promise<void> {
  const covered = tail.entries.splice(0, n);
  tail.entryTokens -= tokens;
  tail.shortened -= covered.filter((e) => e.shortened).length;
  tail.shortenFrom = Math.max(0, tail.shortenFrom - n);
  tail.summaries.push(record);
  for (const call of record.calls) {
    for (const id of call.outputIds) {
      for (const key of ["inline", "placeholder", "legacy"])
        context.state.rendered.delete(`${key}:${id}`);
      if (!tail.asyncIds.has(id)) continue;
      const output = await context.outputs.get(id, { sessionId: context.sessionId });
      if (output.status !== "running") tail.asyncIds.delete(id);
    }
  }
}

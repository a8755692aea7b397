import type { ModelMessage } from "ai";
import { countTokens } from "../core/tokens.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import type {
  HistoryMessage,
  HistoryPart,
  SummaryRecord,
  ToolResultRef,
} from "../store/history.js";
import { type RenderContext, renderResult, shortenedResult } from "./render-result.js";
import type { SessionContext } from "./session-context.js";
import { tokenizerOf } from "./session-context.js";

/**
 * The projection's memory of the canonical history: each history message rendered
 * and counted ONCE, when it is first read, and kept here with its token count, so a turn's
 * projection costs O(new messages), not O(history). It holds the pinned task, the latest
 * summary and the messages after it: what the projection sends. Nothing here is written back.
 */

/** Tokens a message costs beyond its text (role, separators), and a tool call beyond its arguments. */
export const MESSAGE_OVERHEAD = 4;

/** One history message as the projection sends it. */
export interface TailEntry {
  readonly message: HistoryMessage;
  /** What the model is sent for it (a tool result's content may become its handle form). */
  model: ModelMessage;
  tokens: number;
  /** A tool message's result. */
  readonly result?: {
    readonly ref: ToolResultRef;
    readonly toolCallId: string;
    readonly toolName: string;
    /** The text the model is sent. */
    text: string;
  };
  /** Shown in handle form to fit (sticky). */
  shortened: boolean;
  /** An assistant message's tool calls. */
  readonly callIds: readonly string[];
}

/** The session's projected history: pinned task, summaries, recent messages. */
export interface ProjectionTail {
  loaded: boolean;
  /** The last history message read. */
  lastSeq: number;
  /** The session's first message (the task), sent whole before the summary. */
  pinned: TailEntry | null;
  /** Every summary of the session, oldest first; the last one is projected. */
  summaries: SummaryRecord[];
  /** Messages after the latest summary (the pinned one excluded), in order. */
  entries: TailEntry[];
  /** Sum of `entries[].tokens`. */
  entryTokens: number;
  /** Results before this index are shortened already or cannot be. */
  shortenFrom: number;
  /** Results shown in handle form among `entries`. */
  shortened: number;
  /** Calls read without their result yet: call id → the assistant message's seq. */
  readonly openCalls: Map<string, number>;
  /** Async outputs the notice reports on. */
  readonly asyncIds: Set<string>;
  /** Among them, those of calls that went on in the background (not announced for their size). */
  readonly backgroundIds: Set<string>;
  /** The system prompt and its tokens (counted once). */
  system: { readonly text: string; readonly tokens: number } | null;
  /** The tool definitions sent (names joined) and their tokens (counted once per set). */
  tools: { readonly key: string; readonly tokens: number } | null;
  /** No compaction is tried before this turn (set after one failed). */
  retryAt: number;
}

/** An empty tail: the first projection loads it from the store. */
export function newProjectionTail(): ProjectionTail {
  return {
    loaded: false,
    lastSeq: 0,
    pinned: null,
    summaries: [],
    entries: [],
    entryTokens: 0,
    shortenFrom: 0,
    shortened: 0,
    openCalls: new Map(),
    asyncIds: new Set(),
    backgroundIds: new Set(),
    system: null,
    tools: null,
    retryAt: 0,
  };
}

/**
 * The calls whose results the projection sends whole: after the latest summary and not
 * shortened to their handle form.
 *
 * @example
 * state.resultsInView = resultsSentWhole(tail);
 */
export function resultsSentWhole(tail: ProjectionTail): Set<string> {
  return new Set(
    tail.entries.flatMap((entry) =>
      entry.result && !entry.shortened ? [entry.result.toolCallId] : [],
    ),
  );
}

/** The summary the projection sends, if any. */
export function latestSummary(tail: ProjectionTail): SummaryRecord | null {
  return tail.summaries[tail.summaries.length - 1] ?? null;
}

/** Tokens of the pinned task, the summary and the recent messages. */
export function historyTokens(tail: ProjectionTail): number {
  return (
    (tail.pinned?.tokens ?? 0) +
    (latestSummary(tail)?.textTokens ?? 0) +
    (tail.summaries.length > 0 ? MESSAGE_OVERHEAD : 0) +
    tail.entryTokens
  );
}

/** Tokens of `text` in the session's tokenizer (the one its model's family counts with). */
export function countSessionTokens(
  context: Pick<SessionContext, "settings">,
  text: string,
): Promise<number> {
  return countTokens(text, tokenizerOf(context.settings));
}

function parsedInput(argsText: string): unknown {
  try {
    const value = JSON.parse(argsText) as unknown;
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    // Invalid JSON arguments: the tool result explains the error; the call shows no input.
    return {};
  }
}

function textOf(parts: readonly HistoryPart[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : "")).join("\n");
}

/** A tool message for one result. */
export function toolMessage(toolCallId: string, toolName: string, text: string): ModelMessage {
  return {
    role: "tool",
    content: [{ type: "tool-result", toolCallId, toolName, output: { type: "text", value: text } }],
  };
}

/**
 * The output ids of async results in a ref (a batch's items included): into `background` those
 * of calls that went on in the background, into `into` those and the outputs announced as ready
 * for their size.
 */
export function asyncOutputIds(
  ref: ToolResultRef,
  into: Set<string>,
  background: Set<string> = new Set(),
): void {
  if (ref.kind === "async") {
    into.add(ref.outputId);
    background.add(ref.outputId);
  } else if (ref.kind === "output" && ref.shown === "ready") into.add(ref.outputId);
  else if (ref.kind === "batch")
    for (const item of ref.items) asyncOutputIds(item.ref, into, background);
}

/** Renders and counts one history message (tool messages hold one result each). */
export async function entryOf(
  context: RenderContext & Pick<SessionContext, "settings">,
  message: HistoryMessage,
): Promise<TailEntry> {
  if (message.role === "user") {
    const text = textOf(message.parts);
    return {
      message,
      model: { role: "user", content: text },
      tokens: (await countSessionTokens(context, text)) + MESSAGE_OVERHEAD,
      shortened: false,
      callIds: [],
    };
  }
  if (message.role === "assistant") {
    const content: Exclude<ModelMessage, { role: "system" | "user" | "tool" }>["content"] = [];
    let tokens = MESSAGE_OVERHEAD;
    const callIds: string[] = [];
    for (const part of message.parts) {
      if (part.type === "text" && part.text) {
        content.push({ type: "text", text: part.text });
        tokens += await countSessionTokens(context, part.text);
      } else if (part.type === "tool-call") {
        content.push({
          type: "tool-call",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: parsedInput(part.argsText),
        });
        callIds.push(part.toolCallId);
        tokens +=
          (await countSessionTokens(
            context,
            `${part.toolName} ${part.toolCallId} ${part.argsText}`,
          )) + MESSAGE_OVERHEAD;
      }
    }
    return { message, model: { role: "assistant", content }, tokens, shortened: false, callIds };
  }
  const part = message.parts.find((p) => p.type === "tool-result");
  if (part?.type !== "tool-result") {
    return {
      message,
      model: { role: "user", content: textOf(message.parts) },
      tokens: MESSAGE_OVERHEAD,
      shortened: false,
      callIds: [],
    };
  }
  const text = await renderResult(context, part.result);
  return {
    message,
    model: toolMessage(part.toolCallId, part.toolName, text),
    tokens: (await countSessionTokens(context, text)) + MESSAGE_OVERHEAD,
    result: { ref: part.result, toolCallId: part.toolCallId, toolName: part.toolName, text },
    shortened: false,
    callIds: [],
  };
}

/** The share of the input window the session's task may take and still be kept whole. */
const PINNED_MAX_SHARE = 0.25;

/**
 * Brings the tail up to date with the canonical history: loads the summaries (once), then
 * reads, renders and counts only the messages it has not seen. Returns how many it read.
 */
export async function syncTail(
  context: SessionContext,
  tail: ProjectionTail,
  inputWindow: number,
): Promise<number> {
  const { history, sessionId } = context;
  if (!tail.loaded) {
    tail.summaries = await history.summaries(sessionId);
    const first = tail.summaries[0];
    if (first && first.fromSeq > 1) {
      const [task] = await history.messages(sessionId, { limit: 1 });
      if (task) tail.pinned = await entryOf(context, task);
    }
    tail.lastSeq = latestSummary(tail)?.throughSeq ?? 0;
    tail.loaded = true;
  }
  const fresh = await history.messages(sessionId, { afterSeq: tail.lastSeq });
  for (const message of fresh) {
    const entry = await entryOf(context, message);
    tail.lastSeq = message.seq;
    const isTask =
      tail.summaries.length === 0 &&
      tail.pinned === null &&
      tail.entries.length === 0 &&
      message.seq === 1 &&
      message.role === "user";
    if (isTask && entry.tokens <= inputWindow * PINNED_MAX_SHARE) {
      tail.pinned = entry;
      continue;
    }
    tail.entries.push(entry);
    tail.entryTokens += entry.tokens;
    for (const id of entry.callIds) tail.openCalls.set(id, message.seq);
    if (entry.result) {
      tail.openCalls.delete(entry.result.toolCallId);
      asyncOutputIds(entry.result.ref, tail.asyncIds, tail.backgroundIds);
    }
  }
  return fresh.length;
}

/**
 * Replaces results by their handle form, oldest first, until the history takes at most
 * `limit` tokens. A shortened result stays shortened (the prompt prefix stays stable), so
 * each result is looked at once over the session. Returns how many were shortened now.
 */
export async function shortenTail(
  context: RenderContext & Pick<SessionContext, "settings">,
  tail: ProjectionTail,
  limit: number,
): Promise<number> {
  let shortened = 0;
  let i = tail.shortenFrom;
  for (; i < tail.entries.length && historyTokens(tail) > limit; i++) {
    const entry = tail.entries[i]!;
    if (!entry.result || entry.shortened) continue;
    const shorter = await shortenedResult(context, entry.result.ref);
    if (shorter === undefined) continue;
    const tokens = (await countSessionTokens(context, shorter)) + MESSAGE_OVERHEAD;
    if (tokens >= entry.tokens) continue;
    tail.entryTokens += tokens - entry.tokens;
    entry.tokens = tokens;
    entry.result.text = shorter;
    entry.model = toolMessage(entry.result.toolCallId, entry.result.toolName, shorter);
    entry.shortened = true;
    tail.shortened++;
    shortened++;
  }
  tail.shortenFrom = i;
  return shortened;
}

/**
 * Calls the tail has no result for (never expected: a result is written before the next
 * model call, and a resume repairs what a crash left). Each gets an error result in the
 * projection only, placed after its turn's results, so no call is ever sent alone.
 */
export function answerOrphans(tail: ProjectionTail): string[] {
  if (tail.openCalls.size === 0) return [];
  const orphans = [...tail.openCalls.keys()];
  for (const [id, seq] of tail.openCalls) {
    let at = tail.entries.findIndex((e) => e.message.seq === seq);
    if (at < 0) continue;
    const call = tail.entries[at]!.message.parts.find(
      (p) => p.type === "tool-call" && p.toolCallId === id,
    );
    const toolName = call?.type === "tool-call" ? call.toolName : "unknown";
    at++;
    while (at < tail.entries.length && tail.entries[at]!.message.role === "tool") at++;
    const text = `[spillway] No result is recorded for this call (${id}) in the canonical history.`;
    const message: HistoryMessage = {
      seq,
      turn: tail.entries[at - 1]!.message.turn,
      role: "tool",
      parts: [],
      createdAt: 0,
    };
    const entry: TailEntry = {
      message,
      model: toolMessage(id, toolName, text),
      tokens: MESSAGE_OVERHEAD + 20,
      result: { ref: { kind: "note", text }, toolCallId: id, toolName, text },
      shortened: false,
      callIds: [],
    };
    tail.entries.splice(at, 0, entry);
    tail.entryTokens += entry.tokens;
  }
  tail.openCalls.clear();
  return orphans;
}

/** The history part of the model's input: pinned task, latest summary, recent messages. */
export function tailMessages(tail: ProjectionTail): ModelMessage[] {
  const summary = latestSummary(tail);
  return [
    ...(tail.pinned ? [tail.pinned.model] : []),
    ...(summary ? [{ role: "user" as const, content: summary.text }] : []),
    // A reply with neither text nor a call (canonical history keeps it) is not shown again.
    ...tail.entries
      .map((entry) => entry.model)
      .filter(
        (m) => !(m.role === "assistant" && Array.isArray(m.content) && m.content.length === 0),
      ),
  ];
}

/** Tokens the tool definitions take in a request (names, descriptions, JSON schemas). */
export async function toolTokens(
  context: Pick<SessionContext, "settings">,
  tail: ProjectionTail,
  tools: readonly ToolDefinition[],
): Promise<number> {
  const key = tools.map((t) => t.name).join("\u0000");
  if (tail.tools?.key !== key) {
    const text = tools
      .map((t) => `${t.name}\n${t.description}\n${JSON.stringify(t.inputSchema)}`)
      .join("\n");
    tail.tools = { key, tokens: await countSessionTokens(context, text) };
  }
  return tail.tools.tokens;
}

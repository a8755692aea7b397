/**
 * A session's canonical history as JSON: every message in order, every tool call paired with
 * its result, each result both as the model saw it (the projection, rendered again from the
 * canonical history) and as stored (the output record, whole size and SHA-256), the context
 * use of each turn, sub-agent sessions and background tools.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { tracePathOf } from "../agent/trace.js";
import { isSpillwayError } from "../core/errors.js";
import type { HistoryPart, SessionRecord, ToolResultRef } from "../store/history.js";
import type { OutputRecord } from "../store/output-store.js";
import type { SpillwayStores } from "../store/sqlite-history-store.js";
import {
  type ContextStatus,
  type ContextThresholds,
  contextStatus,
  sessionThresholds,
} from "./context-status.js";

export interface SessionJson {
  readonly id: string;
  readonly parentSessionId: string | null;
  readonly agentName: string;
  readonly prompt: string;
  readonly status: SessionRecord["status"];
  readonly finalReport: string | null;
  readonly error: string | null;
  readonly turns: number;
  readonly usage: unknown;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly live: boolean;
}

/** The public form of a session record. */
export function sessionJson(session: SessionRecord, live: boolean): SessionJson {
  return {
    id: session.id,
    parentSessionId: session.parentSessionId,
    agentName: session.agentName,
    prompt: session.prompt,
    status: session.status,
    finalReport: session.finalReport,
    error: session.error,
    turns: session.turns,
    usage: session.accounting ?? null,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    live,
  };
}

export interface ResultJson {
  /** The canonical result reference (kind output / retrieval / async / error / note / batch). */
  readonly ref: ToolResultRef;
  /** The text the model was shown for it. */
  readonly shownText: string;
  /** The output record of the result (stored whole), when there is one. */
  readonly output: OutputRecord | null;
  readonly attachments: readonly OutputRecord[];
}

interface Viewer {
  readonly stores: SpillwayStores;
  /** The text the model was shown for a result. */
  readonly project: (ref: ToolResultRef) => Promise<string>;
  readonly records: Map<string, OutputRecord | null>;
}

async function recordOf(viewer: Viewer, id: string | undefined): Promise<OutputRecord | null> {
  if (!id) return null;
  if (viewer.records.has(id)) return viewer.records.get(id) ?? null;
  let record: OutputRecord | null = null;
  try {
    record = await viewer.stores.outputs.get(id, { allSessions: true });
  } catch (error) {
    if (!isSpillwayError(error)) throw error;
  }
  viewer.records.set(id, record);
  return record;
}

async function resultJson(viewer: Viewer, ref: ToolResultRef): Promise<ResultJson> {
  const outputId =
    ref.kind === "output" || ref.kind === "async"
      ? ref.outputId
      : ref.kind === "retrieval"
        ? ref.outputId
        : undefined;
  const attachments: OutputRecord[] = [];
  if (ref.kind === "output")
    for (const id of ref.attachments ?? []) {
      const record = await recordOf(viewer, id);
      if (record) attachments.push(record);
    }
  return {
    ref,
    shownText: await viewer.project(ref),
    output: await recordOf(viewer, outputId),
    attachments,
  };
}

const modelCallLine = z.object({
  type: z.literal("model.call"),
  sessionId: z.string(),
  turn: z.number(),
  model: z.string(),
  inputTokens: z.number(),
  outputTokens: z.number(),
});

/** Largest trace read for the context figures. */
const MAX_TRACE_BYTES = 16 * 1024 * 1024;

/** The context use after each model call, from the session's trace and its models' windows. */
async function contextByTurn(
  stores: SpillwayStores,
  session: SessionRecord,
  windows: Map<string, number>,
  thresholds: ContextThresholds,
): Promise<ContextStatus[]> {
  let text: string;
  try {
    text = await readFile(tracePathOf(stores.home, session.id), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  if (text.length > MAX_TRACE_BYTES) text = text.slice(-MAX_TRACE_BYTES);
  const out: ContextStatus[] = [];
  for (const line of text.split("\n")) {
    if (!line.includes('"model.call"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a line cut by a crash mid-write: the figures skip it
    }
    const parsed = modelCallLine.safeParse(value);
    if (!parsed.success || parsed.data.sessionId !== session.id) continue;
    const window = windows.get(parsed.data.model);
    if (window) out.push(contextStatus({ ...parsed.data, windowTokens: window, thresholds }));
  }
  return out;
}

/**
 * The whole canonical history of a session, for `GET /v1/sessions/:id`.
 *
 * @example
 * const view = await sessionHistory(stores, await stores.history.getSession(id), false);
 * view.calls[0].result.output.sha256; // the whole stored result's SHA-256
 */
export async function sessionHistory(
  stores: SpillwayStores,
  session: SessionRecord,
  live: boolean,
  publicId: (id: string) => string = (id) => id,
) {
  // Loaded on first use: rendering projections needs the agent layer (and its providers).
  const [{ projectedResultText, viewerRenderContext }, { storedPlan }] = await Promise.all([
    import("../agent/projected-result.js"),
    import("../agent/run-settings.js"),
  ]);
  let plan = null;
  try {
    plan = storedPlan(session.settings, session.id);
  } catch (error) {
    if (!isSpillwayError(error, "STORE_CORRUPT")) throw error;
  }
  const render = plan ? viewerRenderContext(stores.outputs, session, plan) : null;
  const viewer: Viewer = {
    stores,
    project: (ref) => projectedResultText(render, ref),
    records: new Map(),
  };
  const windows = new Map<string, number>(
    (plan?.settings.models ?? []).map((m) => [m.ref, m.contextWindow]),
  );
  const [messages, toolCalls, children] = await Promise.all([
    stores.history.messages(session.id),
    stores.history.toolCalls(session.id),
    stores.history.listSessions({ parentSessionId: session.id, limit: 1000 }),
  ]);
  const results = new Map<string, ResultJson>();
  const jsonMessages = [];
  for (const message of messages) {
    const parts: unknown[] = [];
    for (const part of message.parts as HistoryPart[]) {
      if (part.type === "tool-result") {
        const result = await resultJson(viewer, part.result);
        results.set(part.toolCallId, result);
        parts.push({
          type: part.type,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          result,
        });
      } else parts.push(part);
    }
    jsonMessages.push({
      seq: message.seq,
      turn: message.turn,
      role: message.role,
      createdAt: message.createdAt,
      parts,
    });
  }
  const calls = toolCalls.map((call) => ({
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    argsText: call.argsText,
    turn: call.turn,
    status: call.status,
    startedAt: call.startedAt,
    finishedAt: call.finishedAt,
    result: results.get(call.toolCallId) ?? null,
    childSessionId: children.find((c) => c.parentToolCallId === call.toolCallId)?.id ?? null,
  }));
  const background = calls
    .filter(
      (call) =>
        call.result?.ref.kind === "async" ||
        (call.result?.ref.kind === "output" && call.result.ref.shown === "ready"),
    )
    .map((call) => ({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      outputId: call.result?.output?.id ?? null,
      status: call.result?.output?.status ?? "unknown",
      byteSize: call.result?.output?.byteSize ?? null,
    }));
  return {
    session: { ...sessionJson(session, live), id: publicId(session.id) },
    context: await contextByTurn(stores, session, windows, sessionThresholds(plan?.settings)),
    messages: jsonMessages,
    calls,
    background,
    children: children.map((child) => sessionJson(child, false)),
  };
}

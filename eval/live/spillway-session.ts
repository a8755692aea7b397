/**
 * spillway's side of a live task: the product itself (`runAgent`) on the plain agent file, the
 * real file server started by the runtime, default settings but for the window, the turn cap and
 * any guidance switched off for an ablation. What the model was shown is rendered again from the
 * canonical history, as `spillway sessions show --full` does.
 */
import type { AgentEvent } from "../../src/agent/events.js";
import { projectedResultText, viewerRenderContext } from "../../src/agent/projected-result.js";
import { runAgent } from "../../src/agent/run-agent.js";
import { storedPlan } from "../../src/agent/run-settings.js";
import type { CliSettings } from "../../src/config/index.js";
import type { ModelReply, ModelRequest } from "../../src/providers/model-caller.js";
import type { ModelTarget } from "../../src/providers/models.js";
import type { SpillwayStores } from "../../src/store/sqlite-history-store.js";
import { clipForTranscript, type LiveTurn, type PlayedSession } from "./episode.js";
import { FILE_TOOL_NAME } from "./file-server.js";
import { FINAL_REPORT } from "./peer-loop.js";

/** The surface's reads: a call of one is a read beyond the first result. */
const SURFACE_READS = new Set(["get_tool_output", "wait_for_tool_output"]);

export interface SpillwaySessionOptions {
  readonly agentPath: string;
  readonly cwd: string;
  readonly stores: SpillwayStores;
  readonly model: string;
  readonly prompt: string;
  readonly settings: CliSettings;
  readonly transcriptChars?: number;
  /** Replaces the model call (the run's reply cache); the runtime's own call otherwise. */
  readonly callModel?: (
    targets: readonly ModelTarget[],
    request: ModelRequest,
  ) => Promise<ModelReply>;
  readonly onTurn?: (turn: { inputTokens: number; outputTokens: number; did: string }) => void;
}

const clip = clipForTranscript;

/**
 * Plays one task with spillway.
 *
 * @example
 * const played = await playSpillway({ agentPath, cwd, stores, model, prompt, settings: { contextWindow: 8192 } });
 */
export async function playSpillway(options: SpillwaySessionOptions): Promise<PlayedSession> {
  const events: AgentEvent[] = [];
  const result = await runAgent({
    agent: options.agentPath,
    prompt: options.prompt,
    model: options.model,
    settings: options.settings,
    stores: options.stores,
    cwd: options.cwd,
    ...(options.callModel ? { callModel: options.callModel } : {}),
    onEvent: (event) => {
      events.push(event);
      if (event.type === "model.call" && event.depth === 0)
        options.onTurn?.({
          inputTokens: event.inputTokens,
          outputTokens: event.outputTokens,
          did: "",
        });
    },
  });
  if (result.status === "failed" && result.error?.startsWith("MODEL_UNAVAILABLE"))
    throw new Error(`eval:live: the model ${options.model} did not answer. ${result.error}`);
  const mine = events.filter((e) => e.sessionId === result.sessionId);
  const calls = mine.flatMap((e) => (e.type === "tool.end" ? [e.toolName] : []));
  const modelCalls = mine.filter(
    (e): e is Extract<AgentEvent, { type: "model.call" }> => e.type === "model.call",
  );
  const { shown, firstResult, transcript } = await sessionView(
    options.stores,
    result.sessionId,
    options.transcriptChars ?? 1_200,
  );
  const fileReads = calls.filter((c) => c === FILE_TOOL_NAME).length;
  const compactions = mine.filter(
    (e): e is Extract<AgentEvent, { type: "compaction" }> =>
      e.type === "compaction" && e.status === "compacted",
  );
  const seconds = (ms: number) => Math.round(ms) / 1000;
  return {
    report: result.report ?? null,
    failure: result.status === "completed" ? null : `session ${result.status}: ${result.error}`,
    readBeforeAnswer:
      result.report !== undefined && (calls.some((c) => SURFACE_READS.has(c)) || fileReads > 1),
    requests: modelCalls.length,
    inputTokens: modelCalls.reduce((sum, e) => sum + e.inputTokens, 0),
    outputTokens: modelCalls.reduce((sum, e) => sum + e.outputTokens, 0),
    time: {
      modelSeconds: seconds(modelCalls.reduce((sum, e) => sum + e.latencyMs, 0)),
      compactions: compactions.length,
      compactionSeconds: seconds(compactions.reduce((sum, e) => sum + e.durationMs, 0)),
    },
    shown,
    ...(firstResult !== undefined ? { firstResult } : {}),
    transcript,
  };
}

/** Every tool result as the model was shown it, and the session turn by turn. */
async function sessionView(
  stores: SpillwayStores,
  sessionId: string,
  chars: number,
): Promise<{ shown: string; firstResult: string | undefined; transcript: LiveTurn[] }> {
  const session = await stores.history.getSession(sessionId);
  const context = viewerRenderContext(
    stores.outputs,
    session,
    storedPlan(session.settings, sessionId),
  );
  const shown: string[] = [];
  const transcript: LiveTurn[] = [];
  for (const message of await stores.history.messages(sessionId)) {
    if (message.role === "assistant") {
      const did = message.parts.flatMap((part) =>
        part.type === "tool-call"
          ? [`${part.toolName}(${part.argsText})`]
          : part.type === "text" && part.text.trim() !== ""
            ? [`text: ${clip(part.text.trim(), 300)}`]
            : [],
      );
      transcript.push({ did: did.join("; ") || "(empty reply)", shown: "" });
    } else if (message.role === "tool") {
      const texts: string[] = [];
      for (const part of message.parts) {
        if (part.type !== "tool-result") continue;
        const text = await projectedResultText(context, part.result);
        texts.push(text);
        // The report tool's answers quote the report back: not what a tool returned.
        if (part.toolName !== FINAL_REPORT) shown.push(text);
      }
      const last = transcript.at(-1);
      const clipped = texts.map((t) => clip(t, chars)).join("\n---\n");
      if (last) transcript[transcript.length - 1] = { ...last, shown: clipped };
    }
  }
  return { shown: shown.join("\n"), firstResult: shown[0], transcript };
}

import { BackgroundTools } from "../async/background.js";
import { guided } from "../config/guidance.js";
import { systemClock } from "../core/clock.js";
import { connectMcpServers, type McpHub } from "../providers/mcp/index.js";
import { callModel } from "../providers/model-caller.js";
import type { SpillwayStores } from "../store/sqlite-history-store.js";
import { createSurface } from "../surfaces/index.js";
import { Accounting } from "./accounting.js";
import type { AgentEvent } from "./events.js";
import { inheritedOptions } from "./inherited-options.js";
import { GuardedHistoryStore } from "./invariants.js";
import type { RunAgent, RunAgentOptions } from "./run-types.js";
import {
  asyncActive,
  asyncSettingsOf,
  newSessionState,
  type SessionContext,
} from "./session-context.js";
import { sessionExtractor } from "./session-extraction.js";
import { restoreState } from "./session-resume.js";
import { assembleTools, mcpToolHandlers, subagentHandlers } from "./session-tools.js";
import type { StartedSession } from "./start-session.js";
import { TraceWriter } from "./trace.js";

/** Strings of MCP results over this size are never held in memory (see providers/mcp). */
const SPILL_TEXT_OVER_BYTES = 1024 * 1024;

/** A session wired and ready for its loop, with what must be released when it ends. */
export interface BuiltSession {
  readonly context: SessionContext;
  /** Aborts the session's model call and tools (the run's signal feeds it). */
  readonly controller: AbortController;
  /** Closes the MCP servers and removes the listeners added here. */
  release(): Promise<void>;
}

/** Notes for the model about servers that could not start: their tools are missing. */
function serverNotes(hub: McpHub | undefined): string {
  const failures = hub?.failures() ?? [];
  if (failures.length === 0) return "";
  return `\n\nUnavailable tools: ${failures.map((f) => `MCP server "${f.server}" could not start (${f.error.message}); its tools are missing.`).join(" ")}`;
}

/**
 * Wires a started session: trace, abort and stop signals, MCP servers, surface, sub-agents,
 * background tools, extraction and the model call, into the {@link SessionContext} the loop
 * runs on. `runAgent` is passed in for the linked sessions it starts.
 */
export async function buildSession(
  options: RunAgentOptions,
  stores: SpillwayStores,
  started: StartedSession,
  runAgent: RunAgent,
): Promise<BuiltSession> {
  const { sessionId, plan, resumed, previous } = started;
  const depth = options.parent?.depth ?? 0;
  const trace = await TraceWriter.open(stores.home, sessionId);
  const emit = (event: AgentEvent) => {
    trace.write(event);
    options.onEvent?.({ ...event, depth });
  };
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) controller.abort(options.signal.reason);
  let hub: McpHub | undefined;
  let removeStopListener = () => {};
  const release = async () => {
    options.signal?.removeEventListener("abort", onAbort);
    removeStopListener();
    await hub?.close();
  };
  try {
    const accounting = new Accounting(previous);
    if (Object.keys(plan.mcpServers).length > 0) {
      hub = await connectMcpServers(plan.mcpServers, {
        callTimeoutMs: plan.settings.toolTimeoutSecs * 1000,
        // Large results stream into files as they are parsed, then into the store.
        spillTextOverBytes: SPILL_TEXT_OVER_BYTES,
      });
      for (const failure of hub.failures())
        emit({ type: "warning", sessionId, message: failure.error.message });
    }
    const surface =
      options.surface ?? createSurface(plan.settings.toolOutput.surface, plan.settings.toolOutput);
    const runChild = async (
      agentPath: string,
      task: string,
      toolCallId: string,
      signal: AbortSignal,
    ) => {
      const child = await runAgent({
        agent: agentPath,
        prompt: task,
        settings: plan.cli,
        stores,
        signal,
        ...(options.stop ? { stop: options.stop } : {}),
        ...inheritedOptions(options),
        parent: { sessionId, toolCallId, depth: depth + 1 },
      });
      accounting.addChild(child.usage);
      trace.write({ type: "child", sessionId, childSessionId: child.sessionId, toolCallId });
      return {
        report: child.report,
        status: child.status,
        error: child.error,
        sessionId: child.sessionId,
      };
    };
    const state = newSessionState();
    // The task as first asked (a resumed run's prompt is only its next message).
    const taskText = resumed ? (await stores.history.getSession(sessionId)).prompt : options.prompt;
    if (taskText) state.taskText = taskText;
    const asyncTools = asyncActive({ settings: plan.settings, surface });
    const clock = options.clock ?? systemClock;
    const background = new BackgroundTools(asyncSettingsOf(plan.settings).maxRunning, clock);
    const extractor =
      options.extractor ??
      (options.extraction === false
        ? undefined
        : sessionExtractor({
            sessionId,
            depth,
            plan,
            stores,
            state,
            accounting,
            emit,
            signal: controller.signal,
            options,
            runAgent,
          }));
    const model =
      options.callModel ??
      ((targets, request) =>
        callModel(targets, request, {
          retry: plan.settings.retry,
          ...(options.env ? { env: options.env } : {}),
          onAttemptFailed: (attempt) =>
            emit({
              type: "model.retry",
              sessionId,
              model: attempt.ref,
              error: attempt.error ?? "",
              willRetry: attempt.willRetry,
            }),
        }));
    const context: SessionContext = {
      sessionId,
      parentSessionId: options.parent?.sessionId ?? null,
      depth,
      agentName: plan.agentName,
      systemPrompt: plan.systemPrompt + serverNotes(hub),
      settings: options.maxToolCallsPerTurn
        ? { ...plan.settings, maxToolCallsPerTurn: options.maxToolCallsPerTurn }
        : plan.settings,
      outputs: stores.outputs,
      history: new GuardedHistoryStore(stores.history, (violation) =>
        emit({ type: "invariant", sessionId, ...violation }),
      ),
      surface,
      ...(extractor ? { extractor } : {}),
      tools: assembleTools(
        {
          mcp: hub
            ? mcpToolHandlers(hub, plan.settings.toolTimeoutSecs * 1000, plan.mcpServers, {
                wholeReads: guided(plan.settings, "wholeReads"),
              })
            : [],
          subagents: subagentHandlers(plan.subagents, runChild, { asyncParam: asyncTools }),
          surface,
          asyncTools,
          helperTools: plan.settings.helperTools !== false,
          ...(options.surface ? { onlySurface: true } : {}),
        },
        () => context,
      ),
      accounting,
      trace,
      signal: controller.signal,
      background,
      clock,
      callModel: (request, targets) => model(targets ?? plan.settings.models, request),
      emit,
      state,
    };
    if (resumed) await restoreState(context);
    const onStop = () => {
      state.stopRequested = true;
      background.requestStop();
    };
    if (options.stop?.aborted) onStop();
    else options.stop?.addEventListener("abort", onStop, { once: true });
    removeStopListener = () => options.stop?.removeEventListener("abort", onStop);
    return { context, controller, release };
  } catch (error) {
    await release();
    throw error;
  }
}

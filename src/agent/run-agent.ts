import { BackgroundTools } from "../async/background.js";
import type { AgentDefinition, CliSettings, McpServerSpec } from "../config/index.js";
import { type Clock, systemClock } from "../core/clock.js";
import { isSpillwayError, SpillwayError } from "../core/errors.js";
import { randomId } from "../core/ids.js";
import { connectMcpServers, type McpHub } from "../providers/mcp/index.js";
import { callModel, type ModelReply, type ModelRequest } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import type { SessionStatus } from "../store/history.js";
import { openSqliteStores, type SpillwayStores } from "../store/sqlite-history-store.js";
import { createSurface } from "../surfaces/index.js";
import type { Extractor, Surface } from "../surfaces/surface.js";
import { Accounting, type UsageReport } from "./accounting.js";
import type { AgentEvent, AgentEventListener } from "./events.js";
import { GuardedHistoryStore } from "./invariants.js";
import { type PlanOptions, planRun, type RunPlan, resumePlan, storedPlan } from "./run-settings.js";
import {
  asyncActive,
  asyncSettingsOf,
  newSessionState,
  type SessionContext,
} from "./session-context.js";
import { sessionExtractor } from "./session-extraction.js";
import { type LoopEnd, runSessionLoop } from "./session-loop.js";
import { failInterruptedOutputs, repairHistory, restoreState } from "./session-resume.js";
import { assembleTools, mcpToolHandlers, subagentHandlers } from "./session-tools.js";
import { TraceWriter } from "./trace.js";

export interface RunAgentOptions {
  /** The agent: a path to its Markdown file, or a loaded definition. Not needed to resume. */
  readonly agent?: string | AgentDefinition;
  /** The task. Optional when resuming (a given prompt is appended as a new user message). */
  readonly prompt?: string;
  /** Model ref(s), highest precedence (like `--model`): e.g. `openai/gpt-4.1`. */
  readonly model?: string | readonly string[];
  /** Other settings at CLI level (highest precedence). */
  readonly settings?: CliSettings;
  /** Extra MCP servers (merged over the agent's). */
  readonly mcpServers?: Record<string, McpServerSpec>;
  /** Store directory (default `$SPILLWAY_HOME` or `~/.spillway`). Ignored when `stores` is given. */
  readonly home?: string;
  readonly stores?: SpillwayStores;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** An explicit config file instead of the lookup (cwd, then home). */
  readonly configPath?: string;
  readonly onEvent?: AgentEventListener;
  /** Abort: cancels the model call and every running tool at once (recorded as aborted). */
  readonly signal?: AbortSignal;
  /**
   * Graceful stop: the next turn is the final one (the model wraps up with what it has);
   * background tools keep running meanwhile, and any still running when the session ends are
   * recorded as aborted. Sub-agents get it too.
   */
  readonly stop?: AbortSignal;
  /** Continue this session from its canonical history. */
  readonly resume?: string;
  /** Replaces the session's extraction engine (model-driven reads of outputs). */
  readonly extractor?: Extractor;
  /** false: no extraction in this session (e.g. the read-grep agent itself). */
  readonly extraction?: false;
  /** Replaces the configured surface (the read-grep agent's Read/Grep). */
  readonly surface?: Surface;
  /** Calls beyond this many in one turn get an error instead of running. */
  readonly maxToolCallsPerTurn?: number;
  /** Replace the model call (tests, custom routing); defaults to AI SDK providers. */
  readonly callModel?: (
    targets: readonly ModelTarget[],
    request: ModelRequest,
  ) => Promise<ModelReply>;
  readonly clock?: Clock;
  /** @internal Sub-agent plumbing. */
  readonly parent?: {
    readonly sessionId: string;
    readonly toolCallId: string;
    readonly depth: number;
  };
}

export interface AgentRunResult {
  readonly sessionId: string;
  readonly status: Exclude<SessionStatus, "running">;
  /** The final report (or, when the run failed, the agent's last words if any). */
  readonly report: string | null;
  readonly error: string | null;
  readonly turns: number;
  /** Tokens, cost and durations, sub-agents included. */
  readonly usage: UsageReport;
  readonly tracePath: string;
}

const MAX_DEPTH = 8;

function cliSettings(options: RunAgentOptions): CliSettings {
  return {
    ...(options.settings ?? {}),
    ...(options.model !== undefined ? { models: options.model } : {}),
  };
}

async function startSession(
  options: RunAgentOptions,
  stores: SpillwayStores,
): Promise<{ sessionId: string; plan: RunPlan; resumed: boolean; previous: UsageReport | null }> {
  if (options.resume) {
    const session = await stores.history.getSession(options.resume);
    const stored = storedPlan(session.settings, session.id);
    const plan = await resumePlan(stored, cliSettings(options), {
      home: stores.home,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.configPath ? { configPath: options.configPath } : {}),
    });
    if (plan !== stored) await stores.history.updateSession(session.id, { settings: plan });
    await repairHistory(stores.history, session.id);
    await failInterruptedOutputs(stores.outputs, session.id);
    if (options.prompt)
      await stores.history.appendMessage(session.id, session.turns, "user", [
        { type: "text", text: options.prompt },
      ]);
    await stores.history.updateSession(session.id, { status: "running" });
    return {
      sessionId: session.id,
      plan,
      resumed: true,
      previous: (session.accounting as UsageReport | null) ?? null,
    };
  }
  if (!options.agent)
    throw new SpillwayError(
      "INVALID_ARGUMENT",
      "runAgent needs `agent` (a path or a definition), or `resume`.",
      {},
    );
  if (!options.prompt || options.prompt.trim() === "") {
    throw new SpillwayError("INVALID_ARGUMENT", "runAgent needs a non-empty `prompt` (the task).", {
      argument: "prompt",
    });
  }
  const planOptions: PlanOptions = {
    agent: options.agent,
    cli: cliSettings(options),
    ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    home: stores.home,
    ...(options.env ? { env: options.env } : {}),
    ...(options.configPath ? { configPath: options.configPath } : {}),
  };
  const plan = await planRun(planOptions);
  const sessionId = randomId("ses");
  await stores.history.createSession({
    id: sessionId,
    agentName: plan.agentName,
    ...(plan.agentPath ? { agentPath: plan.agentPath } : {}),
    prompt: options.prompt,
    settings: plan,
    ...(options.parent
      ? { parentSessionId: options.parent.sessionId, parentToolCallId: options.parent.toolCallId }
      : {}),
  });
  await stores.history.appendMessage(sessionId, 0, "user", [
    { type: "text", text: options.prompt },
  ]);
  return { sessionId, plan, resumed: false, previous: null };
}

/** Tools still running in the background when a session ends are recorded as aborted. */
const SESSION_ENDED = "the session ended before the tool finished";

/** The session loop, then: background tools still running are aborted and recorded. */
async function runLoopThenSettle(context: SessionContext): Promise<LoopEnd> {
  try {
    return await runSessionLoop(context);
  } finally {
    await context.background.abortAll(SESSION_ENDED);
  }
}

/** Notes for the model about servers that could not start: their tools are missing. */
function serverNotes(hub: McpHub | undefined): string {
  const failures = hub?.failures() ?? [];
  if (failures.length === 0) return "";
  return `\n\nUnavailable tools: ${failures.map((f) => `MCP server "${f.server}" could not start (${f.error.message}); its tools are missing.`).join(" ")}`;
}

/**
 * Runs an agent: loads its file and config, connects its MCP servers, and runs the session
 * loop until a final report, `maxTurns`, or an abort. Every tool result is stored whole in the
 * canonical store before the model sees its projection. Returns the report, the session id
 * and the accounting; progress arrives as events.
 *
 * @example
 * const result = await runAgent({
 *   agent: "examples/incident-triage/agent.md",
 *   prompt: "Why did checkout fail at 09:26?",
 *   model: "openai/gpt-4.1",
 *   onEvent: (event) => console.error(event.type),
 * });
 * console.log(result.report, result.usage.total.costUsd);
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunResult> {
  const depth = options.parent?.depth ?? 0;
  if (depth > MAX_DEPTH)
    throw new SpillwayError(
      "INVALID_ARGUMENT",
      `Sub-agents nest deeper than ${MAX_DEPTH} levels.`,
      {},
    );
  const ownStores = !options.stores;
  const stores =
    options.stores ?? (await openSqliteStores(options.home ? { home: options.home } : {}));
  let hub: McpHub | undefined;
  try {
    const { sessionId, plan, resumed, previous } = await startSession(options, stores);
    const trace = await TraceWriter.open(stores.home, sessionId);
    const emit = (event: AgentEvent) => {
      trace.write(event);
      options.onEvent?.({ ...event, depth });
    };
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) controller.abort(options.signal.reason);
    const accounting = new Accounting(previous);
    let removeStopListener = () => {};
    try {
      if (Object.keys(plan.mcpServers).length > 0) {
        hub = await connectMcpServers(plan.mcpServers, {
          callTimeoutMs: plan.settings.toolTimeoutSecs * 1000,
        });
        for (const failure of hub.failures())
          emit({ type: "warning", sessionId, message: failure.error.message });
      }
      const surface =
        options.surface ??
        createSurface(plan.settings.toolOutput.surface, plan.settings.toolOutput);
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
          ...(options.env ? { env: options.env } : {}),
          ...(options.cwd ? { cwd: options.cwd } : {}),
          ...(options.onEvent ? { onEvent: options.onEvent } : {}),
          ...(options.callModel ? { callModel: options.callModel } : {}),
          ...(options.clock ? { clock: options.clock } : {}),
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
      const asyncTools = asyncActive({ settings: plan.settings, surface });
      const background = new BackgroundTools(
        asyncSettingsOf(plan.settings).maxRunning,
        options.clock ?? systemClock,
      );
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
            mcp: hub ? mcpToolHandlers(hub, plan.settings.toolTimeoutSecs * 1000) : [],
            subagents: subagentHandlers(plan.subagents, runChild, { asyncParam: asyncTools }),
            surface,
            asyncTools,
            ...(options.surface ? { onlySurface: true } : {}),
          },
          () => context,
        ),
        accounting,
        trace,
        signal: controller.signal,
        background,
        clock: options.clock ?? systemClock,
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
      emit({
        type: "session.start",
        sessionId,
        parentSessionId: options.parent?.sessionId ?? null,
        agent: plan.agentName,
        models: plan.settings.models.map((m) => m.ref),
        maxTurns: plan.settings.maxTurns,
        resumed,
      });
      let end: LoopEnd;
      try {
        end = await runLoopThenSettle(context);
      } catch (error) {
        if (controller.signal.aborted) end = { status: "aborted", error: "The run was aborted." };
        else if (isSpillwayError(error))
          end = { status: "failed", error: `${error.code}: ${error.message}`, report: null };
        else {
          // A bug or an unwrapped library error: record the session as failed, then rethrow.
          const message = `internal error: ${(error as Error)?.message ?? String(error)}`;
          const usage = accounting.report();
          await stores.history.updateSession(sessionId, {
            status: "failed",
            error: message,
            turns: state.turn,
            accounting: usage,
          });
          emit({
            type: "session.end",
            sessionId,
            status: "failed",
            report: null,
            error: message,
            usage,
          });
          await trace.flush();
          throw error;
        }
      }
      const report = end.status === "aborted" ? null : end.report;
      const error = end.status === "completed" ? null : end.error;
      const usage = accounting.report();
      await stores.history.updateSession(sessionId, {
        status: end.status,
        finalReport: report,
        error,
        turns: state.turn,
        accounting: usage,
      });
      emit({ type: "session.end", sessionId, status: end.status, report, error, usage });
      await trace.flush();
      return {
        sessionId,
        status: end.status,
        report,
        error,
        turns: state.turn,
        usage,
        tracePath: trace.path,
      };
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      removeStopListener();
    }
  } finally {
    await hub?.close();
    if (ownStores) await stores.close();
  }
}

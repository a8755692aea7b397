import { SpillwayError } from "../core/errors.js";
import { openSqliteStores } from "../store/sqlite-history-store.js";
import { buildSession } from "./build-session.js";
import { endOfThrownLoop, finishSession } from "./finish-session.js";
import type { AgentRunResult, RunAgentOptions } from "./run-types.js";
import type { SessionContext } from "./session-context.js";
import { type LoopEnd, runSessionLoop } from "./session-loop.js";
import { startSession } from "./start-session.js";

export type { AgentRunResult, RunAgentOptions } from "./run-types.js";

const MAX_DEPTH = 8;

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

/**
 * Runs an agent: loads its file and config, connects its MCP servers, and runs the session
 * loop until a final report, `maxTurns`, or an abort. Every tool result is stored whole in the
 * canonical store before the model sees its projection. Returns the report, the session id
 * and the accounting; progress arrives as events.
 *
 * Four steps: start (the session record and its plan: start-session.ts), build (the wired
 * session context: build-session.ts), run the loop, finish (finish-session.ts).
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
      { argument: "parent.depth", limit: MAX_DEPTH },
    );
  const ownStores = !options.stores;
  const stores =
    options.stores ?? (await openSqliteStores(options.home ? { home: options.home } : {}));
  try {
    const started = await startSession(options, stores);
    const { context, controller, release } = await buildSession(options, stores, started, runAgent);
    try {
      context.emit({
        type: "session.start",
        sessionId: context.sessionId,
        parentSessionId: options.parent?.sessionId ?? null,
        agent: started.plan.agentName,
        models: started.plan.settings.models.map((m) => m.ref),
        maxTurns: started.plan.settings.maxTurns,
        resumed: started.resumed,
      });
      let end: LoopEnd;
      try {
        end = await runLoopThenSettle(context);
      } catch (error) {
        const typedEnd = endOfThrownLoop(error, controller.signal.aborted);
        if (typedEnd) end = typedEnd;
        else {
          // A bug or an unwrapped library error: record the session as failed, then rethrow.
          const message = `internal error: ${(error as Error)?.message ?? String(error)}`;
          await finishSession(context, { status: "failed", error: message, report: null });
          throw error;
        }
      }
      return await finishSession(context, end);
    } finally {
      await release();
    }
  } finally {
    if (ownStores) await stores.close();
  }
}

/**
 * Running agent sessions for the server, behind a small interface so a deployment can wrap it
 * (e.g. a PostgreSQL lease that makes one worker of several run a session). The local runner
 * calls `runAgent` in this process; `start` resolves once the session exists (its id is known
 * and its MCP servers are connected), and fails with the typed error of a bad agent or settings.
 */
import type { AgentEvent, AgentEventListener } from "../agent/events.js";
import type { AgentRunResult, RunAgentOptions } from "../agent/run-agent.js";
import type { AgentDefinition, CliSettings } from "../config/index.js";
import { fencedStores } from "../store/fenced-history.js";
import type { SpillwayStores } from "../store/sqlite-history-store.js";

export interface SessionRunRequest {
  /** A new session's agent (absent when continuing). */
  readonly agent?: AgentDefinition;
  readonly prompt: string;
  readonly settings?: CliSettings;
  /** Continue this session from its canonical history. */
  readonly resume?: string;
  /**
   * Why this worker may no longer write the session (it lost its lease), or undefined while it
   * may: the run's history writes fail with LEASE_LOST from then on.
   */
  readonly fence?: () => string | undefined;
}

/** A session this process is running. */
export interface SessionRun {
  readonly sessionId: string;
  /** Settles when the run ends (never rejects: a run that threw is reported as failed). */
  readonly done: Promise<AgentRunResult | { readonly status: "failed"; readonly error: string }>;
  /** Graceful stop: the next turn is the last; the model wraps up. */
  stop(): void;
  /** Cancels the model call and every running tool now. */
  abort(): void;
}

export interface SessionRunner {
  start(request: SessionRunRequest, onEvent: AgentEventListener): Promise<SessionRun>;
}

export interface LocalRunnerOptions {
  readonly stores: SpillwayStores;
  /** Where config files are looked up and relative paths resolve. */
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Extra runAgent options (tests: a scripted callModel, a clock). */
  readonly runOptions?: Partial<RunAgentOptions>;
}

/**
 * Runs sessions in this process with `runAgent`.
 *
 * @example
 * const runner = localSessionRunner({ stores, cwd: process.cwd() });
 * const run = await runner.start({ agent, prompt: "Summarize app.log" }, (event) => hub.publish(event.sessionId, event));
 * await run.done;
 */
export function localSessionRunner(options: LocalRunnerOptions): SessionRunner {
  return {
    async start(request, onEvent) {
      // The agent runtime (model providers, MCP clients) loads with the first session, so the
      // server starts fast.
      const { runAgent } = await import("../agent/run-agent.js");
      const abort = new AbortController();
      const stop = new AbortController();
      return new Promise<SessionRun>((resolveStart, rejectStart) => {
        let sessionId: string | undefined;
        const listener: AgentEventListener = (event) => {
          if (sessionId === undefined && event.type === "session.start" && event.depth === 0) {
            sessionId = event.sessionId;
            onEvent(event);
            resolveStart({
              sessionId,
              done,
              stop: () => stop.abort(),
              abort: () => abort.abort(),
            });
            return;
          }
          onEvent(event);
        };
        const done = runAgent({
          ...(options.runOptions ?? {}),
          ...(request.agent ? { agent: request.agent } : {}),
          ...(request.resume ? { resume: request.resume } : {}),
          prompt: request.prompt,
          ...(request.settings ? { settings: request.settings } : {}),
          stores: request.fence ? fencedStores(options.stores, request.fence) : options.stores,
          cwd: options.cwd,
          ...(options.env ? { env: options.env } : {}),
          signal: abort.signal,
          stop: stop.signal,
          onEvent: listener,
        }).then(
          (result) => result,
          (error: unknown) => {
            if (sessionId === undefined) rejectStart(error);
            const message = error instanceof Error ? error.message : String(error);
            if (sessionId !== undefined) {
              const failed: AgentEvent & { depth: number } = {
                type: "warning",
                sessionId,
                message: `the run ended with an error: ${message}`,
                depth: 0,
              };
              onEvent(failed);
            }
            return { status: "failed" as const, error: message };
          },
        );
      });
    },
  };
}

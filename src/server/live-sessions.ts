/**
 * The sessions this server runs: starting and continuing them through the session runner,
 * projecting their events in order onto the event feed, graceful stop and abort, and the
 * per-tenant cap on concurrent runs (429 past it).
 */
import type { AgentEvent } from "../agent/events.js";
import { isSpillwayError } from "../core/errors.js";
import type { HeldLease } from "../store/session-leases.js";
import type { SpillwayStores } from "../store/sqlite-history-store.js";
import { type ContextThresholds, sessionThresholds } from "./context-status.js";
import type { SessionEventFeed } from "./event-hub.js";
import { projectEvent } from "./event-projection.js";
import { HttpProblem } from "./problem.js";
import type { LeaseKeeper } from "./session-lease.js";
import type { SessionRun, SessionRunner, SessionRunRequest } from "./session-runner.js";
import type { SessionOwners } from "./tenancy.js";

interface Live {
  readonly run: SessionRun;
  readonly tenant: string;
}

export interface LiveSessionsOptions {
  readonly stores: SpillwayStores;
  readonly runner: SessionRunner;
  readonly feed: SessionEventFeed;
  readonly owners: SessionOwners;
  /** Concurrent runs a tenant may have (429 past it). */
  readonly maxRunningPerTenant: number;
  /** Characters of tool results previewed on the event stream. */
  readonly previewChars: number;
  /** Called with errors of event projection (they never stop a run). */
  readonly onError: (error: unknown) => void;
  /** Session leases in the shared store (several workers on one database). */
  readonly leases: LeaseKeeper;
}

/**
 * The registry of running sessions.
 *
 * @example
 * const run = await live.start("owner", { agent, prompt: "…" });
 * live.stop(run.sessionId);
 */
export class LiveSessions {
  private readonly runs = new Map<string, Live>();
  /** One projection chain a root session, so its events keep their order. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly windows = new Map<string, Map<string, number>>();
  private readonly thresholds = new Map<string, ContextThresholds>();
  private starting = new Map<string, number>();
  /** Runs that lost their lease: another worker may run the session now, so they stay silent. */
  private readonly fenced = new Set<string>();

  constructor(private readonly options: LiveSessionsOptions) {}

  isLive(sessionId: string): boolean {
    return this.runs.has(sessionId);
  }

  private running(tenant: string): number {
    let n = this.starting.get(tenant) ?? 0;
    for (const live of this.runs.values()) if (live.tenant === tenant) n++;
    return n;
  }

  private async contextWindowOf(sessionId: string, model: string): Promise<number | null> {
    let windows = this.windows.get(sessionId);
    if (!windows) {
      windows = new Map();
      try {
        const session = await this.options.stores.history.getSession(sessionId);
        const { storedPlan } = await import("../agent/run-settings.js");
        const plan = storedPlan(session.settings, sessionId);
        for (const target of plan.settings.models) windows.set(target.ref, target.contextWindow);
        this.thresholds.set(sessionId, sessionThresholds(plan.settings));
      } catch (error) {
        if (!isSpillwayError(error)) throw error;
      }
      this.windows.set(sessionId, windows);
    }
    return windows.get(model) ?? null;
  }

  /** Queues an event's projection on its root session's chain and publishes the result. */
  private publish(rootId: string, event: AgentEvent & { depth: number }): void {
    if (this.fenced.has(rootId)) return;
    const previous = this.chains.get(rootId) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        if (event.type === "session.start" && event.parentSessionId)
          await this.options.owners.claim(
            event.sessionId,
            (await this.options.owners.ownerOf(rootId)) ?? "",
          );
        const projected = await projectEvent(
          {
            outputs: this.options.stores.outputs,
            previewChars: this.options.previewChars,
            contextWindowOf: (sessionId, model) => this.contextWindowOf(sessionId, model),
            thresholdsOf: async (sessionId) => this.thresholds.get(sessionId),
          },
          event,
        );
        for (const wire of projected) {
          this.options.feed.publish(rootId, wire);
          if (event.sessionId !== rootId) this.options.feed.publish(event.sessionId, wire);
        }
        if (event.type === "session.end" && event.sessionId !== rootId)
          this.options.feed.end(event.sessionId);
      } catch (error) {
        this.options.onError(error);
      }
    });
    this.chains.set(rootId, next);
  }

  /**
   * Starts (or continues, with `resume`) a session for a tenant. Resolves once it runs; the
   * run goes on in the background and its events reach the feed.
   */
  async start(tenant: string, request: SessionRunRequest): Promise<SessionRun> {
    if (request.resume && this.runs.has(request.resume)) {
      throw new HttpProblem(
        409,
        "SESSION_BUSY",
        `Session ${request.resume} is still running; send the message when it has ended (or stop it first).`,
        {
          sessionId: request.resume,
        },
      );
    }
    if (this.running(tenant) >= this.options.maxRunningPerTenant) {
      throw new HttpProblem(
        429,
        "RATE_LIMITED",
        `Too many running sessions: at most ${this.options.maxRunningPerTenant} at once (--max-running-sessions); stop one or wait for one to end.`,
        { maxRunning: this.options.maxRunningPerTenant },
        { "retry-after": "5" },
      );
    }
    // Another worker on the same store may be running it: its lease says so.
    // The lease is renewed from the moment it is taken (starting a run can outlast it) until the
    // run ends or fails to start.
    let ended = () => {};
    const over = new Promise<void>((resolve) => {
      ended = resolve;
    });
    // Once the lease is lost (this worker stalled past it and another took the session), the
    // run is aborted, writes no more history and publishes no more events.
    let lease: HeldLease | undefined;
    let abortRun = () => {};
    const onLost = (sessionId: string) => (reason: string) => {
      this.fenced.add(sessionId);
      this.options.onError(
        new Error(`session ${sessionId}: lease lost (${reason}); this worker stops its run`),
      );
      abortRun();
    };
    if (request.resume) {
      await this.options.leases.claim(request.resume);
      lease = this.options.leases.hold(request.resume, over, onLost(request.resume));
    }
    this.starting.set(tenant, (this.starting.get(tenant) ?? 0) + 1);
    let rootId: string | undefined = request.resume;
    const early: (AgentEvent & { depth: number })[] = [];
    try {
      const run = await this.options.runner
        .start({ ...request, fence: () => lease?.lost() }, (event) => {
          if (rootId === undefined && event.depth === 0) rootId = event.sessionId;
          if (rootId === undefined) early.push(event);
          else this.publish(rootId, event);
        })
        .catch((error: unknown) => {
          ended();
          throw error;
        });
      rootId = run.sessionId;
      abortRun = () => run.abort();
      if (lease?.lost() !== undefined) run.abort();
      void run.done.finally(ended);
      if (!request.resume) {
        await this.options.leases.claim(run.sessionId);
        lease = this.options.leases.hold(run.sessionId, over, onLost(run.sessionId));
      }
      for (const event of early) this.publish(rootId, event);
      await this.options.owners.claim(run.sessionId, tenant);
      this.runs.set(run.sessionId, { run, tenant });
      const id = run.sessionId;
      void run.done.then(async () => {
        this.runs.delete(id);
        await this.chains.get(id);
        this.chains.delete(id);
        this.windows.delete(id);
        this.thresholds.delete(id);
        // A fenced run's session goes on elsewhere: its stream is not over.
        if (!this.fenced.delete(id)) this.options.feed.end(id);
      });
      return run;
    } finally {
      this.starting.set(tenant, (this.starting.get(tenant) ?? 1) - 1);
    }
  }

  private live(sessionId: string): Live {
    const live = this.runs.get(sessionId);
    if (!live)
      throw new HttpProblem(
        409,
        "SESSION_NOT_RUNNING",
        `Session ${sessionId} is not running on this server.`,
        { sessionId },
      );
    return live;
  }

  /** Graceful stop: the next turn is the final one. */
  stop(sessionId: string): void {
    this.live(sessionId).run.stop();
  }

  abort(sessionId: string): void {
    this.live(sessionId).run.abort();
  }

  /** Stops every run (gracefully first, then aborts after `graceMs`) and waits for them. */
  async closeAll(graceMs: number): Promise<void> {
    const runs = [...this.runs.values()].map((l) => l.run);
    for (const run of runs) run.stop();
    const timer = setTimeout(() => {
      for (const run of runs) run.abort();
    }, graceMs);
    await Promise.all(runs.map((run) => run.done));
    clearTimeout(timer);
    await Promise.all([...this.chains.values()]);
  }
}

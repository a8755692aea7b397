/**
 * The lease side of running a session on a server: before this worker runs (or continues) a
 * session it takes the session's lease in the shared store, renews it while the run goes on,
 * and gives it up when the run ends. Another worker asking to continue the session meanwhile
 * gets 409 naming the holder; if this worker dies, its lease expires and any worker may
 * continue the session (`POST /v1/sessions/:id/messages`, or `spillway run --resume`).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { type HeldLease, keepLease, type SessionLeases } from "../store/session-leases.js";
import { HttpProblem } from "./problem.js";

/** 30 s: a dead worker's sessions can be continued elsewhere half a minute after it stopped renewing. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/**
 * Holds this worker's session leases.
 *
 * @example
 * const keeper = new LeaseKeeper(stores.leases, 30_000);
 * await keeper.claim("ses_1"); // 409 when another live worker runs it
 * keeper.hold("ses_1", run.done, () => run.abort()); // renewed until the run ends, then released
 */
export class LeaseKeeper {
  /** This worker, as lease rows and 409 answers name it. */
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

  constructor(
    private readonly leases: SessionLeases | undefined,
    private readonly ttlMs: number = DEFAULT_LEASE_TTL_MS,
  ) {}

  /** Takes the session's lease, or throws 409 SESSION_BUSY naming the worker that holds it. */
  async claim(sessionId: string): Promise<void> {
    if (!this.leases) return;
    const state = await this.leases.acquire(sessionId, this.holder, this.ttlMs);
    if (!state.acquired)
      throw new HttpProblem(
        409,
        "SESSION_BUSY",
        `Session ${sessionId} is running on another worker (${state.holder}, lease until ${new Date(state.expiresAt).toISOString()}); send the message when it has ended, or to that worker. If that worker died, its lease expires by then.`,
        { sessionId, holder: state.holder, leaseExpiresAt: state.expiresAt },
      );
  }

  /**
   * Renews the lease every third of its time until `done` settles, then releases it. Calls
   * `onLost` once if the lease is lost meanwhile (another worker took it after this one
   * stalled); the returned lease's `lost()` says so from then on.
   */
  hold(sessionId: string, done: Promise<unknown>, onLost: (reason: string) => void): HeldLease {
    if (!this.leases) return { lost: () => undefined, release: async () => {} };
    const lease = keepLease(this.leases, sessionId, this.holder, this.ttlMs, onLost);
    void done.finally(() => lease.release());
    return lease;
  }
}

/**
 * `spillway run --resume` on a shared store: the CLI run takes the session's lease like a
 * server worker does (src/server/session-lease.ts), so it never continues a session a worker
 * is running, and no worker takes the session over while the CLI runs it.
 */
import { hostname } from "node:os";
import { InvalidArgumentError } from "../core/errors.js";
import { type HeldLease, keepLease, type SessionLeases } from "../store/session-leases.js";

const TTL_MS = 30_000;

/**
 * Takes `sessionId`'s lease for this process and renews it until released; refuses (naming
 * the holder) when another process holds it.
 *
 * @example
 * const lease = await takeRunLease(stores.leases, "ses_1");
 * try { await runAgent({ resume: "ses_1", prompt, stores }); } finally { await lease.release(); }
 */
export async function takeRunLease(
  leases: SessionLeases | undefined,
  sessionId: string,
): Promise<HeldLease> {
  if (!leases) return { lost: () => undefined, release: async () => {} };
  const holder = `cli:${hostname()}:${process.pid}`;
  const state = await leases.acquire(sessionId, holder, TTL_MS);
  if (!state.acquired)
    throw new InvalidArgumentError(
      "--resume",
      `session ${sessionId} is running in another process (${state.holder}, lease until ${new Date(state.expiresAt).toISOString()})`,
      "a session nobody is running: wait for that run to end (or for its lease to expire if that process died), or continue it there",
    );
  return keepLease(leases, sessionId, holder, TTL_MS);
}

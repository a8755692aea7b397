/**
 * Taking over a dead worker's sessions: on a shared store, a session whose lease expired while
 * it was still running lost its worker. Every worker looks for such sessions at half the lease
 * time and continues each it manages to lease, from its canonical history: the tool calls that
 * were running get an explicit "aborted" result (nothing is retried behind the model's back),
 * and the model is told why the run goes on.
 */
import { OWNER } from "./auth.js";
import type { LiveSessions } from "./live-sessions.js";

/** What the model is told when its session continues on another worker. */
export const TAKEOVER_PROMPT =
  "[spillway] The worker that was running this session stopped before the run ended; another worker continues it from the stored history. Tool calls that were still running did not finish (their results say so) and were not retried. Continue the task where it stood.";

export interface TakeoverOptions {
  readonly live: LiveSessions;
  /** Expired leases of running sessions (the store's `leases.expired`). */
  readonly expired: () => Promise<string[]>;
  /** How often to look, ms (half the lease time). */
  readonly everyMs: number;
  readonly log: (line: string) => void;
}

/**
 * Starts looking; returns a function that stops it.
 *
 * @example
 * const stop = startTakeover({ live, expired: () => stores.leases.expired(), everyMs: 15_000, log });
 */
export function startTakeover(options: TakeoverOptions): () => void {
  let busy = false;
  const sweep = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const sessionId of await options.expired()) {
        if (options.live.isLive(sessionId)) continue;
        try {
          // The lease decides: of several workers sweeping at once, one continues it.
          await options.live.start(OWNER.name, { resume: sessionId, prompt: TAKEOVER_PROMPT });
          options.log(
            `spillway serve: took over session ${sessionId} (its worker's lease expired)`,
          );
        } catch (error) {
          // Leased by another worker first: nothing to do. Anything else is worth a line.
          const code = (error as { code?: string }).code;
          if (code !== "SESSION_BUSY")
            options.log(
              `spillway serve: could not take over session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`,
            );
        }
      }
    } catch (error) {
      options.log(`spillway serve: looking for sessions to take over failed: ${String(error)}`);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void sweep(), options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

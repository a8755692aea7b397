/**
 * Session leases: a session runs on one worker at a time. A worker holds a lease row
 * (`session_leases`: session, holder, expiry) while it runs a session and renews it; another
 * worker may take the session only once the lease has expired (its holder died) or was released.
 * The same SQL serves SQLite (one machine, several processes) and PostgreSQL (several hosts).
 */

/** What `acquire` found: the lease is this holder's now, or someone else's until `expiresAt`. */
export interface LeaseState {
  readonly acquired: boolean;
  readonly holder: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
}

export interface SessionLeases {
  /** Takes or renews the lease of `sessionId` for `holder` until now + `ttlMs`, unless another holder's has not expired. */
  acquire(sessionId: string, holder: string, ttlMs: number): Promise<LeaseState>;
  /** Gives up `holder`'s lease (no-op when it holds none). */
  release(sessionId: string, holder: string): Promise<void>;
  /**
   * Top-level sessions still marked running whose lease has expired: their worker stopped
   * renewing (it died) before the run ended. A session that never had a lease (a CLI run) is
   * never listed.
   */
  expired(): Promise<string[]>;
}

/** The statement both engines run (`?` placeholders; PostgreSQL's driver gets `$n`). */
export const ACQUIRE_LEASE_SQL = `
  INSERT INTO session_leases (session_id, holder, expires_at) VALUES (?, ?, ?)
  ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
  WHERE session_leases.holder = excluded.holder OR session_leases.expires_at < ?`;

/** A query runner over either engine: positional parameters, rows back. */
export type LeaseQuery = (
  sql: string,
  params: readonly unknown[],
) => Promise<readonly Record<string, unknown>[]>;

/**
 * Leases over any database that has the `session_leases` table.
 *
 * @example
 * const leases = sqlLeases(query, Date.now);
 * const state = await leases.acquire("ses_1", "worker-a", 30_000);
 * if (!state.acquired) throw new Error(`running on ${state.holder}`);
 */
export function sqlLeases(query: LeaseQuery, now: () => number): SessionLeases {
  return {
    async acquire(sessionId, holder, ttlMs) {
      const at = now();
      await query(ACQUIRE_LEASE_SQL, [sessionId, holder, at + ttlMs, at]);
      const [row] = await query(
        "SELECT holder, expires_at FROM session_leases WHERE session_id = ?",
        [sessionId],
      );
      return {
        acquired: row?.holder === holder,
        holder: typeof row?.holder === "string" ? row.holder : holder,
        expiresAt: Number(row?.expires_at ?? at + ttlMs),
      };
    },
    async expired() {
      const rows = await query(
        `SELECT l.session_id AS session_id FROM session_leases l JOIN sessions s ON s.id = l.session_id
         WHERE l.expires_at < ? AND s.status = 'running' AND s.parent_session_id IS NULL
         ORDER BY l.expires_at`,
        [now()],
      );
      return rows.map((row) => String(row.session_id));
    },
    async release(sessionId, holder) {
      await query("DELETE FROM session_leases WHERE session_id = ? AND holder = ?", [
        sessionId,
        holder,
      ]);
    },
  };
}

/** A lease this process holds, renewed until released. */
export interface HeldLease {
  /**
   * Why this holder can no longer count on the lease (another holder has it, or no renewal
   * succeeded within its time), or undefined while it holds it.
   */
  lost(): string | undefined;
  /** Stops renewing and gives the lease up. */
  release(): Promise<void>;
}

/**
 * Keeps a lease `holder` has just taken: renews it every third of `ttlMs` (a failed renewal is
 * retried at the next tick; the lease lasts three). Once another holder has it, or no renewal
 * succeeded within `ttlMs` of the last one (so another may have taken it), the lease is lost:
 * `onLost` is called once and renewals stop.
 *
 * @example
 * const lease = keepLease(leases, "ses_1", "worker-a", 30_000, (why) => run.abort(why));
 * try { await run(); } finally { await lease.release(); }
 */
export function keepLease(
  leases: SessionLeases,
  sessionId: string,
  holder: string,
  ttlMs: number,
  onLost: (reason: string) => void = () => {},
  now: () => number = Date.now,
): HeldLease {
  // Counted from before each request, so this side's view never outlasts the database's.
  let validUntil = now() + ttlMs;
  let lostReason: string | undefined;
  const lose = (reason: string) => {
    if (lostReason !== undefined) return;
    lostReason = reason;
    clearInterval(timer);
    onLost(reason);
  };
  const check = () => {
    if (lostReason === undefined && now() >= validUntil)
      lose(`no renewal of session ${sessionId}'s lease succeeded within ${ttlMs} ms`);
    return lostReason;
  };
  const timer = setInterval(
    () => {
      if (check() !== undefined) return;
      const asked = now();
      leases.acquire(sessionId, holder, ttlMs).then(
        (state) => {
          if (state.acquired) validUntil = Math.max(validUntil, asked + ttlMs);
          else lose(`session ${sessionId}'s lease is held by ${state.holder} now`);
        },
        () => check(),
      );
    },
    Math.max(50, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  return {
    lost: check,
    release: async () => {
      clearInterval(timer);
      if (lostReason === undefined) await leases.release(sessionId, holder).catch(() => {});
    },
  };
}

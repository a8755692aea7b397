/**
 * The per-session quota (`maxSessionBytes`): the stored bytes of one session's outputs may not
 * pass it. A store checks it twice: before ingesting (the payload may use only what is left,
 * so an oversized stream stops early) and again in the transaction that records it (another
 * writer of the same session may have stored meanwhile).
 */
import type Database from "better-sqlite3";
import { SpillwayError } from "../core/errors.js";

/** A session's stored bytes and its quota. */
export interface SessionQuota {
  readonly usedBytes: number;
  readonly maxSessionBytes: number;
}

/** SESSION_QUOTA_EXCEEDED: nothing was stored; says how much the session holds and what to do. */
export function sessionQuotaError(
  sessionId: string,
  usedBytes: number,
  outputBytes: number,
  maxSessionBytes: number,
  /** The output was stopped early: `outputBytes` is a lower bound. */
  atLeast: boolean,
): SpillwayError {
  return new SpillwayError(
    "SESSION_QUOTA_EXCEEDED",
    `Session ${sessionId} already stores ${usedBytes} bytes of outputs; this output ` +
      `(${atLeast ? "more than " : ""}${outputBytes} bytes) would take it past its quota of ` +
      `${maxSessionBytes} bytes (maxSessionBytes), so nothing was stored. Raise maxSessionBytes ` +
      "(--max-session-bytes), or start a new session; spillway store gc --older-than removes old sessions.",
    { sessionId, usedBytes, outputBytes, limit: maxSessionBytes, limitUnit: "bytes" },
    { fault: "user" },
  );
}

/** The bytes a payload may take: the store's largest output, or what the session has left. */
export function payloadLimit(maxOutputBytes: number, quota: SessionQuota | undefined): number {
  if (!quota) return maxOutputBytes;
  return Math.max(0, Math.min(maxOutputBytes, quota.maxSessionBytes - quota.usedBytes));
}

/** The quota of a session in a SQLite store (undefined when the store sets none). */
export function sqliteQuota(
  db: Database.Database,
  sessionId: string,
  maxSessionBytes: number | undefined,
): SessionQuota | undefined {
  if (maxSessionBytes === undefined) return undefined;
  const row = db
    .prepare(
      "SELECT COALESCE(SUM(byte_size), 0) AS used FROM outputs WHERE session_id = ? AND status = 'ready'",
    )
    .get(sessionId) as { used: number };
  return { usedBytes: row.used, maxSessionBytes };
}

/** Throws SESSION_QUOTA_EXCEEDED when `byteSize` more would pass the quota. */
export function checkQuota(
  sessionId: string,
  byteSize: number,
  quota: SessionQuota | undefined,
): void {
  if (quota && quota.usedBytes + byteSize > quota.maxSessionBytes) {
    throw sessionQuotaError(sessionId, quota.usedBytes, byteSize, quota.maxSessionBytes, false);
  }
}

/**
 * Retention for the SQLite store: what it holds (`storeStats`) and garbage collection
 * (`collectGarbage`): orphan blob files, payloads no output refers to, temp files whose
 * writer is gone, and, by age, whole sessions and outputs outside any session history.
 *
 * Nothing a live session refers to is ever removed: a session still marked running (and its
 * parent and sub-agent sessions) keeps everything, and so does a running output. A session in
 * the history is removed whole (its messages, tool calls and outputs) or not at all, so no
 * tool call ever points at a missing output.
 */

import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { systemClock } from "../core/clock.js";
import type { BlobDirectory } from "./blob-files.js";
import { openSqliteDatabase } from "./sqlite-database.js";
import { isStaleTemp } from "./temp-files.js";

/** A count and the bytes it holds. */
export interface Tally {
  count: number;
  bytes: number;
}

export interface StoreStats {
  readonly home: string;
  /** spillway.db with its -wal and -shm files. */
  readonly databaseBytes: number;
  readonly outputs: Record<"running" | "ready" | "failed", number> & {
    /** Bytes of ready outputs (each counted, even when two share one payload). */
    readonly bytes: number;
  };
  readonly sessions: { readonly total: number; readonly running: number };
  /** Distinct payloads: kept inline in the database, or as blob files. */
  readonly payloads: { readonly inline: Tally; readonly file: Tally };
  /** Payloads no output refers to (gc removes them). */
  readonly unreferencedPayloads: Tally;
  /** Files under blobs/ without a payload record (gc removes them). */
  readonly orphanBlobFiles: Tally;
  /** Temp files of writes; `stale` ones belong to no running writer (gc removes them). */
  readonly tempFiles: Tally & { readonly stale: number };
  /** The sessions holding the most output bytes. */
  readonly largestSessions: { sessionId: string; outputs: number; bytes: number }[];
}

export interface GcOptions {
  /** Store directory (default `$SPILLWAY_HOME` or `~/.spillway`). */
  readonly home?: string;
  /** Report what would be removed, remove nothing. */
  readonly dryRun?: boolean;
  /**
   * Also remove sessions whose last activity, and outputs outside any session history
   * created, more than this many ms ago (never a running session's, or a running output).
   */
  readonly olderThanMs?: number;
  /**
   * Blob files younger than this are kept even when nothing refers to them yet: a writer
   * records its payload just after writing it (default 60,000 ms).
   */
  readonly graceMs?: number;
  /** Milliseconds since the epoch (default the clock). */
  readonly now?: number;
}

export interface GcReport {
  readonly dryRun: boolean;
  readonly removed: {
    readonly sessions: number;
    readonly outputs: Tally;
    /** Payload records no output refers to any more. */
    readonly payloads: Tally;
    /** Blob files of those payloads, and files no record names (crashed writes). */
    readonly blobFiles: Tally;
    readonly tempFiles: Tally;
    readonly cacheEntries: number;
  };
  readonly kept: {
    /** Sessions kept because they (or one in their tree) are still running. */
    readonly liveSessions: number;
    /** Unreferenced blob files younger than the grace period. */
    readonly recentBlobFiles: number;
    /** Temp files a running writer holds. */
    readonly liveTempFiles: number;
  };
}

const tally = (): Tally => ({ count: 0, bytes: 0 });
const SHA256 = /^[0-9a-f]{64}$/;

async function fileSize(path: string): Promise<number> {
  return (await stat(path).catch(() => undefined))?.size ?? 0;
}

/** Every file under blobs/<shard>/ with its size and age. */
async function blobFiles(blobs: BlobDirectory) {
  const files: { sha256: string; path: string; size: number; mtimeMs: number }[] = [];
  for (const shard of await readdir(blobs.blobsDir).catch(() => [] as string[])) {
    const dir = join(blobs.blobsDir, shard);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!SHA256.test(name)) continue; // not ours: left alone
      const info = await stat(join(dir, name)).catch(() => undefined);
      if (info?.isFile())
        files.push({ sha256: name, path: join(dir, name), size: info.size, mtimeMs: info.mtimeMs });
    }
  }
  return files;
}

async function tempFiles(blobs: BlobDirectory, now: number) {
  const files: { path: string; size: number; stale: boolean }[] = [];
  for (const name of await readdir(blobs.tmpDir).catch(() => [] as string[])) {
    if (!name.endsWith(".part")) continue;
    const path = join(blobs.tmpDir, name);
    const info = await stat(path).catch(() => undefined);
    if (info) files.push({ path, size: info.size, stale: isStaleTemp(path, info.mtimeMs, now, 0) });
  }
  return files;
}

function fileRecords(db: Database.Database): Set<string> {
  const rows = db.prepare("SELECT sha256 FROM blobs WHERE storage = 'file'").all() as {
    sha256: string;
  }[];
  return new Set(rows.map((row) => row.sha256));
}

const UNREFERENCED =
  "FROM blobs WHERE NOT EXISTS (SELECT 1 FROM outputs WHERE outputs.blob_sha256 = blobs.sha256)";

/**
 * What the store holds: outputs, sessions, payloads, files, and what gc would remove.
 *
 * @example
 * const stats = await storeStats({ home: "/srv/spillway" });
 * console.log(stats.outputs.bytes, stats.orphanBlobFiles.count);
 */
export async function storeStats(options: { readonly home?: string } = {}): Promise<StoreStats> {
  const { home, db, blobs } = await openSqliteDatabase(options.home, systemClock);
  try {
    const byStatus = db
      .prepare(
        "SELECT status, COUNT(*) AS n, COALESCE(SUM(byte_size), 0) AS bytes FROM outputs GROUP BY status",
      )
      .all() as { status: "running" | "ready" | "failed"; n: number; bytes: number }[];
    const outputs = { running: 0, ready: 0, failed: 0, bytes: 0 };
    for (const row of byStatus) {
      outputs[row.status] = row.n;
      if (row.status === "ready") outputs.bytes = row.bytes;
    }
    const sessions = db
      .prepare(
        "SELECT COUNT(*) AS total, COALESCE(SUM(status = 'running'), 0) AS running FROM sessions",
      )
      .get() as { total: number; running: number };
    const payloads = { inline: tally(), file: tally() };
    for (const row of db
      .prepare(
        "SELECT storage, COUNT(*) AS n, COALESCE(SUM(byte_size), 0) AS bytes FROM blobs GROUP BY storage",
      )
      .all() as { storage: "inline" | "file"; n: number; bytes: number }[]) {
      payloads[row.storage] = { count: row.n, bytes: row.bytes };
    }
    const unreferenced = db
      .prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(byte_size), 0) AS bytes ${UNREFERENCED}`)
      .get() as { n: number; bytes: number };
    const recorded = fileRecords(db);
    const orphanBlobFiles = tally();
    for (const file of await blobFiles(blobs)) {
      if (recorded.has(file.sha256)) continue;
      orphanBlobFiles.count++;
      orphanBlobFiles.bytes += file.size;
    }
    const temps = await tempFiles(blobs, Date.now());
    const largestSessions = (
      db
        .prepare(
          `SELECT session_id, COUNT(*) AS n, COALESCE(SUM(byte_size), 0) AS bytes FROM outputs
           GROUP BY session_id ORDER BY bytes DESC LIMIT 10`,
        )
        .all() as { session_id: string; n: number; bytes: number }[]
    ).map((row) => ({ sessionId: row.session_id, outputs: row.n, bytes: row.bytes }));
    const dbPath = join(home, "spillway.db");
    return {
      home,
      databaseBytes:
        (await fileSize(dbPath)) +
        (await fileSize(`${dbPath}-wal`)) +
        (await fileSize(`${dbPath}-shm`)),
      outputs,
      sessions,
      payloads,
      unreferencedPayloads: { count: unreferenced.n, bytes: unreferenced.bytes },
      orphanBlobFiles,
      tempFiles: {
        count: temps.length,
        bytes: temps.reduce((sum, file) => sum + file.size, 0),
        stale: temps.filter((file) => file.stale).length,
      },
      largestSessions,
    };
  } finally {
    db.close();
  }
}

interface SessionRow {
  id: string;
  parent_session_id: string | null;
  status: string;
  updated_at: number;
}

/** Ids of whole session trees (root and sub-agents) that are idle since `cutoff` and not running. */
function expiredSessionTrees(db: Database.Database, cutoff: number) {
  const rows = db
    .prepare("SELECT id, parent_session_id, status, updated_at FROM sessions")
    .all() as SessionRow[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const rootOf = (row: SessionRow): string => {
    let at = row;
    for (let hops = 0; at.parent_session_id && hops < rows.length; hops++) {
      const parent = byId.get(at.parent_session_id);
      if (!parent) break;
      at = parent;
    }
    return at.id;
  };
  const trees = new Map<string, SessionRow[]>();
  for (const row of rows) {
    const root = rootOf(row);
    trees.set(root, [...(trees.get(root) ?? []), row]);
  }
  const expired: string[] = [];
  let live = 0;
  for (const members of trees.values()) {
    if (members.some((member) => member.status === "running")) {
      live += members.length;
      continue;
    }
    if (members.every((member) => member.updated_at < cutoff)) {
      expired.push(...members.map((member) => member.id));
    }
  }
  return { expired, live };
}

/**
 * Removes what the store no longer needs (see the module comment); with `dryRun`, only says
 * what it would remove. Safe while writers run: a running writer's temp files and fresh blob
 * files are kept, and database rows are removed in one transaction.
 *
 * @example
 * const report = await collectGarbage({ home, olderThanMs: 30 * 24 * 3600 * 1000, dryRun: true });
 * console.log(report.removed.outputs.bytes, "bytes would be freed");
 */
export async function collectGarbage(options: GcOptions = {}): Promise<GcReport> {
  const now = options.now ?? Date.now();
  const graceMs = options.graceMs ?? 60_000;
  const dryRun = options.dryRun === true;
  const { db, blobs } = await openSqliteDatabase(options.home, systemClock);
  try {
    const removedOutputs = tally();
    const payloads = tally();
    let sessions = 0;
    let cacheEntries = 0;
    let liveSessions = 0;
    const unreferencedFiles: string[] = [];
    // A dry run does the same deletions and rolls them back, so it counts exactly what a real
    // run would remove.
    const rollback = new Error("dry run");
    try {
      db.transaction(() => {
        if (options.olderThanMs !== undefined) {
          const cutoff = now - options.olderThanMs;
          const trees = expiredSessionTrees(db, cutoff);
          liveSessions = trees.live;
          sessions = trees.expired.length;
          const inTrees = `SELECT value FROM json_each(?)`;
          const ids = JSON.stringify(trees.expired);
          // Outputs of expired sessions, and old outputs of no session in the history.
          const doomed = `(session_id IN (${inTrees}) OR (created_at < ? AND status != 'running'
            AND session_id NOT IN (SELECT id FROM sessions)))`;
          const gone = db
            .prepare(
              `SELECT COUNT(*) AS n, COALESCE(SUM(byte_size), 0) AS bytes FROM outputs WHERE ${doomed}`,
            )
            .get(ids, cutoff) as { n: number; bytes: number };
          removedOutputs.count = gone.n;
          removedOutputs.bytes = gone.bytes;
          cacheEntries = (
            db
              .prepare("SELECT COUNT(*) AS n FROM extraction_cache WHERE created_at < ?")
              .get(cutoff) as {
              n: number;
            }
          ).n;
          db.prepare(`DELETE FROM tool_calls WHERE session_id IN (${inTrees})`).run(ids);
          db.prepare(`DELETE FROM messages WHERE session_id IN (${inTrees})`).run(ids);
          db.prepare(`DELETE FROM outputs WHERE ${doomed}`).run(ids, cutoff);
          db.prepare(`DELETE FROM sessions WHERE id IN (${inTrees})`).run(ids);
          db.prepare("DELETE FROM extraction_cache WHERE created_at < ?").run(cutoff);
        }
        // Payloads no output refers to (after the deletions above).
        const unreferenced = db
          .prepare(`DELETE ${UNREFERENCED} RETURNING sha256, storage, byte_size`)
          .all() as BlobRef[];
        for (const blob of unreferenced) {
          payloads.count++;
          payloads.bytes += blob.byte_size;
          if (blob.storage === "file") unreferencedFiles.push(blob.sha256);
        }
        if (dryRun) throw rollback;
      }).immediate();
    } catch (error) {
      if (error !== rollback) throw error;
    }
    // Files: unreferenced payloads' files and files without any record, past the grace period.
    const recorded = fileRecords(db);
    const dropped = new Set(unreferencedFiles);
    const blobFilesRemoved = tally();
    let recentBlobFiles = 0;
    for (const file of await blobFiles(blobs)) {
      if (recorded.has(file.sha256) && !(dryRun && dropped.has(file.sha256))) continue;
      if (now - file.mtimeMs < graceMs) {
        recentBlobFiles++;
        continue;
      }
      blobFilesRemoved.count++;
      blobFilesRemoved.bytes += file.size;
      if (!dryRun) await rm(file.path, { force: true });
    }
    const temps = tally();
    let liveTempFiles = 0;
    for (const file of await tempFiles(blobs, now)) {
      if (!file.stale) {
        liveTempFiles++;
        continue;
      }
      temps.count++;
      temps.bytes += file.size;
      if (!dryRun) await rm(file.path, { force: true });
    }
    if (!dryRun) db.pragma("wal_checkpoint(TRUNCATE)");
    return {
      dryRun,
      removed: {
        sessions,
        outputs: removedOutputs,
        payloads,
        blobFiles: blobFilesRemoved,
        tempFiles: temps,
        cacheEntries,
      },
      kept: { liveSessions, recentBlobFiles, liveTempFiles },
    };
  } finally {
    db.close();
  }
}

interface BlobRef {
  sha256: string;
  storage: "inline" | "file";
  byte_size: number;
}

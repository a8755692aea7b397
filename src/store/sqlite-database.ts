import { lstat, open as openFile, statfs } from "node:fs/promises";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import type { Clock } from "../core/clock.js";
import { SpillwayError } from "../core/errors.js";
import { resolveHome } from "../core/home.js";
import { BlobDirectory, FILE_MODE, makePrivateDir, notExpected } from "./blob-files.js";
import { migrate } from "./sqlite-schema.js";

/**
 * How each commit reaches the disk. `full` (the default): every transaction is fsynced before
 * it returns, so a stored output survives a power loss. `normal`: the WAL is fsynced at
 * checkpoints, so a commit survives the process crashing (it is in the OS's cache) but the
 * last commits can be lost to a power loss or an OS crash; commits take a fraction of the time.
 */
export type SqliteSynchronous = "full" | "normal";

/**
 * Opens (creating if needed) the store's directory and database: `spillway.db` (WAL,
 * synchronous=FULL unless asked otherwise, migrated to the latest schema) plus the blob
 * directories.
 */
export async function openSqliteDatabase(
  explicitHome: string | undefined,
  clock: Clock,
  synchronous: SqliteSynchronous = "full",
): Promise<{ home: string; db: Database.Database; blobs: BlobDirectory }> {
  const home = resolveHome(explicitHome);
  const dbPath = join(home, "spillway.db");
  const blobs = new BlobDirectory(home);
  try {
    await makePrivateDir(home);
    await blobs.prepare();
    await prepareDatabaseFile(dbPath);
    const db = new Database(dbPath, { timeout: BUSY_TIMEOUT_MS });
    await useWriteAheadLog(db, Date.now() + BUSY_TIMEOUT_MS);
    db.pragma(synchronous === "normal" ? "synchronous = NORMAL" : "synchronous = FULL");
    db.pragma("foreign_keys = ON");
    migrate(db, clock());
    return { home, db, blobs };
  } catch (error) {
    if (SpillwayError.isInstance(error)) throw error;
    const full = await lowOnSpace(home);
    throw new SpillwayError(
      "STORE_UNAVAILABLE",
      `Cannot open the store at ${home}: ${(error as Error).message}. ${remedyFor(error, home, full)}`,
      { home, path: dbPath, ...errnoOf(error) },
      { fault: "store", cause: error },
    );
  }
}

/** How long an open waits for another process's lock before it gives up. */
const BUSY_TIMEOUT_MS = 30_000;

/**
 * Puts the database in WAL mode, waiting out another process's lock. SQLite fails a journal-mode
 * change at once, without its busy handler, when another connection holds a write lock (two
 * processes opening a new store together), so the change is retried until `deadline`
 * (docs/architecture.md, SW-61). Once the file is in WAL mode the change takes no lock.
 */
async function useWriteAheadLog(db: Database.Database, deadline: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if (errnoOf(error).errno !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt)));
    }
  }
}

/** The wait before retry `attempt`: doubling from 5 ms up to 200 ms, jittered so processes part. */
function retryDelay(attempt: number): number {
  return Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random());
}

/**
 * Creates the database file private (0600; SQLite gives -wal/-shm the same mode) when it is
 * missing. An existing file keeps its mode. A symbolic link at the file, or at its -wal/-shm
 * companions, is refused: SQLite would follow it and write wherever it points.
 */
async function prepareDatabaseFile(dbPath: string): Promise<void> {
  for (const path of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    const info = await lstat(path).catch(() => undefined);
    if (info?.isSymbolicLink()) throw notExpected(path, "a symbolic link", "a regular file");
    if (info && !info.isFile()) throw notExpected(path, "not a regular file", "a regular file");
  }
  try {
    await (await openFile(dbPath, "wx", FILE_MODE)).close();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/** The system or SQLite error code behind a failure, when there is one. */
function errnoOf(error: unknown): { errno?: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? { errno: code } : {};
}

/** True when the file system holding `path` (or its nearest existing parent) is nearly full. */
async function lowOnSpace(path: string): Promise<boolean> {
  for (let at = path; ; at = dirname(at)) {
    const info = await statfs(at).catch(() => undefined);
    if (info) return info.bavail * info.bsize < 1024 * 1024;
    if (dirname(at) === at) return false;
  }
}

/**
 * What to do about a store that cannot be opened, by what went wrong. SQLite reports a full
 * disk in several ways ("disk I/O error" among them), so `diskFull` (measured) wins.
 */
export function remedyFor(error: unknown, home: string, diskFull = false): string {
  if (diskFull) {
    return `The disk holding ${home} is full: free some space (spillway store gc removes unreferenced payloads), or use another --home.`;
  }
  switch (errnoOf(error).errno) {
    case "ENOSPC":
    case "EDQUOT":
    case "SQLITE_FULL":
      return `The disk holding ${home} is full: free some space (spillway store gc removes unreferenced payloads), or use another --home.`;
    case "EROFS":
      return `${home} is on a read-only file system: set SPILLWAY_HOME (or --home) to a writable directory.`;
    case "EACCES":
    case "EPERM":
    case "SQLITE_READONLY":
    case "SQLITE_CANTOPEN":
      return "Set SPILLWAY_HOME (or --home) to a directory you can write.";
    default:
      return "Check that the directory exists, is yours and has free space, or set SPILLWAY_HOME (or --home) to another one.";
  }
}

/** STORE_UNAVAILABLE for a write that ran out of disk (nothing was stored); else undefined. */
export function diskFullError(error: unknown, home: string): SpillwayError | undefined {
  const { errno } = errnoOf(error);
  if (errno !== "ENOSPC" && errno !== "EDQUOT") return undefined;
  return new SpillwayError(
    "STORE_UNAVAILABLE",
    `The disk holding the store at ${home} is full; nothing was stored. ${remedyFor(error, home, true)}`,
    { home, errno },
    { fault: "store", cause: error },
  );
}

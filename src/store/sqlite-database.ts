import { chmod, open as openFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Clock } from "../core/clock.js";
import { SpillwayError } from "../core/errors.js";
import { resolveHome } from "../core/home.js";
import { BlobDirectory, FILE_MODE, makePrivateDir } from "./blob-files.js";
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
    // Create the file private before SQLite opens it; SQLite gives -wal/-shm the same mode.
    await (await openFile(dbPath, "a", FILE_MODE)).close();
    await chmod(dbPath, FILE_MODE);
    const db = new Database(dbPath, { timeout: 30_000 });
    db.pragma("journal_mode = WAL");
    db.pragma(synchronous === "normal" ? "synchronous = NORMAL" : "synchronous = FULL");
    db.pragma("foreign_keys = ON");
    migrate(db, clock());
    return { home, db, blobs };
  } catch (error) {
    throw new SpillwayError(
      "STORE_UNAVAILABLE",
      `Cannot open the store at ${home}: ${(error as Error).message}. ` +
        "Set SPILLWAY_HOME (or --home) to a directory you can write.",
      { home, path: dbPath },
      { fault: "store", cause: error },
    );
  }
}

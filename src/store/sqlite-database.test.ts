import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/temp-store.js";
import { diskFullError, openSqliteDatabase, remedyFor } from "./sqlite-database.js";

describe("openSqliteDatabase", () => {
  it("fsyncs every commit by default, and only at checkpoints with synchronous: normal", async () => {
    const full = await openSqliteDatabase(await tempDir(), Date.now);
    const normal = await openSqliteDatabase(await tempDir(), Date.now, "normal");
    try {
      // SQLite's codes: 1 = NORMAL, 2 = FULL.
      expect(full.db.pragma("synchronous", { simple: true })).toBe(2);
      expect(normal.db.pragma("synchronous", { simple: true })).toBe(1);
      expect(normal.db.pragma("journal_mode", { simple: true })).toBe("wal");
    } finally {
      full.db.close();
      normal.db.close();
    }
  });

  it("waits for another process's write lock instead of failing the switch to WAL", async () => {
    // A store file still in rollback mode, with another connection in a write transaction:
    // SQLite refuses the journal-mode change at once, without running its busy handler.
    const home = await tempDir();
    const holder = new Database(join(home, "spillway.db"), { timeout: 0 });
    holder.exec("CREATE TABLE held (x)");
    holder.exec("BEGIN IMMEDIATE");
    holder.exec("INSERT INTO held VALUES (1)");
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        holder.exec("COMMIT");
        holder.close();
        resolve();
      }, 150),
    );
    const opened = await openSqliteDatabase(home, Date.now);
    await released;
    try {
      expect(opened.db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(opened.db.prepare("SELECT count(*) AS n FROM held").get()).toEqual({ n: 1 });
    } finally {
      opened.db.close();
    }
  });
});

const failure = (code: string) => Object.assign(new Error("failed"), { code });

describe("what a store failure tells the user to do", () => {
  it("a full disk is blamed on the disk, not on permissions", () => {
    for (const error of [failure("ENOSPC"), failure("SQLITE_FULL"), failure("EDQUOT")]) {
      const remedy = remedyFor(error, "/data/spillway");
      expect(remedy).toContain("disk holding /data/spillway is full");
      expect(remedy).not.toContain("you can write");
    }
    // SQLite may say only "disk I/O error": the measured free space decides.
    expect(remedyFor(failure("SQLITE_IOERR_WRITE"), "/h", true)).toContain("is full");
  });

  it("permission problems still ask for a writable directory", () => {
    expect(remedyFor(failure("EACCES"), "/h")).toContain("a directory you can write");
    expect(remedyFor(failure("EROFS"), "/h")).toContain("read-only file system");
  });

  it("a write that runs out of space is STORE_UNAVAILABLE saying nothing was stored", () => {
    const error = diskFullError(failure("ENOSPC"), "/h");
    expect(error?.code).toBe("STORE_UNAVAILABLE");
    expect(error?.message).toContain("full; nothing was stored");
    expect(diskFullError(failure("EIO"), "/h")).toBeUndefined();
  });
});

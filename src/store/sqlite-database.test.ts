import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/temp-store.js";
import { openSqliteDatabase } from "./sqlite-database.js";

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
});

import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { summaryContract } from "../../test/helpers/summary-contract.js";
import { onCleanup, tempDir } from "../../test/helpers/temp-store.js";
import { openSqliteStores } from "./sqlite-history-store.js";
import { SCHEMA_VERSION } from "./sqlite-schema.js";

summaryContract("SQLite", async () => {
  const stores = await openSqliteStores({ home: await tempDir() });
  onCleanup(() => stores.close());
  return stores.history;
});

describe("SQLite migration 4", () => {
  it("adds the summaries table to a store made before it, keeping what was there", async () => {
    const home = await tempDir();
    const old = await openSqliteStores({ home });
    await old.history.createSession({ id: "ses_old", agentName: "a", prompt: "p", settings: {} });
    await old.history.appendMessage("ses_old", 0, "user", [{ type: "text", text: "hello" }]);
    await old.close();
    // Take the store back to version 3, as an older spillway left it.
    const db = new Database(join(home, "spillway.db"));
    db.exec("DROP TABLE summaries; DELETE FROM schema_migrations WHERE version = 4;");
    db.close();
    const stores = await openSqliteStores({ home });
    onCleanup(() => stores.close());
    expect(SCHEMA_VERSION).toBe(5);
    expect((await stores.history.messages("ses_old")).map((m) => m.parts)).toEqual([
      [{ type: "text", text: "hello" }],
    ]);
    const record = await stores.history.appendSummary({
      sessionId: "ses_old",
      fromSeq: 1,
      throughSeq: 1,
      fromTurn: 0,
      throughTurn: 0,
      summary: "s",
      text: "t",
      calls: [],
      indexOutputId: null,
      model: "m",
      tokensBefore: 2,
      tokensAfter: 1,
      textTokens: 1,
    });
    expect(record.seq).toBe(1);
  });
});

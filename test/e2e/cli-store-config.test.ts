/**
 * The config file's `store`: with neither --store nor SPILLWAY_STORE, the CLI uses the
 * PostgreSQL store the config file names (a real server); --store still wins; a URL with its
 * password in the file is refused naming the key.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPostgresOutputStore } from "../../src/store/postgres-output-store.js";
import { ensureBuilt, runCli } from "../helpers/built-cli.js";
import { postgresServer } from "../helpers/store-engines.js";
import { onCleanup, tempDir } from "../helpers/temp-store.js";

describe("store in the config file", () => {
  it("points the CLI at PostgreSQL unless --store says otherwise, and keeps passwords out", async () => {
    await ensureBuilt();
    const url = await (await postgresServer()).createDatabase();
    const store = await openPostgresOutputStore({ connectionString: url });
    onCleanup(() => store.close());
    const record = await store.put(
      { sessionId: "ses_config", toolName: "fs__read", toolArgs: "{}" },
      "from the configured store\n",
    );
    const cwd = await tempDir();
    const home = await tempDir();
    await writeFile(join(cwd, "spillway.config.yaml"), `store: ${url}\n`);
    const listed = await runCli(["outputs", "list", "--json"], { cwd, home });
    expect(listed.stderr).toBe("");
    expect(listed.stdout).toContain(record.id);
    // --store wins: the SQLite home has nothing.
    const sqliteHome = await tempDir();
    const other = await runCli(
      ["--store", url.replace(/\/[^/]+$/, "/postgres"), "outputs", "list", "--json"],
      {
        cwd,
        home: sqliteHome,
      },
    );
    expect(other.stdout).not.toContain(record.id);
    await writeFile(
      join(cwd, "spillway.config.yaml"),
      `store: ${url.replace("spillway@", "spillway:hunter2@")}\n`,
    );
    const refused = await runCli(["outputs", "list"], { cwd, home });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("store");
    expect(refused.stderr).toContain("PGPASSWORD");
    expect(refused.stderr).not.toContain("hunter2");
  });
});

/**
 * A process killed with SIGKILL while it streams a large output into PostgreSQL: the chunks it
 * had written (inside the upload's transaction) vanish with it, the output it had committed
 * stays whole, and the store takes writes of the same session at once. Real PostgreSQL server.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { readOutput } from "../../src/retrieval/read-output.js";
import { openPostgresOutputStore } from "../../src/store/postgres-output-store.js";
import { postgresServer } from "../helpers/store-engines.js";
import { onCleanup } from "../helpers/temp-store.js";

const CHILD = join(import.meta.dirname, "../fixtures/postgres-slow-put.ts");

describe("a PostgreSQL writer killed mid-stream", () => {
  it("leaves nothing of the upload, keeps what it committed, and blocks nobody", async () => {
    const url = await (await postgresServer()).createDatabase();
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, url], {
      cwd: join(import.meta.dirname, "../.."),
      stdio: ["ignore", "pipe", "inherit"],
    });
    onCleanup(async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("streaming\n")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`child exited ${code}: ${out}`)));
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    onCleanup(() => client.end());
    // The upload is under way in an open transaction: invisible, as it must be.
    const visible = await client.query(
      "SELECT count(*)::int AS n FROM blob_chunks WHERE sha256 LIKE 'upload-%'",
    );
    expect(visible.rows[0].n).toBe(0);
    const writing = await client.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()",
    );
    expect(writing.rows[0].n).toBe(1); // the child's upload transaction
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    // PostgreSQL rolls the dead connection's transaction back once it notices.
    let open = 1;
    for (let i = 0; i < 100 && open > 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' OR (state = 'active' AND pid <> pg_backend_pid() AND query LIKE 'INSERT INTO blob_chunks%')",
      );
      open = rows[0].n;
    }
    expect(open).toBe(0);
    const committed = /committed (\S+)/.exec(out)![1]!;
    const store = await openPostgresOutputStore({ connectionString: url });
    onCleanup(() => store.close());
    const scope = { sessionId: "ses_crash" };
    expect((await readOutput(store, committed, scope, { mode: "raw" })).text).toBe(
      "committed before the crash\n",
    );
    expect((await store.list({ limit: 10 })).map((r) => r.id)).toEqual([committed]);
    const leftovers = await client.query(
      "SELECT (SELECT count(*) FROM blobs WHERE sha256 LIKE 'upload-%')::int AS uploads, (SELECT count(*) FROM blob_chunks)::int AS chunks",
    );
    expect(leftovers.rows[0]).toEqual({ uploads: 0, chunks: 1 }); // the committed output's
    const after = await store.put(
      { sessionId: "ses_crash", toolName: "t", toolArgs: "{}" },
      "x".repeat(9_000_000),
    );
    expect((await store.verify(after.id, scope)).ok).toBe(true);
  });
});

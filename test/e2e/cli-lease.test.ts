/**
 * `spillway run --resume` respects session leases: it does not continue a session another
 * process (a serve worker) is running, names that process, and stores nothing; once the lease is
 * gone it goes ahead.
 */
import { describe, expect, it } from "vitest";
import { openSqliteStores } from "../../src/store/sqlite-history-store.js";
import { ensureBuilt, runCli } from "../helpers/built-cli.js";
import { tempDir } from "../helpers/temp-store.js";

describe("spillway run --resume and leases", () => {
  it("refuses a session another process holds, naming it, and changes nothing", async () => {
    await ensureBuilt();
    const home = await tempDir();
    const cwd = await tempDir();
    const stores = await openSqliteStores({ home });
    await stores.history.createSession({
      id: "ses_leased",
      agentName: "a",
      prompt: "p",
      settings: {},
    });
    await stores.leases.acquire("ses_leased", "worker-x:4242", 60_000);
    const run = await runCli(["run", "--resume", "ses_leased", "go on"], { cwd, home });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("session ses_leased is running in another process (worker-x:4242");
    expect(await stores.history.messages("ses_leased")).toEqual([]);
    // The holder's lease is untouched: it still holds it.
    expect((await stores.leases.acquire("ses_leased", "worker-x:4242", 60_000)).acquired).toBe(
      true,
    );
    await stores.leases.release("ses_leased", "worker-x:4242");
    const after = await runCli(["run", "--resume", "ses_leased", "go on"], { cwd, home });
    // Free now: it gets past the lease (and stops later on, for want of a model or agent file).
    expect(after.stderr).not.toContain("running in another process");
    await stores.close();
  });
});

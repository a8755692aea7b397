// Waiting for running outputs: in one process, and across two PostgreSQL channels (a real
// server), where a settlement must wake the other worker's waiter at once, not at its next look.
import { describe, expect, it } from "vitest";
import { postgresServer } from "../../test/helpers/store-engines.js";
import { onCleanup } from "../../test/helpers/temp-store.js";
import { openPostgresChannel } from "../store/postgres-channel.js";
import { openPostgresPool } from "../store/postgres-database.js";
import { OutputSettlements } from "./output-settlements.js";

const fail = (error: unknown) => {
  throw error;
};

describe("OutputSettlements", () => {
  it("wakes this worker's waiters, times out otherwise, and stops on abort", async () => {
    const settlements = new OutputSettlements(undefined, fail);
    const started = Date.now();
    const woken = settlements.waitFor("out_a", 10_000, new AbortController().signal);
    setTimeout(() => settlements.settled("out_a"), 50);
    await woken;
    expect(Date.now() - started).toBeLessThan(5_000);
    const t = Date.now();
    await settlements.waitFor("out_b", 100, new AbortController().signal);
    expect(Date.now() - t).toBeGreaterThanOrEqual(90);
    const abort = new AbortController();
    const aborted = settlements.waitFor("out_c", 10_000, abort.signal);
    abort.abort();
    await aborted;
  });

  it("wakes a waiter on another worker as soon as the output settles there", async () => {
    const url = await (await postgresServer()).createDatabase();
    await (await openPostgresPool({ connectionString: url })).end(); // migrate
    const [a, b] = await Promise.all([
      openPostgresChannel({ connectionString: url }),
      openPostgresChannel({ connectionString: url }),
    ]);
    onCleanup(() => Promise.all([a.close(), b.close()]).then(() => {}));
    const onA = new OutputSettlements(a, fail);
    const onB = new OutputSettlements(b, fail);
    await Promise.all([a.ready(), b.ready()]);
    const started = Date.now();
    const woken = onB.waitFor("out_x", 10_000, new AbortController().signal);
    setTimeout(() => onA.settled("out_x"), 200);
    await woken;
    expect(Date.now() - started).toBeLessThan(5_000); // its timer says 10 s
    onA.close();
    onB.close();
  });
});

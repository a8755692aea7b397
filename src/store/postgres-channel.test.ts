// The LISTEN/NOTIFY channel against a real PostgreSQL server (test/helpers/postgres-server.ts).
import { describe, expect, it } from "vitest";
import { postgresServer } from "../../test/helpers/store-engines.js";
import { onCleanup } from "../../test/helpers/temp-store.js";
import { openPostgresChannel } from "./postgres-channel.js";
import { openPostgresPool } from "./postgres-database.js";

async function channels(n: number) {
  const url = await (await postgresServer()).createDatabase();
  await (await openPostgresPool({ connectionString: url })).end(); // migrate
  const opened = await Promise.all(
    Array.from({ length: n }, () => openPostgresChannel({ connectionString: url })),
  );
  onCleanup(() => Promise.all(opened.map((c) => c.close())).then(() => {}));
  return { url, channels: opened };
}

function collect(channel: {
  subscribe: (t: string, s: { onMessage(m: string): void }) => unknown;
}) {
  const got: string[] = [];
  channel.subscribe("events", { onMessage: (m) => got.push(m) });
  return got;
}

async function until(check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("PostgresChannel", () => {
  it("delivers to the other processes in publishing order, long messages included, never to the sender", async () => {
    const {
      channels: [a, b, c],
    } = await channels(3);
    const onB = collect(b!);
    const onC = collect(c!);
    const onA = collect(a!);
    await Promise.all([a!.ready(), b!.ready(), c!.ready()]);
    const sent = Array.from({ length: 200 }, (_, i) =>
      i % 50 === 7 ? `long ${i} ${"é".repeat(20_000)}` : `message ${i}`,
    );
    await Promise.all(sent.map((m) => a!.publish("events", m)));
    await until(() => onB.length === 200 && onC.length === 200);
    expect(onB).toEqual(sent);
    expect(onC).toEqual(sent);
    await new Promise((r) => setTimeout(r, 100));
    expect(onA).toEqual([]);
  });

  it("tells subscribers about a gap after its connection dropped, and keeps delivering", async () => {
    const {
      url,
      channels: [a, b],
    } = await channels(2);
    const got: string[] = [];
    let gaps = 0;
    b!.subscribe("events", { onMessage: (m) => got.push(m), onGap: () => gaps++ });
    await b!.ready();
    // Kill b's connection from the server side, as a failover or restart would.
    const pool = await openPostgresPool({ connectionString: url });
    onCleanup(() => pool.end());
    await pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    await until(() => gaps === 1);
    await a!.publish("events", "after the gap");
    await until(() => got.includes("after the gap"));
  });

  it("rejects a topic PostgreSQL could not name", () => {
    return channels(1).then(({ channels: [a] }) => {
      expect(() => a!.subscribe("Bad-Topic", { onMessage: () => {} })).toThrow(/lowercase/);
    });
  });
});

// What every engine must do is the contract in test/contract/output-store.contract.test.ts;
// this file keeps what is PostgreSQL's own: connection errors, migrations, chunk rows.
import { createHash } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { POSTGRES_ENGINE, postgresServer } from "../../test/helpers/store-engines.js";
import { onCleanup, origin, SCOPE } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { readOutput } from "../retrieval/read-output.js";
import { CHUNK_BYTES } from "./postgres-blobs.js";
import { POSTGRES_SCHEMA_VERSION } from "./postgres-database.js";
import { openPostgresOutputStore } from "./postgres-output-store.js";

async function sql(connectionString: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe("PostgresOutputStore", () => {
  it("names the argument at fault, and the server it cannot reach without its password", async () => {
    await expect(openPostgresOutputStore({ connectionString: "mysql://x" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("connectionString"),
    });
    const error = await openPostgresOutputStore({
      connectionString: "postgres://spillway:hunter2@127.0.0.1:1/nowhere",
    }).catch((e: unknown) => e);
    expect(isSpillwayError(error, "STORE_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain("postgres://spillway:***@127.0.0.1:1/nowhere");
    expect((error as Error).message).not.toContain("hunter2");
  });

  it("migrates once when several workers start together, and refuses a newer schema", async () => {
    const url = await (await postgresServer()).createDatabase();
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openPostgresOutputStore({ connectionString: url })),
    );
    for (const store of stores) onCleanup(() => store.close());
    const versions = await sql(url, "SELECT version FROM spillway_migrations ORDER BY version");
    expect(versions.map((r) => r.version)).toEqual(
      Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1),
    );
    await sql(url, "INSERT INTO spillway_migrations VALUES ($1, 0)", [POSTGRES_SCHEMA_VERSION + 1]);
    const error = await openPostgresOutputStore({ connectionString: url }).catch((e: unknown) => e);
    expect(isSpillwayError(error, "STORE_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toContain(`schema version ${POSTGRES_SCHEMA_VERSION + 1}`);
  });

  it("keeps a payload once, in fixed-size chunks, and reads a slice from the chunks it covers", async () => {
    const store = await POSTGRES_ENGINE.open();
    const text = "abcdefghij\n".repeat(100_000); // 1.1 MB: 5 chunks
    const a = await store.put(origin(), text);
    await store.put(origin("again__tool"), text);
    const url = (store as unknown as { options: { connectionString: string } }).options
      .connectionString;
    const chunks = await sql(
      url,
      "SELECT seq, length(data) AS bytes FROM blob_chunks WHERE sha256 = $1 ORDER BY seq",
      [a.sha256],
    );
    expect(chunks.map((c) => c.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(chunks.slice(0, 4).every((c) => c.bytes === CHUNK_BYTES)).toBe(true);
    expect(chunks[4].bytes).toBe(text.length - 4 * CHUNK_BYTES);
    const slice = await readOutput(store, a.id, SCOPE, {
      mode: "slice",
      start: CHUNK_BYTES - 5,
      length: 10,
    });
    expect(slice.found && slice.text).toBe(text.slice(CHUNK_BYTES - 5, CHUNK_BYTES + 5));
  });

  it("streams a payload larger than a batch while ingesting it: whole, deduplicated, and nothing left of a failed upload", async () => {
    const store = await POSTGRES_ENGINE.open({ maxOutputBytes: 16 * 1024 * 1024 });
    const url = (store as unknown as { options: { connectionString: string } }).options
      .connectionString;
    const line = (i: number) => `${String(i).padStart(8, "0")} streamed line\n`;
    async function* log(lines: number, failAt = -1) {
      let block = "";
      for (let i = 0; i < lines; i++) {
        if (i === failAt) throw new Error("the tool's stream broke");
        block += line(i);
        if (block.length > 500_000) {
          yield block;
          block = "";
        }
      }
      yield block;
    }
    const lines = 420_000; // 10.1 MB: three 4 MiB batches
    const text = Array.from({ length: lines }, (_, i) => line(i)).join("");
    const [a, b] = await Promise.all([
      store.put(origin(), log(lines)),
      store.put(origin(), log(lines)),
    ]);
    expect(a.sha256).toBe(b.sha256);
    expect(a.byteSize).toBe(text.length);
    expect(a.sha256).toBe(createHash("sha256").update(text).digest("hex"));
    expect((await store.verify(b.id, SCOPE)).ok).toBe(true); // the stored chunks hash to it
    const middle = await readOutput(store, a.id, SCOPE, {
      mode: "slice",
      start: 5_000_000,
      length: 100,
    });
    expect(middle.found && middle.text).toBe(text.slice(5_000_000, 5_000_100));
    const [chunks] = await sql(
      url,
      "SELECT count(*)::int AS n FROM blob_chunks WHERE sha256 = $1",
      [a.sha256],
    );
    expect(chunks.n).toBe(Math.ceil(text.length / CHUNK_BYTES));
    // More failures than the pool has connections: each upload's transaction is rolled back
    // and its connection returned (a leak would hang the next put).
    for (let i = 0; i < 12; i++) {
      const broken = await store.put(origin(), log(lines, 300_000)).catch((e: unknown) => e);
      expect((broken as Error).message).toContain("the tool's stream broke");
    }
    const tooLarge = await store.put(origin(), log(lines * 2)).catch((e: unknown) => e);
    expect(isSpillwayError(tooLarge, "OUTPUT_TOO_LARGE")).toBe(true);
    const left = await sql(url, "SELECT sha256 FROM blobs WHERE sha256 LIKE 'upload-%'");
    expect(left).toEqual([]);
    const [all] = await sql(url, "SELECT count(*)::int AS n FROM blob_chunks");
    expect(all.n).toBe(chunks.n);
    expect((await store.list()).length).toBe(2);
  });

  it("detects a changed or missing chunk", async () => {
    const store = await POSTGRES_ENGINE.open();
    const text = "0123456789\n".repeat(50_000);
    const record = await store.put(origin(), text);
    const url = (store as unknown as { options: { connectionString: string } }).options
      .connectionString;
    await sql(
      url,
      "UPDATE blob_chunks SET data = overlay(data placing 'X'::bytea from 1) WHERE seq = 1",
    );
    expect((await store.verify(record.id, SCOPE)).ok).toBe(false);
    await sql(url, "DELETE FROM blob_chunks WHERE seq = 2");
    const error = await store.verify(record.id, SCOPE).catch((e: unknown) => e);
    expect(isSpillwayError(error, "STORE_CORRUPT")).toBe(true);
    expect((error as Error).message).toContain("Chunk 2");
  });
  it("repairs a text output whose payload was first stored as binary by an older version", async () => {
    const store = await POSTGRES_ENGINE.open();
    const text = "first\nsecond\n".repeat(30_000);
    await store.put(origin("img"), Buffer.from(text), { binary: true });
    const asText = await store.put(origin(), Buffer.from(text));
    const url = (store as unknown as { options: { connectionString: string } }).options
      .connectionString;
    // What a store written before the fix holds: the text output's payload without an index.
    await sql(url, "UPDATE blobs SET line_index = $1 WHERE sha256 = $2", [
      Buffer.alloc(0),
      asText.sha256,
    ]);
    const fresh = await POSTGRES_ENGINE.reopen(store);
    const line = await readOutput(fresh, asText.id, SCOPE, {
      mode: "slice",
      lineStart: 40_000,
      lineEnd: 40_000,
    });
    expect(line.found && line.text).toBe("second\n");
    const [row] = await sql(
      url,
      "SELECT octet_length(line_index) AS n FROM blobs WHERE sha256 = $1",
      [asText.sha256],
    );
    expect(Number(row.n)).toBeGreaterThan(0);
  });
});

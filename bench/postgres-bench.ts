/**
 * PostgreSQL store benchmark: each figure next to SQLite's and, where one applies, the raw
 * PostgreSQL floor, all measured in the same run on the same machine.
 *
 *   npm run bench:postgres                     # 100 MB, a throwaway local server
 *   npm run bench:postgres -- --mb 20 --json   # smaller; last stdout line is one JSON object
 *   npm run bench:postgres -- --runs 5         # ingests per store (median; default 3)
 *   SPILLWAY_PG_URL=postgres://… npm run bench:postgres   # an existing (empty) database
 *
 * Targets (issue 16): a 4 KB slice p50 ≤ 10 ms; a 100 MB ingest ≤ 2× SQLite's.
 */
import { fork } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { readOutput } from "../src/retrieval/read-output.js";
import type { OutputStore } from "../src/store/output-store.js";
import { openPostgresOutputStore } from "../src/store/postgres-output-store.js";
import { openSqliteOutputStore } from "../src/store/sqlite-output-store.js";
import { startPostgres } from "../test/helpers/postgres-server.js";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const value = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SCOPE = { sessionId: "ses_bench" } as const;
const RARE = "RARE-LITERAL-7731";
/** Ingests per store (and raw floors), medians reported. */
const RUNS = Number(value("--runs") ?? 3);

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const log = (line: string) => process.stderr.write(`${line}\n`);

/** A log of `mb` megabytes with one rare line three quarters in (`salt` makes each run's bytes distinct). */
function* logChunks(mb: number, salt = ""): Generator<string> {
  if (salt) yield `run ${salt}\n`;
  const line = (i: number) =>
    `2026-11-24T10:${String(i % 60).padStart(2, "0")}:00Z INFO checkout: GET /api/cart/${i} 200 ${i % 300}ms\n`;
  const lines = Math.floor((mb * 1024 * 1024) / line(123456).length);
  let block = "";
  for (let i = 0; i < lines; i++) {
    block += i === Math.floor(lines * 0.75) ? `ERROR ${RARE} card processor timeout\n` : line(i);
    if (block.length >= 1 << 20) {
      yield block;
      block = "";
    }
  }
  if (block) yield block;
}

async function* stream(mb: number, salt: string) {
  for (const chunk of logChunks(mb, salt)) yield chunk;
}

/** RUNS ingests of distinct bytes (content addressing would skip a repeat): the median, the last record. */
async function ingest(store: OutputStore, mb: number) {
  const times: number[] = [];
  let record: Awaited<ReturnType<OutputStore["put"]>> | undefined;
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    record = await store.put(
      { sessionId: SCOPE.sessionId, toolName: "bench", toolArgs: "{}" },
      stream(mb, run === RUNS - 1 ? "" : `${run}`),
    );
    times.push(ms(start));
  }
  return { ms: median(times), all: times, record: record! };
}

async function sliceP50(store: OutputStore, id: string, size: number, count = 200) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    const at = Math.floor((((i * 7919) % 1000) / 1000) * (size - 4096));
    await readOutput(store, id, SCOPE, { mode: "slice", start: at, length: 4096 });
    times.push(ms(start));
  }
  return median(times);
}

async function grepMs(store: OutputStore, id: string) {
  const start = process.hrtime.bigint();
  const result = await readOutput(store, id, SCOPE, { mode: "grep", pattern: RARE });
  if (!("matches" in result) || result.matches.length !== 1)
    throw new Error("grep missed the rare line");
  return ms(start);
}

/**
 * The floor of an ingest: the same bytes, already in memory and cut, as 256 KiB rows in a bare
 * table, batched 16 a statement, compressed the way spillway's `blob_chunks` is (lz4 where the
 * server has it). spillway's ingest also reads the stream, hashes, indexes and estimates tokens.
 */
async function rawInsertMs(url: string, mb: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("DROP TABLE IF EXISTS floor_chunks");
  await client.query("CREATE TABLE floor_chunks (seq int PRIMARY KEY, data bytea)");
  const { rows } = await client.query<{ c: string }>(
    "SELECT attcompression AS c FROM pg_attribute WHERE attrelid = 'blob_chunks'::regclass AND attname = 'data'",
  );
  if (rows[0]?.c === "l")
    await client.query("ALTER TABLE floor_chunks ALTER COLUMN data SET COMPRESSION lz4");
  // The bytes are cut into chunks before the clock starts: the floor times PostgreSQL alone.
  const pieces: Buffer[] = [];
  let pending = Buffer.alloc(0);
  for (const chunk of logChunks(mb)) {
    pending = Buffer.concat([pending, Buffer.from(chunk)]);
    while (pending.byteLength >= 256 * 1024) {
      pieces.push(pending.subarray(0, 256 * 1024));
      pending = pending.subarray(256 * 1024);
    }
  }
  if (pending.byteLength) pieces.push(pending);
  const start = process.hrtime.bigint();
  await client.query("BEGIN");
  let seq = 0;
  for (let at = 0; at < pieces.length; at += 16) {
    const batch = pieces.slice(at, at + 16);
    const values = batch.map((_, i) => `($${i * 2 + 1}, $${i * 2 + 2})`).join(", ");
    await client.query(
      `INSERT INTO floor_chunks VALUES ${values}`,
      batch.flatMap((b) => [seq++, b]),
    );
  }
  await client.query("COMMIT");
  const took = ms(start);
  // Floor of a slice: one chunk row by primary key.
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const s = process.hrtime.bigint();
    await client.query("SELECT data FROM floor_chunks WHERE seq = $1", [(i * 31) % seq]);
    times.push(ms(s));
  }
  // Floor of a grep: every chunk row fetched in order (the transfer a scan cannot avoid).
  const scan = process.hrtime.bigint();
  await client.query("SELECT data FROM floor_chunks ORDER BY seq");
  const scanMs = ms(scan);
  await client.end();
  return { ingestMs: took, selectP50: median(times), scanMs };
}

/** Small reads for `seconds` in a child process (one worker): reads done. */
function worker(url: string, id: string, size: number, seconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = fork(
      new URL(import.meta.url).pathname,
      ["--worker", url, id, String(size), String(seconds)],
      {
        execArgv: ["--import", "tsx"],
      },
    );
    child.on("message", (reads) => resolve(reads as number));
    child.on("error", reject);
  });
}

async function runWorker() {
  const [, url, id, size, seconds] = args;
  const store = await openPostgresOutputStore({ connectionString: url!, maxConnections: 4 });
  const until = Date.now() + Number(seconds) * 1000;
  let reads = 0;
  while (Date.now() < until) {
    const at = Math.floor(Math.random() * (Number(size) - 4096));
    await readOutput(store, id!, SCOPE, { mode: "slice", start: at, length: 4096 });
    reads++;
  }
  await store.close();
  process.send!(reads);
}

async function main() {
  const mb = Number(value("--mb") ?? 100);
  const server = process.env.SPILLWAY_PG_URL ? undefined : await startPostgres({ durable: true });
  const url = process.env.SPILLWAY_PG_URL ?? (await server!.createDatabase());
  const home = await mkdtemp(join(tmpdir(), "spillway-bench-sqlite-"));
  try {
    log(`ingesting ${mb} MB into SQLite…`);
    const sqlite = await openSqliteOutputStore({ home });
    const sqliteIngest = await ingest(sqlite, mb);
    log(`ingesting ${mb} MB into PostgreSQL…`);
    const postgres = await openPostgresOutputStore({ connectionString: url });
    const pgIngest = await ingest(postgres, mb);
    const size = pgIngest.record.byteSize!;
    log("raw PostgreSQL floor…");
    const floors = [];
    for (let run = 0; run < RUNS; run++) floors.push(await rawInsertMs(url, mb));
    const floor = {
      ingestMs: median(floors.map((x) => x.ingestMs)),
      selectP50: median(floors.map((x) => x.selectP50)),
      scanMs: median(floors.map((x) => x.scanMs)),
    };
    log("slices and grep…");
    const sqliteSlice = await sliceP50(sqlite, sqliteIngest.record.id, size);
    const pgSlice = await sliceP50(postgres, pgIngest.record.id, size);
    const sqliteGrep = await grepMs(sqlite, sqliteIngest.record.id);
    const pgGrep = await grepMs(postgres, pgIngest.record.id);
    log("one worker, then two workers, reading 4 KB slices for 5 s…");
    const one = await worker(url, pgIngest.record.id, size, 5);
    const two = (
      await Promise.all([1, 2].map(() => worker(url, pgIngest.record.id, size, 5)))
    ).reduce((a, b) => a + b, 0);
    await sqlite.close();
    await postgres.close();
    const result = {
      source:
        "this machine (2 cores), a local PostgreSQL 15 server started by the benchmark (fsync on), SQLite synchronous=FULL",
      mb,
      ingestMs: {
        sqlite: sqliteIngest.ms,
        postgres: pgIngest.ms,
        postgresRawInsertFloor: floor.ingestMs,
      },
      ingestRuns: {
        sqlite: sqliteIngest.all,
        postgres: pgIngest.all,
        floor: floors.map((x) => x.ingestMs),
      },
      ingestRatioToSqlite: pgIngest.ms / sqliteIngest.ms,
      slice4kP50Ms: {
        sqlite: sqliteSlice,
        postgres: pgSlice,
        postgresChunkSelectFloor: floor.selectP50,
      },
      grepRareMs: { sqlite: sqliteGrep, postgres: pgGrep, postgresFetchAllFloor: floor.scanMs },
      smallReadsPerSecond: { oneWorker: one / 5, twoWorkers: two / 5 },
      targets: { slice4kP50Ms: 10, ingestRatioToSqlite: 2 },
    };
    const f = (x: number) => x.toFixed(1);
    console.log(`PostgreSQL store, ${mb} MB log (${result.source})`);
    console.log(
      `ingest (median of ${RUNS}) SQLite ${f(sqliteIngest.ms)} ms · PostgreSQL ${f(pgIngest.ms)} ms (${result.ingestRatioToSqlite.toFixed(2)}x SQLite; target ≤ 2x) · raw INSERT floor ${f(floor.ingestMs)} ms`,
    );
    console.log(
      `4 KB slice p50  SQLite ${sqliteSlice.toFixed(2)} ms · PostgreSQL ${pgSlice.toFixed(2)} ms (target ≤ 10 ms) · one-chunk SELECT floor ${floor.selectP50.toFixed(2)} ms`,
    );
    console.log(
      `grep rare       SQLite ${f(sqliteGrep)} ms · PostgreSQL ${f(pgGrep)} ms · fetch-every-chunk floor ${f(floor.scanMs)} ms`,
    );
    console.log(
      `small reads/s   one worker ${f(one / 5)} · two workers ${f(two / 5)} (${(two / Math.max(1, one)).toFixed(2)}x)`,
    );
    if (flag("--json")) console.log(JSON.stringify(result));
  } finally {
    await rm(home, { recursive: true, force: true });
    await server?.stop();
  }
}

if (args[0] === "--worker") await runWorker();
else await main();

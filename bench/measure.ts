/** The measurements: ingest, slice, grep, page, exact token counts and the peak-RSS child. */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Rng, seedOf } from "../src/core/rng.js";
import {
  countTokens,
  grepOutput,
  readOutput,
  readPage,
  readSlice,
} from "../src/retrieval/index.js";
import { type OutputRecord, openSqliteOutputStore } from "../src/store/index.js";
import type { SqliteOutputStore } from "../src/store/sqlite-output-store.js";
import { type Fixture, locateNeedle, NEEDLE, PROJECT_ROOT } from "./fixtures.js";
import { median, percentile } from "./report.js";

export const SESSION = "ses_bench";
export const SCOPE = { sessionId: SESSION } as const;

setFlagsFromString("--expose-gc");
/** Forces a full garbage collection between timed runs. */
export const forceGc = runInNewContext("gc") as () => void;

export function origin(label: string) {
  return { sessionId: SESSION, toolName: "bench__read", toolArgs: JSON.stringify({ label }) };
}

/** A store in a fresh directory under `root`. */
export async function freshStore(
  root: string,
): Promise<{ store: SqliteOutputStore; home: string }> {
  const home = await mkdtemp(join(root, "store-"));
  return { store: await openSqliteOutputStore({ home }), home };
}

export async function dropStore(kept: { store: SqliteOutputStore; home: string }): Promise<void> {
  await kept.store.close();
  await rm(kept.home, { recursive: true, force: true });
}

export interface IngestResult {
  readonly putMs: number;
  readonly floorMs: number;
  readonly putRuns: number[];
  readonly floorRuns: number[];
  readonly record: OutputRecord;
  /** The store of the last repeat, holding the output (the caller drops it). */
  readonly kept: { store: SqliteOutputStore; home: string };
}

/**
 * put() of the string vs writeFile + fsync of the same string in the store's directory.
 * Every repeat uses a new store, so blob deduplication never skips the write; put and floor
 * alternate which goes first.
 */
export async function measureIngest(
  text: string,
  root: string,
  repeats: number,
): Promise<IngestResult> {
  const putRuns: number[] = [];
  const floorRuns: number[] = [];
  let record: OutputRecord | undefined;
  let kept: { store: SqliteOutputStore; home: string } | undefined;
  for (let r = 0; r < repeats; r++) {
    if (kept) await dropStore(kept);
    kept = await freshStore(root);
    const { store, home } = kept;
    const put = async () => {
      forceGc();
      const started = performance.now();
      record = await store.put(origin(`repeat-${r}`), text);
      putRuns.push(performance.now() - started);
    };
    const floor = async () => {
      const path = join(home, "floor.bin");
      forceGc();
      const started = performance.now();
      await writeFile(path, text);
      const handle = await open(path, "r+");
      await handle.sync();
      await handle.close();
      floorRuns.push(performance.now() - started);
      await rm(path);
    };
    if (r % 2 === 0) {
      await put();
      await floor();
    } else {
      await floor();
      await put();
    }
  }
  return {
    putMs: median(putRuns),
    floorMs: median(floorRuns),
    putRuns,
    floorRuns,
    record: record!,
    kept: kept!,
  };
}

export interface SliceResult {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  readonly count: number;
  readonly widened: number;
  readonly mismatches: number;
}

/** 4096-character slices at seeded random offsets, each checked against the original. */
export async function measureSlice(
  store: SqliteOutputStore,
  record: OutputRecord,
  text: string,
  count: number,
): Promise<SliceResult> {
  const opened = await store.open(record.id, SCOPE);
  const rng = new Rng(seedOf(`slice/${record.charCount}`));
  const total = record.charCount ?? 0;
  const times: number[] = [];
  let widened = 0;
  let mismatches = 0;
  try {
    for (let i = 0; i < count; i++) {
      const start = rng.int(Math.max(1, total - 4096 + 1));
      const started = performance.now();
      const slice = await readSlice(opened, { start, length: 4096 });
      times.push(performance.now() - started);
      if (!slice.found || slice.encoding !== "utf-8") {
        mismatches++;
        continue;
      }
      const { charStart, charEnd } = slice.provenance;
      const end = Math.min(total, start + 4096);
      if (charStart !== start || charEnd !== end) widened++;
      const boundsOk =
        (charStart === start || charStart === start - 1) &&
        (charEnd === end || charEnd === end + 1);
      if (!boundsOk || slice.text !== text.slice(charStart, charEnd)) mismatches++;
    }
  } finally {
    await opened.close();
  }
  return {
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    maxMs: Math.max(...times),
    count,
    widened,
    mismatches,
  };
}

export interface GrepResult {
  readonly grepMs: number;
  readonly grepOpenedMs: number;
  readonly floorMs: number;
  readonly grepRuns: number[];
  readonly floorRuns: number[];
  readonly expectedLine: number;
  readonly foundLines: number[];
  readonly ok: boolean;
}

/**
 * Literal grep for the needle (readOutput: open, grep, count the read, close; and grepOutput
 * on an already opened output) vs readFile of the same bytes + indexOf over all occurrences.
 */
export async function measureGrep(
  store: SqliteOutputStore,
  record: OutputRecord,
  fixture: Fixture,
  repeats: number,
): Promise<GrepResult> {
  const expected = locateNeedle(await readFile(fixture.path));
  const needle = Buffer.from(NEEDLE);
  const grepRuns: number[] = [];
  const openedRuns: number[] = [];
  const floorRuns: number[] = [];
  let foundLines: number[] = [];
  let ok = expected.count === 1;
  for (let r = 0; r < repeats; r++) {
    forceGc();
    let started = performance.now();
    const result = await readOutput(store, record.id, SCOPE, { mode: "grep", pattern: NEEDLE });
    grepRuns.push(performance.now() - started);
    foundLines = result.matches.map((m) => m.line);
    ok &&=
      result.matches.length === 1 &&
      result.totalMatches === 1 &&
      result.matches[0]!.line === expected.line &&
      result.matches[0]!.matchByteStart === expected.byte &&
      result.matches[0]!.match === NEEDLE;

    const opened = await store.open(record.id, SCOPE);
    forceGc();
    started = performance.now();
    const again = await grepOutput(opened, { pattern: NEEDLE });
    openedRuns.push(performance.now() - started);
    await opened.close();
    ok &&= again.matches.length === 1 && again.matches[0]!.line === expected.line;

    forceGc();
    started = performance.now();
    const bytes = await readFile(fixture.path);
    let hits = 0;
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + needle.length))
      hits++;
    floorRuns.push(performance.now() - started);
    ok &&= hits === 1 && bytes.byteLength === record.byteSize;
  }
  return {
    grepMs: median(grepRuns),
    grepOpenedMs: median(openedRuns),
    floorMs: median(floorRuns),
    grepRuns,
    floorRuns,
    expectedLine: expected.line,
    foundLines,
    ok,
  };
}

export interface PageResult {
  readonly pages: number;
  readonly readMs: number;
  readonly mbPerSec: number;
  readonly ok: boolean;
  readonly detail: string;
}

/** Pages through the whole output (64K characters a page) and checks the SHA-256 of it all. */
export async function measurePage(
  store: SqliteOutputStore,
  record: OutputRecord,
): Promise<PageResult> {
  const opened = await store.open(record.id, SCOPE);
  const hash = createHash("sha256");
  let cursor: number | null = 0;
  let pages = 0;
  let chars = 0;
  let readMs = 0;
  let detail = "";
  try {
    while (cursor !== null) {
      const started = performance.now();
      const page = await readPage(opened, { cursor, maxChars: 65_536 });
      readMs += performance.now() - started;
      if (page.encoding !== "utf-8" || page.provenance.charStart !== cursor) {
        detail = `page ${pages} starts at ${page.cursor}, expected ${cursor}`;
        break;
      }
      hash.update(page.text, "utf8");
      chars += page.text.length;
      pages++;
      if (page.nextCursor !== null && page.nextCursor <= cursor) {
        detail = `cursor did not advance at ${cursor}`;
        break;
      }
      cursor = page.nextCursor;
    }
  } finally {
    await opened.close();
  }
  const digest = hash.digest("hex");
  const ok = detail === "" && chars === record.charCount && digest === record.sha256;
  if (!ok && detail === "") detail = `chars ${chars}/${record.charCount}, sha256 ${digest}`;
  const mb = (record.byteSize ?? 0) / (1024 * 1024);
  return { pages, readMs, mbPerSec: mb / (readMs / 1000), ok, detail };
}

/** Exact tokens of a large text, counted in pieces of up to `pieceChars` cut at line ends. */
export async function exactTokens(text: string, pieceChars = 1024 * 1024): Promise<number> {
  let total = 0;
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + pieceChars);
    if (end < text.length) {
      const floor = at + pieceChars / 2;
      const cut = Math.max(text.lastIndexOf("\n", end - 1), text.lastIndexOf(",", end - 1));
      if (cut >= floor) end = cut + 1;
      const code = text.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end--;
    }
    total += await countTokens(text.slice(at, end));
    at = end;
  }
  return total;
}

export interface RssResult {
  readonly payloadBytes: number;
  /** RSS after start-up and a small warm-up put, before the fixture is read. */
  readonly warmRssBytes: number;
  /** RSS with the fixture string in memory, just before put() (the peak counter's start). */
  readonly baselineRssBytes: number;
  readonly peakRssBytes: number;
  readonly method: "clear_refs+VmHWM" | "maxRSS";
  readonly ingestMs: number;
}

/** Runs bench/rss-child.ts in a fresh process (with --expose-gc) on one fixture. */
export function measureRss(fixture: Fixture, root: string): Promise<RssResult> {
  const script = join(PROJECT_ROOT, "bench", "rss-child.ts");
  const args = ["--expose-gc", "--import", "tsx", script, fixture.path, root];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      if (code !== 0) reject(new Error(`rss child exited with ${code}: ${out}`));
      else resolve(JSON.parse(last) as RssResult);
    });
  });
}

/**
 * Store benchmark: ingest, slice, grep (with and without records), search, page, peak RSS
 * and token-estimate accuracy, each next to its floor measured in the same run.
 *
 *   npm run bench:store                       # 1, 10 and 100 MB
 *   npm run bench:store -- --quick            # 1 and 10 MB (headline figures at 10 MB)
 *   npm run bench:store -- --sizes 1,10 --json
 *
 * Tables go to stdout, progress to stderr; with --json the last stdout line is one JSON object.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ensureFixture,
  FIXTURE_KINDS,
  type Fixture,
  type FixtureKind,
  readFixtureText,
} from "./fixtures.js";
import { type HandleRow, handleTable, measureHandle } from "./handle-measure.js";
import {
  dropStore,
  exactTokens,
  forceGc,
  freshStore,
  measureGrep,
  measureIngest,
  measurePage,
  measureRss,
  measureSlice,
  origin,
} from "./measure.js";
import {
  type GrepRow,
  grepTable,
  type Headline,
  type IngestRow,
  ingestTable,
  type PageRow,
  pageTable,
  type RssRow,
  rssTable,
  type SearchRow,
  type SliceRow,
  searchTable,
  sliceTable,
  summaryTable,
  TARGETS,
  type TokenRow,
  tokenTable,
} from "./print.js";
import { measureRecords, type RecordsRow, recordsTable } from "./records-measure.js";
import { worst } from "./report.js";
import { measureSearch } from "./search-measure.js";

const SLICE_KINDS: readonly FixtureKind[] = ["log", "cjk"];
const TOKEN_SIZES = [1, 10];
const INGEST_REPEATS = 3;
const GREP_REPEATS = 3;
const SLICE_COUNT = 200;

interface Options {
  readonly json: boolean;
  readonly quick: boolean;
  readonly sizes: number[];
}

function parseOptions(argv: readonly string[]): Options {
  let json = false;
  let quick = false;
  let sizes: number[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") json = true;
    else if (arg === "--quick") quick = true;
    else if (arg === "--sizes" || arg.startsWith("--sizes=")) {
      const value = arg === "--sizes" ? argv[++i] : arg.slice("--sizes=".length);
      sizes = (value ?? "").split(",").map((s) => Number(s.trim()));
      if (sizes.length === 0 || sizes.some((s) => !Number.isInteger(s) || s < 1)) {
        throw new Error(`--sizes wants whole MB figures like 1,10,100; got ${value}`);
      }
    } else throw new Error(`unknown argument ${arg} (use --json, --quick, --sizes 1,10,100)`);
  }
  const chosen = sizes ?? (quick ? [1, 10] : [1, 10, 100]);
  return { json, quick, sizes: [...new Set(chosen)].sort((a, b) => a - b) };
}

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const pctError = (value: number, exact: number) => ((value - exact) / exact) * 100;

interface Results {
  ingest: IngestRow[];
  slice: SliceRow[];
  grep: GrepRow[];
  search: SearchRow[];
  page: PageRow[];
  rss: RssRow[];
  tokens: TokenRow[];
  records: RecordsRow[];
  handle: HandleRow[];
}

/** Every measurement of one fixture that needs it in memory or in a store. */
async function benchFixture(fixture: Fixture, root: string, results: Results): Promise<void> {
  const { kind, mb } = fixture;
  const text = await readFixtureText(fixture.path);
  progress(`${kind} ${mb} MB: ingest x${INGEST_REPEATS}`);
  const ingest = await measureIngest(text, root, INGEST_REPEATS);
  const { record, kept } = ingest;
  try {
    if (record.byteSize !== fixture.bytes) {
      throw new Error(`${kind} ${mb} MB: stored ${record.byteSize} bytes of ${fixture.bytes}`);
    }
    results.ingest.push({
      kind,
      mb,
      putMs: ingest.putMs,
      floorMs: ingest.floorMs,
      ratio: ingest.putMs / ingest.floorMs,
      putRuns: ingest.putRuns,
      floorRuns: ingest.floorRuns,
    });
    if (SLICE_KINDS.includes(kind)) {
      progress(`${kind} ${mb} MB: ${SLICE_COUNT} slices`);
      results.slice.push({
        kind,
        mb,
        ...(await measureSlice(kept.store, record, text, SLICE_COUNT)),
      });
    }
    progress(`${kind} ${mb} MB: grep x${GREP_REPEATS}`);
    const grep = await measureGrep(kept.store, record, fixture, GREP_REPEATS);
    results.grep.push({ kind, mb, ...grep, ratio: grep.grepMs / grep.floorMs });
    progress(`${kind} ${mb} MB: search x${GREP_REPEATS}`);
    results.search.push({
      kind,
      mb,
      ...(await measureSearch(kept.store, record, fixture, GREP_REPEATS)),
    });
    progress(`${kind} ${mb} MB: grep with records x${GREP_REPEATS}`);
    results.records.push(...(await measureRecords(kept.store, record, kind, mb, GREP_REPEATS)));
    progress(`${kind} ${mb} MB: handle message x${GREP_REPEATS}`);
    results.handle.push(...(await measureHandle(kept.store, record, kind, mb, GREP_REPEATS)));
    progress(`${kind} ${mb} MB: page through`);
    results.page.push({ kind, mb, ...(await measurePage(kept.store, record)) });
    if (TOKEN_SIZES.includes(mb)) results.tokens.push(await tokenRow(fixture, text, record));
  } finally {
    await dropStore(kept);
  }
}

async function tokenRow(
  fixture: Fixture,
  text: string,
  record: { tokenEstimate: number | null; tokenMethod: string | null; charCount: number | null },
): Promise<TokenRow> {
  progress(`${fixture.kind} ${fixture.mb} MB: exact token count`);
  const exact = await exactTokens(text);
  const estimate = record.tokenEstimate ?? 0;
  const charsOver4 = Math.round((record.charCount ?? 0) / 4);
  return {
    kind: fixture.kind,
    mb: fixture.mb,
    exact,
    estimate,
    method: record.tokenMethod ?? "?",
    charsOver4,
    estimateErrorPct: pctError(estimate, exact),
    charsOver4ErrorPct: pctError(charsOver4, exact),
  };
}

/** The source-code fixture is only used for the token table. */
async function benchCodeTokens(root: string, results: Results): Promise<void> {
  const fixture = await ensureFixture("code", 1);
  const text = await readFixtureText(fixture.path);
  const kept = await freshStore(root);
  try {
    const record = await kept.store.put(origin("code"), text);
    results.tokens.push(await tokenRow(fixture, text, record));
  } finally {
    await dropStore(kept);
  }
}

function headlineOf(results: Results, mb: number): Headline {
  const at = <T extends { mb: number }>(rows: readonly T[]) => rows.filter((r) => r.mb === mb);
  const sliceRows = at(results.slice);
  const grepRows = at(results.grep);
  const searchRows = at(results.search).filter((r) => r.kind === "log");
  return {
    mb,
    ingestRatio: worst(at(results.ingest).map((r) => r.ratio)),
    sliceP50Ms: sliceRows.some((r) => r.mismatches > 0)
      ? Number.POSITIVE_INFINITY
      : worst(sliceRows.map((r) => r.p50Ms)),
    grepRatio: grepRows.some((r) => !r.ok)
      ? Number.POSITIVE_INFINITY
      : worst(grepRows.map((r) => r.ratio)),
    searchRatio: searchRows.some((r) => !r.ok)
      ? Number.POSITIVE_INFINITY
      : worst(searchRows.map((r) => r.ratio)),
    pageOk: results.page.length === 0 ? null : results.page.every((r) => r.ok),
    peakRssRatio: worst(at(results.rss).map((r) => r.ratio)),
    tokenErrorPct: worst(results.tokens.map((r) => Math.abs(r.estimateErrorPct))),
    charsOver4ErrorPct: worst(results.tokens.map((r) => Math.abs(r.charsOver4ErrorPct))),
  };
}

/** The 100 MB log's search figure next to its floors, for the JSON line. */
function searchFloors(results: Results): object {
  const log = results.search.find((r) => r.kind === "log" && r.mb === 100);
  if (!log) return {};
  return {
    search100mbLogMs: log.searchMs,
    literalGrep100mbLogMs: log.grepMs,
    gnuGrep100mbLogMs: log.gnuGrepMs,
    gnuGrepWords100mbLogMs: log.gnuGrepWordsMs,
    searchCommonWord100mbLogMs: log.commonSearchMs,
  };
}

function jsonSummary(options: Options, h: Headline, results: Results, totalMs: number): object {
  const finite = (v: number | null) => (v === null || Number.isFinite(v) ? v : null);
  const named = (key: string, value: number | null) => ({ [key.replace("@", `${h.mb}mb`)]: value });
  const is100 = h.mb === 100;
  return {
    sizesMb: options.sizes,
    quick: options.quick,
    headlineMb: h.mb,
    ingest100mbRatio: is100 ? h.ingestRatio : null,
    slice100mbP50Ms: is100 ? finite(h.sliceP50Ms) : null,
    grep100mbRatio: is100 ? finite(h.grepRatio) : null,
    search100mbLogRatio: is100 ? finite(h.searchRatio) : null,
    ...(is100 ? searchFloors(results) : {}),
    pageReconstructOk: h.pageOk,
    peakRssRatio100mb: is100 ? h.peakRssRatio : null,
    ...(is100
      ? {}
      : {
          ...named("ingest@Ratio", h.ingestRatio),
          ...named("slice@P50Ms", finite(h.sliceP50Ms)),
          ...named("grep@Ratio", finite(h.grepRatio)),
          ...named("search@LogRatio", finite(h.searchRatio)),
          ...named("peakRssRatio@", h.peakRssRatio),
        }),
    sliceContentOk: results.slice.every((r) => r.mismatches === 0),
    grepFoundOk: results.grep.every((r) => r.ok),
    searchFoundOk: results.search.every((r) => r.ok),
    tokenEstimateMaxErrorPct: h.tokenErrorPct,
    charsOver4MaxErrorPct: h.charsOver4ErrorPct,
    targets: TARGETS,
    totalSeconds: Math.round(totalMs / 100) / 10,
    ingest: results.ingest,
    slice: results.slice,
    grep: results.grep,
    search: results.search,
    page: results.page,
    peakRss: results.rss,
    tokens: results.tokens,
    recordsOk: results.records.every((r) => r.ok),
    // Grep with records over plain grep, at the headline size: one match, and 50.
    recordsNeedleRatio: worst(
      results.records.filter((r) => r.mb === h.mb && r.matches === 1).map((r) => r.ratio),
    ),
    records50MatchesRatio: worst(
      results.records.filter((r) => r.mb === h.mb && r.matches > 1).map((r) => r.ratio),
    ),
    records: results.records,
    handleOk: results.handle.every((r) => r.ok),
    // The handle message over one search for the task, at the headline size.
    handleRatio: worst(results.handle.filter((r) => r.mb === h.mb).map((r) => r.ratio)),
    handle: results.handle,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const headline = options.sizes[options.sizes.length - 1]!;
  const fixtures: Fixture[] = [];
  for (const mb of options.sizes) {
    for (const kind of FIXTURE_KINDS) {
      const fixture = await ensureFixture(kind, mb);
      if (fixture.generated) {
        progress(`generated ${kind} ${mb} MB in ${fixture.generateMs.toFixed(0)} ms`);
      }
      fixtures.push(fixture);
    }
  }
  const root = await mkdtemp(join(tmpdir(), "spillway-bench-"));
  const results: Results = {
    ingest: [],
    slice: [],
    grep: [],
    search: [],
    page: [],
    rss: [],
    tokens: [],
    records: [],
    handle: [],
  };
  try {
    // Warm-up: loads the tokenizer tables and compiles the ingest path before any timing.
    const warm = await freshStore(root);
    await warm.store.put(origin("warm-up"), "2026-01-01T00:00:00Z INFO warm up\n".repeat(50_000));
    await dropStore(warm);
    for (const fixture of fixtures) {
      await benchFixture(fixture, root, results);
      forceGc();
    }
    await benchCodeTokens(root, results);
    for (const fixture of fixtures.filter((f) => f.mb === headline)) {
      progress(`${fixture.kind} ${fixture.mb} MB: peak RSS (child process)`);
      const rss = await measureRss(fixture, root);
      results.rss.push({
        kind: fixture.kind,
        mb: fixture.mb,
        ...rss,
        ratio: rss.peakRssBytes / rss.payloadBytes,
      });
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const totalMs = performance.now() - started;
  const h = headlineOf(results, headline);
  const out = [
    ingestTable(results.ingest, headline),
    sliceTable(results.slice, headline),
    grepTable(results.grep, headline),
    searchTable(results.search, headline),
    recordsTable(results.records),
    handleTable(results.handle),
    pageTable(results.page),
    rssTable(results.rss, headline),
    tokenTable(results.tokens),
    summaryTable(h),
    `(1 MB = 2^20 bytes; headline figures at ${headline} MB; ran ${(totalMs / 1000).toFixed(0)} s)`,
  ];
  if (results.rss.some((r) => r.method !== "clear_refs+VmHWM")) {
    out.push("note: /proc/self/clear_refs was not writable; peak RSS is the process maxRSS.");
  }
  process.stdout.write(`${out.join("\n\n")}\n`);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(jsonSummary(options, h, results, totalMs))}\n`);
  }
}

await main();

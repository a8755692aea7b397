/** Result rows of each measurement and their tables. */
import type { FixtureKind } from "./fixtures.js";
import type { GrepResult, PageResult, RssResult, SliceResult } from "./measure.js";
import { fixed, ms, signedPct, table, verdict } from "./report.js";
import type { SearchMeasure } from "./search-measure.js";

export const TARGETS = {
  ingestRatio: 1.5,
  sliceP50Ms: 5,
  grepRatio: 1.5,
  searchRatio: 2,
  peakRssRatio: 3,
} as const;

interface Row {
  readonly kind: FixtureKind;
  readonly mb: number;
}

export interface IngestRow extends Row {
  readonly putMs: number;
  readonly floorMs: number;
  readonly ratio: number;
  readonly putRuns: number[];
  readonly floorRuns: number[];
}
export type SliceRow = Row & SliceResult;
export type GrepRow = Row & GrepResult & { readonly ratio: number };
export type SearchRow = Row & SearchMeasure;
export type PageRow = Row & PageResult;
export type RssRow = Row & RssResult & { readonly ratio: number };
export interface TokenRow extends Row {
  readonly exact: number;
  readonly estimate: number;
  readonly method: string;
  readonly charsOver4: number;
  readonly estimateErrorPct: number;
  readonly charsOver4ErrorPct: number;
}

const size = (mb: number) => `${mb} MB`;
const mbps = (mb: number, msTaken: number) => `${(mb / (msTaken / 1000)).toFixed(0)} MB/s`;

/** The verdict for headline-size rows; "-" for the others (the targets are for the largest). */
function judged(row: Row, headline: number, value: number | null, limit: number): string {
  return row.mb === headline ? verdict(value, limit) : "-";
}

export function ingestTable(rows: readonly IngestRow[], headline: number): string {
  return table(
    `INGEST  store.put(string) vs writeFile + fsync (median of ${rows[0]?.putRuns.length ?? 0})`,
    ["kind", "size", "put", "put rate", "floor", "floor rate", "ratio", "target", "result"],
    rows.map((r) => [
      r.kind,
      size(r.mb),
      `${ms(r.putMs)} ms`,
      mbps(r.mb, r.putMs),
      `${ms(r.floorMs)} ms`,
      mbps(r.mb, r.floorMs),
      `${r.ratio.toFixed(2)}x`,
      `<= ${TARGETS.ingestRatio}`,
      judged(r, headline, r.ratio, TARGETS.ingestRatio),
    ]),
  );
}

export function sliceTable(rows: readonly SliceRow[], headline: number): string {
  return table(
    "SLICE  readSlice(opened, {start, length: 4096}) at seeded random offsets",
    ["kind", "size", "slices", "p50", "p95", "max", "widened", "wrong", "target p50", "result"],
    rows.map((r) => [
      r.kind,
      size(r.mb),
      String(r.count),
      `${ms(r.p50Ms)} ms`,
      `${ms(r.p95Ms)} ms`,
      `${ms(r.maxMs)} ms`,
      String(r.widened),
      String(r.mismatches),
      `<= ${TARGETS.sliceP50Ms} ms`,
      r.mismatches > 0 ? "FAIL (content)" : judged(r, headline, r.p50Ms, TARGETS.sliceP50Ms),
    ]),
  );
}

export function grepTable(rows: readonly GrepRow[], headline: number): string {
  return table(
    `GREP  literal needle: readOutput(grep) vs readFile + Buffer.indexOf (median of ${rows[0]?.grepRuns.length ?? 0})`,
    ["kind", "size", "readOutput", "on opened", "floor", "ratio", "line", "found", "target"],
    rows.map((r) => [
      r.kind,
      size(r.mb),
      `${ms(r.grepMs)} ms`,
      `${ms(r.grepOpenedMs)} ms`,
      `${ms(r.floorMs)} ms`,
      `${r.ratio.toFixed(2)}x`,
      String(r.expectedLine),
      r.ok ? `ok (line ${r.foundLines.join(",")})` : `WRONG (lines ${r.foundLines.join(",")})`,
      `<= ${TARGETS.grepRatio} ${r.ok ? judged(r, headline, r.ratio, TARGETS.grepRatio) : "FAIL"}`,
    ]),
  );
}

export function searchTable(rows: readonly SearchRow[], headline: number): string {
  const first = rows[0];
  return table(
    `SEARCH  readOutput(search, ${JSON.stringify(first?.query ?? "")}) vs readOutput(grep) of the literal needle ` +
      `and GNU grep on the file (median of ${first?.searchRuns.length ?? 0}; GNU grep includes its process start)`,
    [
      "kind",
      "size",
      "search",
      "literal grep",
      "ratio",
      "GNU grep -F",
      "GNU grep -i words",
      "+ common word",
      "lines",
      "found",
      "target",
    ],
    rows.map((r) => [
      r.kind,
      size(r.mb),
      `${ms(r.searchMs)} ms`,
      `${ms(r.grepMs)} ms`,
      `${r.ratio.toFixed(2)}x`,
      `${ms(r.gnuGrepMs)} ms`,
      `${ms(r.gnuGrepWordsMs)} ms`,
      `${ms(r.commonSearchMs)} ms`,
      String(r.commonMatchingLines),
      r.ok ? `ok (line ${r.foundLine})` : `WRONG (line ${r.foundLine}, want ${r.expectedLine})`,
      `<= ${TARGETS.searchRatio} ${r.ok ? judged(r, headline, r.ratio, TARGETS.searchRatio) : "FAIL"}`,
    ]),
  );
}

export function pageTable(rows: readonly PageRow[]): string {
  return table(
    "PAGE  readPage({cursor, maxChars: 65536}) from 0 until nextCursor is null",
    ["kind", "size", "pages", "read time", "rate", "sha256 of pages = record"],
    rows.map((r) => [
      r.kind,
      size(r.mb),
      String(r.pages),
      `${ms(r.readMs)} ms`,
      `${r.mbPerSec.toFixed(0)} MB/s`,
      r.ok ? "yes" : `NO: ${r.detail}`,
    ]),
  );
}

export function rssTable(rows: readonly RssRow[], headline: number): string {
  const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(0)} MB`;
  return table(
    "PEAK RSS  one put() of a flat string in a child process (VmHWM after clear_refs)\n" +
      "  start-up = node + tsx + store + tokenizer; +string = with the payload string in memory",
    [
      "kind",
      "size",
      "start-up",
      "+string",
      "peak",
      "put adds",
      "peak/payload",
      "put",
      "target",
      "result",
    ],
    rows.map((r) => [
      r.kind,
      size(r.mb),
      mib(r.warmRssBytes),
      mib(r.baselineRssBytes),
      mib(r.peakRssBytes),
      `${((r.peakRssBytes - r.baselineRssBytes) / r.payloadBytes).toFixed(2)}x`,
      `${r.ratio.toFixed(2)}x`,
      `${ms(r.ingestMs)} ms`,
      `<= ${TARGETS.peakRssRatio}`,
      judged(r, headline, r.ratio, TARGETS.peakRssRatio),
    ]),
  );
}

export function tokenTable(rows: readonly TokenRow[]): string {
  return table(
    "TOKENS  record.tokenEstimate and chars/4 vs exact o200k_base count",
    ["kind", "size", "exact", "estimate", "error", "chars/4", "error", "method"],
    rows.map((r) => [
      r.kind,
      size(r.mb),
      String(r.exact),
      String(r.estimate),
      signedPct(r.estimateErrorPct),
      String(r.charsOver4),
      signedPct(r.charsOver4ErrorPct),
      r.method,
    ]),
  );
}

export interface Headline {
  readonly mb: number;
  readonly ingestRatio: number | null;
  readonly sliceP50Ms: number | null;
  readonly grepRatio: number | null;
  /** Search / literal grep on the log fixture. */
  readonly searchRatio: number | null;
  readonly pageOk: boolean | null;
  readonly peakRssRatio: number | null;
  readonly tokenErrorPct: number | null;
  readonly charsOver4ErrorPct: number | null;
}

export function summaryTable(h: Headline): string {
  const at = `${h.mb} MB`;
  return table(
    "SUMMARY",
    ["measure", "value", "target", "result"],
    [
      [
        `ingest ratio, worst kind (${at})`,
        fixed(h.ingestRatio),
        `<= ${TARGETS.ingestRatio}`,
        verdict(h.ingestRatio, TARGETS.ingestRatio),
      ],
      [
        `slice p50, worse of log/cjk (${at})`,
        `${fixed(h.sliceP50Ms, 3)} ms`,
        `<= ${TARGETS.sliceP50Ms} ms`,
        verdict(h.sliceP50Ms, TARGETS.sliceP50Ms),
      ],
      [
        `grep ratio, worst kind (${at})`,
        fixed(h.grepRatio),
        `<= ${TARGETS.grepRatio}`,
        verdict(h.grepRatio, TARGETS.grepRatio),
      ],
      [
        `search / literal grep, log (${at})`,
        fixed(h.searchRatio),
        `<= ${TARGETS.searchRatio}`,
        verdict(h.searchRatio, TARGETS.searchRatio),
      ],
      [
        "page reconstruction, every kind",
        h.pageOk === null ? "n/a" : String(h.pageOk),
        "true",
        h.pageOk ? "PASS" : "FAIL",
      ],
      [
        `peak RSS / payload, worst kind (${at})`,
        fixed(h.peakRssRatio),
        `<= ${TARGETS.peakRssRatio}`,
        verdict(h.peakRssRatio, TARGETS.peakRssRatio),
      ],
      ["token estimate, max |error|", `${fixed(h.tokenErrorPct)}%`, "(report)", "-"],
      ["chars/4, max |error|", `${fixed(h.charsOver4ErrorPct)}%`, "(report)", "-"],
    ],
  );
}

/**
 * The cost of records: a grep with `record: true` next to the same grep without, on the same
 * stored output in the same run (the plain grep is the floor). Two patterns per fixture: the
 * needle (one match, one record) and a frequent value (50 matches, a record each unless they
 * share one).
 */
import { grepOutput } from "../src/retrieval/grep.js";
import type { OutputRecord } from "../src/store/output-store.js";
import type { SqliteOutputStore } from "../src/store/sqlite-output-store.js";
import { type FixtureKind, NEEDLE } from "./fixtures.js";
import { forceGc, SCOPE } from "./measure.js";
import { median, ms, table } from "./report.js";

/** The fixtures records are measured on, and the record each needle belongs to. */
export const RECORD_KINDS: Partial<Record<FixtureKind, { frequent: string; needleKind: string }>> =
  {
    "json-pretty": { frequent: '"level": "WARN"', needleKind: "json-object" },
    log: { frequent: " WARN [", needleKind: "log-entry" },
  };

export interface RecordsRow {
  readonly kind: FixtureKind;
  readonly mb: number;
  readonly pattern: string;
  readonly matches: number;
  readonly records: number;
  /** Median ms of the plain grep (the floor) and of the grep with records. */
  readonly grepMs: number;
  readonly recordMs: number;
  readonly ratio: number;
  readonly grepRuns: number[];
  readonly recordRuns: number[];
  /** The needle's record is of the expected kind and holds the needle. */
  readonly ok: boolean;
}

/** Times plain grep and grep with records, alternating, `repeats` times each. */
export async function measureRecords(
  store: SqliteOutputStore,
  record: OutputRecord,
  kind: FixtureKind,
  mb: number,
  repeats: number,
): Promise<RecordsRow[]> {
  const spec = RECORD_KINDS[kind];
  if (!spec) return [];
  const rows: RecordsRow[] = [];
  for (const pattern of [NEEDLE, spec.frequent]) {
    const grepRuns: number[] = [];
    const recordRuns: number[] = [];
    let matches = 0;
    let records = 0;
    let ok = true;
    const opened = await store.open(record.id, SCOPE);
    try {
      for (let r = 0; r < repeats; r++) {
        forceGc();
        let started = performance.now();
        const plain = await grepOutput(opened, { pattern, maxMatches: 50 });
        grepRuns.push(performance.now() - started);
        forceGc();
        started = performance.now();
        const withRecords = await grepOutput(opened, { pattern, maxMatches: 50, record: true });
        recordRuns.push(performance.now() - started);
        matches = withRecords.matches.length;
        records = withRecords.records?.length ?? 0;
        ok &&= plain.matches.length === matches && records > 0;
        if (pattern === NEEDLE) {
          const found = withRecords.records?.[0];
          ok &&= found?.kind === spec.needleKind && (found?.text.includes(NEEDLE) ?? false);
        }
      }
    } finally {
      await opened.close();
    }
    const grepMs = median(grepRuns);
    const recordMs = median(recordRuns);
    rows.push({
      kind,
      mb,
      pattern,
      matches,
      records,
      grepMs,
      recordMs,
      ratio: recordMs / grepMs,
      grepRuns,
      recordRuns,
      ok,
    });
  }
  return rows;
}

export function recordsTable(rows: readonly RecordsRow[]): string {
  return table(
    `RECORDS  grepOutput(record: true) vs the same grep without (floor), on one opened output (median of ${rows[0]?.grepRuns.length ?? 0})`,
    ["kind", "size", "pattern", "matches", "records", "grep", "with records", "ratio", "check"],
    rows.map((r) => [
      r.kind,
      `${r.mb} MB`,
      JSON.stringify(r.pattern),
      String(r.matches),
      String(r.records),
      `${ms(r.grepMs)} ms`,
      `${ms(r.recordMs)} ms`,
      `${r.ratio.toFixed(2)}x`,
      r.ok ? "ok" : "WRONG",
    ]),
  );
}

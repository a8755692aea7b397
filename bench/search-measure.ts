/**
 * Search next to its floors, in one run: readOutput(search) by words vs readOutput(grep) of the
 * literal needle on the same output, and GNU grep on the fixture file (literal, and
 * case-insensitive for the query's words). The planted needle is `NEEDLE-7f3a9c`; the query
 * writes it as a person would, `needle 7f3a9c` (other case, no dash), so search does what
 * grep cannot. A second query adds a common word (`error`: the log level of one line in 50 in
 * the log fixture) to show the cost of many matching lines.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { readOutput } from "../src/retrieval/index.js";
import type { OutputRecord } from "../src/store/index.js";
import type { SqliteOutputStore } from "../src/store/sqlite-output-store.js";
import type { Fixture } from "./fixtures.js";
import { locateNeedle, NEEDLE } from "./fixtures.js";
import { forceGc, SCOPE } from "./measure.js";
import { median } from "./report.js";

/** The needle's words as a person would write them. */
export const SEARCH_QUERY = "needle 7f3a9c";
/** The same words with a common one. */
export const COMMON_QUERY = "error needle 7f3a9c";

export interface SearchMeasure {
  readonly query: string;
  readonly searchMs: number;
  readonly grepMs: number;
  /** GNU grep -c -F of the literal needle on the file (process start included). */
  readonly gnuGrepMs: number;
  /** GNU grep -c -i -F -e needle -e 7f3a9c: the words, either case. */
  readonly gnuGrepWordsMs: number;
  /** search / literal grep. */
  readonly ratio: number;
  readonly commonSearchMs: number;
  readonly commonMatchingLines: number;
  readonly searchRuns: number[];
  readonly grepRuns: number[];
  readonly expectedLine: number;
  readonly foundLine: number | null;
  readonly ok: boolean;
}

/** Milliseconds GNU grep takes over `path`, and the count it printed. */
function gnuGrep(args: readonly string[], path: string): Promise<{ ms: number; count: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("grep", [...args, path], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", () =>
      resolve({ ms: performance.now() - started, count: Number(out.trim()) }),
    );
  });
}

/** Search, literal grep and GNU grep on one fixture, alternating, `repeats` times each. */
export async function measureSearch(
  store: SqliteOutputStore,
  record: OutputRecord,
  fixture: Fixture,
  repeats: number,
): Promise<SearchMeasure> {
  const expected = locateNeedle(await readFile(fixture.path));
  const searchRuns: number[] = [];
  const grepRuns: number[] = [];
  const gnuRuns: number[] = [];
  const gnuWordsRuns: number[] = [];
  const commonRuns: number[] = [];
  let foundLine: number | null = null;
  let commonMatchingLines = 0;
  let ok = expected.count === 1;
  const timed = async <T>(runs: number[], work: () => Promise<T>): Promise<T> => {
    forceGc();
    const started = performance.now();
    const result = await work();
    runs.push(performance.now() - started);
    return result;
  };
  for (let r = 0; r < repeats; r++) {
    const search = await timed(searchRuns, () =>
      readOutput(store, record.id, SCOPE, { mode: "search", query: SEARCH_QUERY }),
    );
    foundLine = search.matches[0]?.line ?? null;
    ok &&= foundLine === expected.line && search.matches.length === 1 && search.stopped === null;
    const grep = await timed(grepRuns, () =>
      readOutput(store, record.id, SCOPE, { mode: "grep", pattern: NEEDLE }),
    );
    ok &&= grep.matches[0]?.line === expected.line;
    const gnu = await gnuGrep(["-c", "-F", NEEDLE], fixture.path);
    gnuRuns.push(gnu.ms);
    ok &&= gnu.count === 1;
    const words = await gnuGrep(["-c", "-i", "-F", "-e", "needle", "-e", "7f3a9c"], fixture.path);
    gnuWordsRuns.push(words.ms);
    ok &&= words.count >= 1;
    const common = await timed(commonRuns, () =>
      readOutput(store, record.id, SCOPE, { mode: "search", query: COMMON_QUERY }),
    );
    commonMatchingLines = common.matchingLines;
    ok &&= common.matches[0]?.line === expected.line && common.stopped === null;
  }
  const searchMs = median(searchRuns);
  const grepMs = median(grepRuns);
  return {
    query: SEARCH_QUERY,
    searchMs,
    grepMs,
    gnuGrepMs: median(gnuRuns),
    gnuGrepWordsMs: median(gnuWordsRuns),
    ratio: searchMs / grepMs,
    commonSearchMs: median(commonRuns),
    commonMatchingLines,
    searchRuns,
    grepRuns,
    expectedLine: expected.line,
    foundLine,
    ok,
  };
}

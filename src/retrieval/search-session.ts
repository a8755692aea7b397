/**
 * Search without an id: every output of a session, those compacted out of a model's context
 * included, ranked together. The session's outputs form one corpus (document frequencies and
 * lengths over all of them), so scores from different outputs compare.
 */
import { isSpillwayError, SpillwayError } from "../core/errors.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { textReaderOf } from "./common.js";
import {
  describeRow,
  planSearch,
  type SearchMatch,
  type SearchRequest,
  type SearchSummary,
  searchInto,
  termsSummary,
} from "./search.js";
import { type RankedRow, SearchCorpus } from "./search-corpus.js";
import { ScanTerms } from "./search-text.js";

const LIST_PAGE = 1000;

/** An output a session search did not read, and why. */
export interface SkippedOutput {
  readonly outputId: string;
  readonly toolName: string;
  /** running: no content yet; failed: none; binary: not text; deadline: time ran out first. */
  readonly reason: "running" | "failed" | "binary" | "deadline";
}

export interface SessionSearchResult extends SearchSummary {
  readonly sessionId: string;
  /** Outputs read, whole or (the last, when `stopped`) in part. */
  readonly outputsSearched: number;
  readonly outputsSkipped: SkippedOutput[];
  /** Lines searched, over all the outputs read. */
  readonly searchedLines: number;
  /** The tool behind each output that holds a match, by output id. */
  readonly toolNames: Readonly<Record<string, string>>;
}

/** Every output of a session, oldest first, once each. */
export async function sessionOutputs(
  store: OutputStore,
  sessionId: string,
): Promise<OutputRecord[]> {
  // Pages are newest first: an output stored while listing shifts them, so ids are kept once.
  const records = new Map<string, OutputRecord>();
  for (let offset = 0; ; offset += LIST_PAGE) {
    const page = await store.list({ sessionId, limit: LIST_PAGE, offset });
    for (const record of page) records.set(record.id, record);
    if (page.length < LIST_PAGE) break;
  }
  return [...records.values()].sort(
    (a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id),
  );
}

function skipReason(record: OutputRecord): SkippedOutput["reason"] | null {
  if (record.status === "running") return "running";
  if (record.status === "failed") return "failed";
  return record.kind === "binary" ? "binary" : null;
}

/** Describes the ranked rows, opening each output that holds one once. */
async function describeRows(
  store: OutputStore,
  scope: ReadScope,
  records: readonly OutputRecord[],
  rows: readonly RankedRow[],
  terms: readonly string[],
  maxLineChars: number,
  weights: readonly number[],
): Promise<SearchMatch[]> {
  const matches = new Array<SearchMatch>(rows.length);
  for (const source of new Set(rows.map((row) => row.source))) {
    const id = records[source]!.id;
    const output = await store.open(id, scope);
    try {
      const reader = textReaderOf(output, "search");
      for (const [i, row] of rows.entries()) {
        if (row.source === source)
          matches[i] = await describeRow(output, reader, row, terms, maxLineChars, weights);
      }
      await store.countRead(id);
    } finally {
      await output.close();
    }
  }
  return matches;
}

/**
 * Searches every output of a session by words (see {@link searchOutput}) and ranks their
 * lines together; each match names its output. Reads only what `scope` may read: a session
 * outside it is SESSION_NOT_FOUND. Running, failed and binary outputs are listed as skipped;
 * the deadline covers the whole search.
 *
 * @example
 * const found = await searchSession(store, "ses_1", { sessionId: "ses_1" }, { query: "boot marker" });
 * found.matches[0]; // { outputId: "out_…", line: 4812, text: "… BOOT-MARKER-ALPHA=7f3a …", score: 17.2, … }
 */
export async function searchSession(
  store: OutputStore,
  sessionId: string,
  scope: ReadScope,
  request: SearchRequest,
): Promise<SessionSearchResult> {
  if ("sessionId" in scope && scope.sessionId !== sessionId) {
    throw new SpillwayError(
      "SESSION_NOT_FOUND",
      `No session "${sessionId}" is visible here; a search without an id reads the current session.`,
      { sessionId },
      { fault: "model" },
    );
  }
  return searchRecords(store, sessionId, await sessionOutputs(store, sessionId), scope, request);
}

/**
 * A session search over the given records of the session (oldest first): what
 * {@link searchSession} does once it has listed them. A server answers a session its caller
 * may not see with no records, exactly as a session without outputs.
 */
export async function searchRecords(
  store: OutputStore,
  sessionId: string,
  records: readonly OutputRecord[],
  scope: ReadScope,
  request: SearchRequest,
): Promise<SessionSearchResult> {
  const totalBytes = records.reduce((sum, record) => sum + (record.byteSize ?? 0), 0);
  const plan = planSearch(request, totalBytes);
  const deadline = Date.now() + plan.timeoutMs;
  const corpus = new SearchCorpus(plan.terms, plan.maxCandidates, plan.order);
  const terms = new ScanTerms(plan.terms);
  const skipped: SkippedOutput[] = [];
  let searched = 0;
  let searchedLines = 0;
  let timedOut = false;
  let windowed = false;
  for (const [source, record] of records.entries()) {
    const reason = timedOut ? "deadline" : skipReason(record);
    if (reason !== null) {
      skipped.push({ outputId: record.id, toolName: record.toolName, reason });
      continue;
    }
    const output = await store.open(record.id, scope).catch((error: unknown) => {
      // Its status changed since the listing: say why it was not read.
      if (isSpillwayError(error, "OUTPUT_NOT_READY")) return "running" as const;
      if (isSpillwayError(error, "OUTPUT_FAILED")) return "failed" as const;
      throw error;
    });
    if (typeof output === "string") {
      skipped.push({ outputId: record.id, toolName: record.toolName, reason: output });
      continue;
    }
    try {
      const scan = await searchInto(output, source, corpus, terms, deadline);
      searched++;
      searchedLines += scan.searchedLines;
      timedOut = scan.timedOut;
      windowed ||= scan.windowed;
    } finally {
      await output.close();
    }
  }
  const rows = corpus.top(plan.maxResults);
  const toolNames = Object.fromEntries(
    rows.map((row) => [records[row.source]!.id, records[row.source]!.toolName]),
  );
  return {
    mode: "search",
    sessionId,
    query: plan.query,
    ...plan.order,
    terms: termsSummary(corpus),
    ignoredWords: plan.ignored,
    droppedWords: plan.dropped,
    matches: await describeRows(
      store,
      scope,
      records,
      rows,
      plan.terms,
      plan.maxLineChars,
      corpus.weights(),
    ),
    matchingLines: corpus.matching,
    candidatesDropped: corpus.prunedRows,
    stopped: timedOut ? { reason: "deadline", timeoutMs: plan.timeoutMs } : null,
    windowed,
    outputsSearched: searched,
    outputsSkipped: skipped,
    searchedLines,
    toolNames,
  };
}

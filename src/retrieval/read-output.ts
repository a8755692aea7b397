import { InvalidArgumentError } from "../core/errors.js";
import type { OpenedOutput, OutputStore, ReadScope } from "../store/output-store.js";
import type { RetrievalJob } from "./fair-queue.js";
import { type GrepRequest, type GrepResult, grepOutput } from "./grep.js";
import { type JsonRequest, type JsonResult, queryJson } from "./json.js";
import { type PageRequest, type PageResult, readPage } from "./page.js";
import { type RawRequest, type RawResult, readRaw } from "./raw.js";
import { sharedRegexRunner } from "./regex-runner.js";
import { checkRequest, retrievalRequestSchema } from "./request-schemas.js";
import { type SearchRequest, type SearchResult, searchOutput } from "./search.js";
import { readSlice, type SliceRequest, type SliceResult } from "./slice.js";

/** One retrieval, by mode. Each mode's fields are documented on its request type. */
export type RetrievalRequest =
  | ({ readonly mode: "raw" } & RawRequest)
  | ({ readonly mode: "slice" } & SliceRequest)
  | ({ readonly mode: "grep" } & GrepRequest)
  | ({ readonly mode: "page" } & PageRequest)
  | ({ readonly mode: "json" } & JsonRequest)
  | ({ readonly mode: "search" } & SearchRequest);

export type RetrievalMode = RetrievalRequest["mode"];

interface ResultsByMode {
  raw: RawResult;
  slice: SliceResult;
  grep: GrepResult;
  page: PageResult;
  json: JsonResult;
  search: SearchResult;
}

export type RetrievalResult<M extends RetrievalMode = RetrievalMode> = ResultsByMode[M];

/** Every mode `readOutput` takes, in the order the docs list them. */
export const RETRIEVAL_MODES: readonly RetrievalMode[] = [
  "raw",
  "slice",
  "grep",
  "page",
  "json",
  "search",
];

/**
 * Runs one retrieval on an output that is already open. `job` names the caller's fairness lane
 * (a tenant) and the signal that stops a costly read (regex grep, JSON query) when the caller
 * goes away.
 */
export function retrieve(
  output: OpenedOutput,
  unchecked: RetrievalRequest,
  job: RetrievalJob = {},
): Promise<RetrievalResult> {
  const request = checkRequest(retrievalRequestSchema, unchecked);
  switch (request.mode) {
    case "raw":
      return readRaw(output, request);
    case "slice":
      return readSlice(output, request);
    case "grep":
      return grepOutput(output, request, sharedRegexRunner.forJob(job));
    case "page":
      return readPage(output, request);
    case "json":
      return queryJson(output, request, job);
    case "search":
      return searchOutput(output, request);
    default:
      throw new InvalidArgumentError(
        "mode",
        `got ${JSON.stringify((request as { mode: unknown }).mode)}`,
        RETRIEVAL_MODES.join(", "),
      );
  }
}

/**
 * Opens an output in a scope, runs one retrieval, counts the read and closes it. Reads are
 * exact and model-free; every result carries provenance (output id, SHA-256, offsets, lines).
 *
 * @example
 * const scope = { sessionId: "ses_1" };
 * const hits = await readOutput(store, "out_…", scope, { mode: "grep", pattern: "timeout", context: 2 });
 * const around = await readOutput(store, "out_…", scope, { mode: "slice", anchor: "timeout", window: 300 });
 * // A server's read: charged to the tenant's lane, stopped when the client goes away.
 * await readOutput(store, "out_…", scope, { mode: "grep", pattern: "a+b", regex: true }, { lane: "alice", signal });
 * const best = await readOutput(store, "out_…", scope, { mode: "search", query: "boot marker" });
 */
export async function readOutput<R extends RetrievalRequest>(
  store: OutputStore,
  id: string,
  scope: ReadScope,
  request: R,
  job: RetrievalJob = {},
): Promise<RetrievalResult<R["mode"]>> {
  checkRequest(retrievalRequestSchema, request);
  const output = await store.open(id, scope);
  try {
    const result = await retrieve(output, request, job);
    await store.countRead(id);
    return result as RetrievalResult<R["mode"]>;
  } finally {
    await output.close();
  }
}

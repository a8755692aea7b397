/**
 * spillway/retrieval: exact, model-free reads of stored outputs, with provenance. `readOutput`
 * (also in the root export) opens an output by id within a scope; the per-mode functions here
 * read an already opened output. Token estimation and kind detection live here too.
 *
 * @example
 * import { openSqliteOutputStore } from "spillway/store";
 * import { grepOutput } from "spillway/retrieval";
 *
 * const outputs = await openSqliteOutputStore();
 * const opened = await outputs.open("out_…", { sessionId: "ses_…" });
 * const hits = await grepOutput(opened, { pattern: "ERROR", context: 2 });
 * const best = await searchOutput(opened, { query: "boot marker" });
 * const everywhere = await searchSession(outputs, "ses_…", { sessionId: "ses_…" }, { query: "boot marker" });
 * // Each match inside its record: the JSON object, YAML item, CSV row or log entry around it.
 * const inRecords = await grepOutput(opened, { pattern: "ord_1002", record: true });
 */

export { detectKind, OUTPUT_KINDS, type OutputKind } from "../core/kinds.js";
export {
  countTokens,
  DEFAULT_TOKENIZER,
  estimateTokens,
  type TokenEstimate,
  type TokenizerName,
} from "../core/tokens.js";
export type { RetrievalJob } from "./fair-queue.js";
export {
  type GrepLine,
  type GrepMatch,
  type GrepRequest,
  type GrepResult,
  grepOutput,
} from "./grep.js";
export {
  HANDLE_REFERENCE_PREFIX,
  type HandleRange,
  type HandleReference,
  handleReferenceUri,
  parseHandleReference,
  type ResolvedReference,
  type ResolveReferenceOptions,
  resolveHandleReference,
} from "./handle-reference.js";
export { type JsonMatch, type JsonRequest, type JsonResult, queryJson } from "./json.js";
export { outlineJson } from "./json-outline.js";
export { type PageRequest, type PageResult, readPage } from "./page.js";
export type { BinaryProvenance, Provenance } from "./provenance.js";
export { type RawRequest, type RawResult, readRaw } from "./raw.js";
export {
  RETRIEVAL_MODES,
  type RetrievalMode,
  type RetrievalRequest,
  type RetrievalResult,
  readOutput,
} from "./read-output.js";
export type {
  MatchRecord,
  OmittedPart,
  RecordField,
  RecordKind,
  RecordLimits,
} from "./record-types.js";
export { outerRecord, recordAround } from "./records.js";
export {
  type SearchMatch,
  type SearchRequest,
  type SearchResult,
  type SearchStop,
  type SearchSummary,
  type SearchTerm,
  searchOutput,
} from "./search.js";
export type { SearchRanking } from "./search-corpus.js";
export {
  type SessionSearchResult,
  type SkippedOutput,
  searchSession,
} from "./search-session.js";
export { type AnchorInfo, readSlice, type SliceRequest, type SliceResult } from "./slice.js";
export {
  type SubstitutedArguments,
  type Substitution,
  substituteHandleReferences,
} from "./substitute-references.js";

/**
 * spillway: an LLM agent never loses a tool result.
 *
 * The root export is what most users need: run an agent, open the stores, read stored outputs
 * exactly, and handle typed errors. More lives in subpaths, each a curated index:
 * `spillway/agent` (the runtime's parts: agent files, config, surfaces, model requests),
 * `spillway/store` (store implementations and record types), `spillway/retrieval` (per-mode
 * reads over an opened output, token estimation) and `spillway/testing` (a scripted model
 * server and a test MCP server for deterministic tests). test/architecture/public-api.test.ts
 * pins every list, so the API grows on purpose.
 *
 * @example
 * import { openSqliteStores, readOutput, runAgent } from "spillway";
 *
 * const result = await runAgent({ agent: "agent.md", prompt: "Why did checkout fail?" });
 * const stores = await openSqliteStores();
 * const hits = await readOutput(stores.outputs, "out_…", { sessionId: result.sessionId }, {
 *   mode: "grep",
 *   pattern: "ERROR",
 * });
 */

export type { UsageReport, UsageTotals } from "./agent/accounting.js";
export type { AgentEvent, AgentEventListener } from "./agent/events.js";
export { runAgent } from "./agent/run-agent.js";
export type { AgentRunResult, RunAgentOptions } from "./agent/run-types.js";
export {
  ERROR_CODES,
  type ErrorCode,
  type ErrorFault,
  isSpillwayError,
  SpillwayError,
} from "./core/errors.js";
export type { OutputKind } from "./core/kinds.js";
export type { GrepLine, GrepMatch, GrepResult } from "./retrieval/grep.js";
export type { JsonMatch, JsonResult } from "./retrieval/json.js";
export type { PageResult } from "./retrieval/page.js";
export type { BinaryProvenance, Provenance } from "./retrieval/provenance.js";
export type { RawResult } from "./retrieval/raw.js";
export {
  RETRIEVAL_MODES,
  type RetrievalMode,
  type RetrievalRequest,
  type RetrievalResult,
  readOutput,
} from "./retrieval/read-output.js";
export type { SearchMatch, SearchResult } from "./retrieval/search.js";
export type { SliceResult } from "./retrieval/slice.js";
export type { HistoryStore, SessionRecord } from "./store/history.js";
export type { OutputRecord, OutputStore, ReadScope } from "./store/output-store.js";
export { openSqliteStores, type SpillwayStores } from "./store/sqlite-history-store.js";

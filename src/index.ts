/**
 * spillway: an LLM agent never loses a tool result.
 *
 * The public API: the canonical output store, exact retrieval over stored outputs, token
 * estimation and typed errors.
 */

// The agent runtime.
export type { UsageReport, UsageTotals } from "./agent/accounting.js";
export type { AgentEvent, AgentEventListener } from "./agent/events.js";
export { type AgentRunResult, type RunAgentOptions, runAgent } from "./agent/run-agent.js";
export { planRun, type RunPlan } from "./agent/run-settings.js";
export type { SessionSettings } from "./agent/session-context.js";
export {
  type AgentDefinition,
  type CliSettings,
  findConfigFile,
  loadAgentFile,
  loadConfig,
  loadConfigFile,
  type McpServerSpec,
  parseModelRef,
  type ResolvedSettings,
  resolveSettings,
} from "./config/index.js";
export type { Clock } from "./core/clock.js";
export { systemClock } from "./core/clock.js";
export {
  ERROR_CODES,
  type ErrorCode,
  type ErrorFault,
  InvalidArgumentError,
  InvalidRangeError,
  isSpillwayError,
  OutputFailedError,
  OutputNotFoundError,
  OutputNotReadyError,
  OutputTooLargeError,
  type ReadMode,
  SpillwayError,
  StoreCorruptError,
} from "./core/errors.js";
export { resolveHome } from "./core/home.js";
export { type IdGenerator, looksLikeOutputId, randomId } from "./core/ids.js";
export { detectKind, type KindEvidence, OUTPUT_KINDS, type OutputKind } from "./core/kinds.js";
export {
  countTokens,
  DEFAULT_TOKENIZER,
  estimateTokens,
  loadTokenizer,
  type TokenEstimate,
  type Tokenizer,
  type TokenizerName,
} from "./core/tokens.js";
export type { ToolDefinition } from "./core/tool-definition.js";
export type { Extractor } from "./extraction/extractor.js";
export {
  connectMcpServers,
  type McpCallResult,
  McpHub,
  type McpToolInfo,
} from "./providers/mcp/index.js";
export {
  type CallModelOptions,
  callModel,
  type ModelReply,
  type ModelRequest,
  type ModelToolCall,
} from "./providers/model-caller.js";
export { createLanguageModel, type ModelTarget } from "./providers/models.js";
export type { GrepLine, GrepMatch, GrepRequest, GrepResult } from "./retrieval/grep.js";
export { grepOutput } from "./retrieval/grep.js";
export type { JsonMatch, JsonRequest, JsonResult } from "./retrieval/json.js";
export { queryJson } from "./retrieval/json.js";
export { outlineJson } from "./retrieval/json-outline.js";
export type { PageRequest, PageResult } from "./retrieval/page.js";
export { readPage } from "./retrieval/page.js";
export type { BinaryProvenance, Provenance } from "./retrieval/provenance.js";
export type { RawRequest, RawResult } from "./retrieval/raw.js";
export { readRaw } from "./retrieval/raw.js";
export {
  RETRIEVAL_MODES,
  type RetrievalMode,
  type RetrievalRequest,
  type RetrievalResult,
  readOutput,
  retrieve,
} from "./retrieval/read-output.js";
export type { AnchorInfo, SliceRequest, SliceResult } from "./retrieval/slice.js";
export { readSlice } from "./retrieval/slice.js";
export type {
  HistoryMessage,
  HistoryPart,
  HistoryStore,
  SessionRecord,
  ShownAs,
  ToolCallRecord,
  ToolResultRef,
} from "./store/history.js";
export type { OutputContent } from "./store/ingest.js";
export type {
  ListOutputsFilter,
  OpenedOutput,
  OutputOrigin,
  OutputRecord,
  OutputStatus,
  OutputStore,
  PutOutputOptions,
  ReadScope,
  VerifyResult,
} from "./store/output-store.js";
export {
  openSqliteStores,
  type SpillwayStores,
  SqliteHistoryStore,
} from "./store/sqlite-history-store.js";
export {
  DEFAULT_MAX_OUTPUT_BYTES,
  openSqliteOutputStore,
  SqliteOutputStore,
  type SqliteOutputStoreOptions,
} from "./store/sqlite-output-store.js";
export {
  createSurface,
  SURFACE_NAMES,
  type Surface,
  type SurfaceName,
} from "./surfaces/index.js";

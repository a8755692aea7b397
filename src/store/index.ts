/**
 * spillway/store: the canonical stores. SQLite (WAL) with content-addressed blob files is the
 * embedded default; every store implements the same contracts (OutputStore, HistoryStore).
 *
 * @example
 * import { openSqliteOutputStore } from "spillway/store";
 *
 * const outputs = await openSqliteOutputStore({ home: "./data" });
 * const record = await outputs.put({ sessionId: "ses_demo", toolName: "shell", toolArgs: "{}" }, "line 1\nline 2\n");
 */

export { resolveHome } from "../core/home.js";
export type {
  CoveredCall,
  HistoryMessage,
  HistoryPart,
  HistoryStore,
  NewSummary,
  SessionRecord,
  SessionStatus,
  ShownAs,
  SummaryRecord,
  ToolCallRecord,
  ToolResultRef,
} from "./history.js";
export type { OutputContent } from "./ingest.js";
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
} from "./output-store.js";
export type { ChannelSubscriber, StoreChannel } from "./postgres-channel.js";
export { PostgresHistoryStore } from "./postgres-history-store.js";
export {
  openPostgresOutputStore,
  PostgresOutputStore,
  type PostgresOutputStoreOptions,
} from "./postgres-output-store.js";
export {
  openPostgresStores,
  PostgresExtractionCache,
  type PostgresStoresOptions,
} from "./postgres-stores.js";
export type { ExtractionCache } from "./sqlite-extraction-cache.js";
export { openSqliteStores, type SpillwayStores } from "./sqlite-history-store.js";
export {
  DEFAULT_MAX_OUTPUT_BYTES,
  openSqliteOutputStore,
  type SqliteOutputStoreOptions,
} from "./sqlite-output-store.js";
export {
  collectGarbage,
  type GcOptions,
  type GcReport,
  type StoreStats,
  storeStats,
} from "./store-maintenance.js";
export type { SessionOwnership } from "./stores.js";
export { removeLiveTempsSync } from "./temp-files.js";

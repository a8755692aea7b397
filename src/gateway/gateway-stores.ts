/**
 * The stores a gateway writes to: the same output, history and extraction-cache stores agent
 * runs use, so `spillway sessions show` and the inspector show gateway sessions too. Whoever
 * starts the gateway opens them (SQLite by default; any store implementing the contracts).
 */
import type { HistoryStore } from "../store/history.js";
import type { OutputStore } from "../store/output-store.js";
import type { ExtractionCache } from "../store/sqlite-extraction-cache.js";

/** The stores a gateway session reads and writes. */
export interface GatewayStores {
  readonly outputs: OutputStore;
  readonly history: HistoryStore;
  readonly extractionCache?: ExtractionCache;
}

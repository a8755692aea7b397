import type { HistoryStore } from "./history.js";
import type { OutputStore } from "./output-store.js";
import type { StoreChannel } from "./postgres-channel.js";
import type { SessionLeases } from "./session-leases.js";
import type { ExtractionCache } from "./sqlite-extraction-cache.js";

/**
 * Who owns which agent session (a server's tenants).
 *
 * @example
 * await stores.owners?.claim("ses_1", "alice");
 * await stores.owners?.ownerOf("ses_1"); // "alice"
 */
export interface SessionOwnership {
  ownerOf(sessionId: string): Promise<string | undefined>;
  /** Records (or changes) the session's owner. */
  claim(sessionId: string, tenant: string): Promise<void>;
  /** The tenant's sessions, newest claim first. */
  sessionsOf(tenant: string): Promise<string[]>;
}

/**
 * The canonical stores of one spillway installation: outputs, history and the extraction
 * cache, over one database (SQLite in a directory, or PostgreSQL). Close it once.
 *
 * @example
 * const stores = await openSqliteStores(); // or openPostgresStores({ connectionString, home })
 * await stores.history.listSessions();
 * await stores.close();
 */
export interface SpillwayStores {
  /** The local directory for this process's files (traces, server state); the data may live elsewhere. */
  readonly home: string;
  readonly outputs: OutputStore;
  readonly history: HistoryStore;
  readonly extractionCache: ExtractionCache;
  /** Who runs which session (absent: a store that does not coordinate processes). */
  readonly leases?: SessionLeases;
  /** Messages between the processes sharing the store (absent: only one machine uses it). */
  readonly channel?: StoreChannel;
  /**
   * Which tenant owns which agent session, shared by every process on the store (absent: a
   * server keeps its own registry in its home).
   */
  readonly owners?: SessionOwnership;
  close(): Promise<void>;
}

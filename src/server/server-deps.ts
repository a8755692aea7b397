/** What the routes share: the stores, the event feed, the live sessions and the limits. */
import type { SpillwayStores } from "../store/sqlite-history-store.js";
import type { AgentSourceOptions } from "./agent-source.js";
import type { SessionEventFeed } from "./event-hub.js";
import type { LiveSessions } from "./live-sessions.js";
import type { OutputReader } from "./output-reader.js";
import type { OutputSettlements } from "./output-settlements.js";
import type { ApiRegistry } from "./route-spec.js";
import type { SessionOwners, TenantView } from "./tenancy.js";
import type { UploadSlots } from "./upload-slots.js";

export interface ServerLimits {
  /** Largest output body `POST /v1/outputs` accepts, in bytes. */
  readonly maxOutputBytes: number;
  /** Largest JSON body, in bytes. */
  readonly maxJsonBytes: number;
  /** Deadline of a regular expression in grep reads, in ms (the CLI's default: 5000). */
  readonly regexTimeoutMs: number;
  /** Longest pause between two chunks of a request body, in ms. */
  readonly bodyIdleMs: number;
}

export interface ServerDeps {
  readonly stores: SpillwayStores;
  /** Retrievals for the API: cached opens, batched read counts. */
  readonly reader: OutputReader;
  readonly feed: SessionEventFeed;
  readonly live: LiveSessions;
  /** Waiting for running outputs to settle (here or on another worker). */
  readonly settlements: OutputSettlements;
  readonly owners: SessionOwners;
  readonly registry: ApiRegistry;
  readonly limits: ServerLimits;
  /** Concurrent uploads per tenant. */
  readonly uploads: UploadSlots;
  readonly agents: AgentSourceOptions;
  /** Idle time before an SSE heartbeat comment. */
  readonly heartbeatMs: number;
}

/** Hono's environment: the caller's view of sessions, set by the auth middleware. */
export interface ServerEnv {
  Variables: { view: TenantView };
}

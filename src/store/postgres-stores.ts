import type { Pool } from "pg";
import { type Clock, systemClock } from "../core/clock.js";
import { resolveHome } from "../core/home.js";
import { makePrivateDir } from "./blob-files.js";
import { PostgresChannel } from "./postgres-channel.js";
import { openPostgresPool } from "./postgres-database.js";
import { PostgresHistoryStore } from "./postgres-history-store.js";
import { outputStoreOnPool, type PostgresOutputStoreOptions } from "./postgres-output-store.js";
import { sqlLeases } from "./session-leases.js";
import type { ExtractionCache } from "./sqlite-extraction-cache.js";
import type { SpillwayStores } from "./stores.js";

/**
 * Extraction answers in PostgreSQL (`extraction_cache`), shared by every worker.
 *
 * @example
 * const { extractionCache } = await openPostgresStores({ connectionString: "postgres://localhost/spillway" });
 * await extractionCache.get(key); // what another worker computed, or undefined
 */
export class PostgresExtractionCache implements ExtractionCache {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  async get(key: string): Promise<unknown | undefined> {
    const { rows } = await this.pool.query<{ value: string }>(
      "SELECT value FROM extraction_cache WHERE cache_key = $1",
      [key],
    );
    if (!rows[0]) return undefined;
    try {
      return JSON.parse(rows[0].value) as unknown;
    } catch {
      // A damaged entry is a miss: the answer is computed again and the entry replaced.
      return undefined;
    }
  }

  async put(key: string, kind: "result" | "chunk", value: unknown): Promise<void> {
    await this.putMany([{ key, kind, value }]);
  }

  async putMany(
    entries: readonly { key: string; kind: "result" | "chunk"; value: unknown }[],
  ): Promise<void> {
    if (entries.length === 0) return;
    const params: unknown[] = [];
    const values = entries.map((entry) => {
      params.push(entry.key, entry.kind, JSON.stringify(entry.value), this.clock());
      const at = params.length - 3;
      return `($${at}, $${at + 1}, $${at + 2}, $${at + 3})`;
    });
    await this.pool.query(
      `INSERT INTO extraction_cache (cache_key, kind, value, created_at) VALUES ${values.join(", ")}
       ON CONFLICT (cache_key) DO UPDATE SET kind = EXCLUDED.kind, value = EXCLUDED.value, created_at = EXCLUDED.created_at`,
      params,
    );
  }
}

export interface PostgresStoresOptions extends PostgresOutputStoreOptions {
  /**
   * This process's local directory for what is not shared (traces, server state): default
   * `$SPILLWAY_HOME` or `~/.spillway`. Outputs and history live in PostgreSQL.
   */
  readonly home?: string;
}

/**
 * Opens every canonical store in one PostgreSQL database (migrating it first): outputs,
 * history and the extraction cache, over one connection pool. Several processes and hosts
 * may open the same database.
 *
 * @example
 * const stores = await openPostgresStores({ connectionString: "postgres://spillway@db/spillway" });
 * const result = await runAgent({ agent: "triage.md", prompt: "Why did checkout fail?", stores });
 * await stores.close();
 */
export async function openPostgresStores(options: PostgresStoresOptions): Promise<SpillwayStores> {
  const clock = options.clock ?? systemClock;
  const pool = await openPostgresPool(options);
  const home = resolveHome(options.home);
  await makePrivateDir(home);
  const outputs = await outputStoreOnPool(pool, options, false);
  let closed: Promise<void> | undefined;
  const channel = new PostgresChannel({ connectionString: options.connectionString, clock });
  return {
    home,
    outputs,
    history: new PostgresHistoryStore(pool, clock),
    extractionCache: new PostgresExtractionCache(pool, clock),
    leases: sqlLeases(async (sql, params) => {
      let n = 0;
      const { rows } = await pool.query<Record<string, unknown>>(
        sql.replace(/\?/g, () => `$${++n}`),
        [...params],
      );
      return rows;
    }, clock),
    channel,
    owners: {
      async ownerOf(sessionId) {
        const { rows } = await pool.query<{ tenant: string }>(
          "SELECT tenant FROM session_owners WHERE session_id = $1",
          [sessionId],
        );
        return rows[0]?.tenant;
      },
      async claim(sessionId, tenant) {
        await pool.query(
          `INSERT INTO session_owners (session_id, tenant, claimed_at) VALUES ($1, $2, $3)
           ON CONFLICT (session_id) DO UPDATE SET tenant = EXCLUDED.tenant, claimed_at = EXCLUDED.claimed_at`,
          [sessionId, tenant, clock()],
        );
      },
      async sessionsOf(tenant) {
        const { rows } = await pool.query<{ session_id: string }>(
          "SELECT session_id FROM session_owners WHERE tenant = $1 ORDER BY claimed_at DESC, row_seq DESC",
          [tenant],
        );
        return rows.map((row) => row.session_id);
      },
    },
    close: () => {
      closed ??= channel
        .close()
        .then(() => outputs.close())
        .then(() => pool.end());
      return closed;
    },
  };
}

import type Database from "better-sqlite3";
import type { Clock } from "../core/clock.js";

/**
 * Durable cache of extraction answers, keyed by a hash of (output SHA-256, query, strategy,
 * model, prompt version[, chunk bounds]): a repeated question costs nothing. Only successful
 * answers are stored.
 */
export interface ExtractionCache {
  get(key: string): Promise<unknown | undefined>;
  put(key: string, kind: "result" | "chunk", value: unknown): Promise<void>;
}

export class SqliteExtractionCache implements ExtractionCache {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
  ) {}

  async get(key: string): Promise<unknown | undefined> {
    const row = this.db
      .prepare("SELECT value FROM extraction_cache WHERE cache_key = ?")
      .get(key) as { value: string } | undefined;
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as unknown;
    } catch {
      // A damaged entry is a miss: the answer is computed again and the entry replaced.
      return undefined;
    }
  }

  async put(key: string, kind: "result" | "chunk", value: unknown): Promise<void> {
    this.db
      .prepare(
        "INSERT OR REPLACE INTO extraction_cache (cache_key, kind, value, created_at) VALUES (?, ?, ?, ?)",
      )
      .run(key, kind, JSON.stringify(value), this.clock());
  }
}

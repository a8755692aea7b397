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
  /** Several entries in one transaction (one disk sync instead of one each). */
  putMany(
    entries: readonly { key: string; kind: "result" | "chunk"; value: unknown }[],
  ): Promise<void>;
}

export class SqliteExtractionCache implements ExtractionCache {
  private readonly select: Database.Statement;
  private readonly insert: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
  ) {
    this.select = db.prepare("SELECT value FROM extraction_cache WHERE cache_key = ?");
    this.insert = db.prepare(
      "INSERT OR REPLACE INTO extraction_cache (cache_key, kind, value, created_at) VALUES (?, ?, ?, ?)",
    );
  }

  async get(key: string): Promise<unknown | undefined> {
    const row = this.select.get(key) as { value: string } | undefined;
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as unknown;
    } catch {
      // A damaged entry is a miss: the answer is computed again and the entry replaced.
      return undefined;
    }
  }

  async put(key: string, kind: "result" | "chunk", value: unknown): Promise<void> {
    this.insert.run(key, kind, JSON.stringify(value), this.clock());
  }

  async putMany(
    entries: readonly { key: string; kind: "result" | "chunk"; value: unknown }[],
  ): Promise<void> {
    if (entries.length === 0) return;
    this.db.transaction(() => {
      for (const entry of entries)
        this.insert.run(entry.key, entry.kind, JSON.stringify(entry.value), this.clock());
    })();
  }
}

/**
 * Reads for the HTTP API. Ready outputs never change (content-addressed bytes, immutable
 * record), so the server keeps recently read ones open (a small LRU, shared by concurrent
 * requests, closed when evicted and idle) and counts reads in batches written off the request
 * path: a slice answers without reopening the output or waiting for a durable write.
 */

import { OutputNotFoundError } from "../core/errors.js";
import type { RetrievalJob } from "../retrieval/fair-queue.js";
import { type RetrievalRequest, type RetrievalResult, retrieve } from "../retrieval/read-output.js";
import type { OpenedOutput, OutputStore, ReadScope } from "../store/output-store.js";

interface Entry {
  readonly opened: OpenedOutput;
  refs: number;
  evicted: boolean;
}

export interface OutputReaderOptions {
  /** Outputs kept open (default 64). */
  readonly maxOpen?: number;
  /** How often batched read counts are written, ms (default 250). */
  readonly flushMs?: number;
  /** Receives errors of the background count writes. */
  readonly onError: (error: unknown) => void;
}

/**
 * Cached opens and batched read counts over an output store.
 *
 * @example
 * const reader = new OutputReader(store, { onError: console.error });
 * const slice = await reader.read(id, { mode: "slice", start: 0, length: 4096 }, async (r) => r.sessionId === "ses_1", async (e) => { throw e; });
 * await reader.close();
 */
export class OutputReader {
  private readonly open = new Map<string, Promise<Entry>>();
  private readonly counts = new Map<string, number>();
  private readonly maxOpen: number;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: OutputStore,
    private readonly options: OutputReaderOptions,
  ) {
    this.maxOpen = options.maxOpen ?? 64;
  }

  private async acquire(id: string, scope: ReadScope): Promise<Entry> {
    let pending = this.open.get(id);
    if (pending) {
      // Most recently used last.
      this.open.delete(id);
      this.open.set(id, pending);
    } else {
      pending = this.store.open(id, scope).then((opened) => ({ opened, refs: 0, evicted: false }));
      this.open.set(id, pending);
      pending.catch(() => this.open.delete(id));
      while (this.open.size > this.maxOpen) {
        const [oldId, oldest] = this.open.entries().next().value as [string, Promise<Entry>];
        this.open.delete(oldId);
        void oldest.then(
          (entry) => {
            entry.evicted = true;
            if (entry.refs === 0) return entry.opened.close();
          },
          () => {},
        );
      }
    }
    const entry = await pending;
    entry.refs++;
    return entry;
  }

  private release(entry: Entry): Promise<void> | undefined {
    entry.refs--;
    if (entry.evicted && entry.refs === 0) return entry.opened.close();
    return undefined;
  }

  /**
   * Runs one retrieval of an output `visible` accepts (checked on the cached record, so a read
   * of an open output touches no database); anything else is OUTPUT_NOT_FOUND, as for an
   * unknown id. When the output cannot be opened (running, failed, unknown), `hidden` decides
   * first whether the caller may learn that. `job` charges costly reads to the tenant's lane
   * and stops them when the client goes away.
   */
  async read(
    id: string,
    request: RetrievalRequest,
    visible: (record: OpenedOutput["record"]) => Promise<boolean>,
    hidden: (error: unknown) => Promise<never>,
    job: RetrievalJob = {},
  ): Promise<RetrievalResult> {
    let entry: Entry;
    try {
      entry = await this.acquire(id, { allSessions: true });
    } catch (error) {
      return hidden(error);
    }
    try {
      if (!(await visible(entry.opened.record))) throw new OutputNotFoundError(id, false);
      const result = await retrieve(entry.opened, request, job);
      this.counted(id);
      return result;
    } finally {
      await this.release(entry);
    }
  }

  private counted(id: string): void {
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }, this.options.flushMs ?? 250);
  }

  /** Writes the batched read counts. */
  async flush(): Promise<void> {
    const batch = [...this.counts];
    this.counts.clear();
    for (const [id, times] of batch) {
      try {
        await this.store.countRead(id, times);
      } catch (error) {
        this.options.onError(error);
      }
    }
  }

  /** Writes pending counts and closes every open output. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
    await this.flush();
    const entries = [...this.open.values()];
    this.open.clear();
    for (const pending of entries) {
      try {
        const entry = await pending;
        entry.evicted = true;
        if (entry.refs === 0) await entry.opened.close();
      } catch {
        // an open that failed has nothing to close
      }
    }
  }
}

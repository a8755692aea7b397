/**
 * Waiting for a running output (a tool still working in the background) to settle, on any
 * worker: `GET /v1/outputs/:id?wait=SECS` answers as soon as the output is ready or failed.
 * The worker that settles it wakes its own waiters and, on a shared store, tells the others
 * over the store's channel (PostgreSQL NOTIFY); waiters also look again every second, so a
 * lost notification, or another process on a SQLite store, costs at most that.
 */
import type { OutputStore } from "../store/output-store.js";
import type { StoreChannel } from "../store/postgres-channel.js";
import type { SpillwayStores } from "../store/stores.js";

const TOPIC = "output_settled";
/** How often a waiter reads the record again without being woken. */
export const SETTLE_POLL_MS = 1000;

/**
 * The waiters of this worker, keyed by output id.
 *
 * @example
 * const settlements = new OutputSettlements(stores.channel, console.error);
 * await settlements.waitFor("out_1", 1000, signal); // woken, or a second passed: read again
 */
export class OutputSettlements {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly channel: StoreChannel | undefined,
    private readonly onError: (error: unknown) => void,
  ) {
    this.unsubscribe =
      channel?.subscribe(TOPIC, {
        onMessage: (id) => this.wake(id),
        onGap: () => {
          for (const id of [...this.waiters.keys()]) this.wake(id);
        },
      }) ?? (() => {});
  }

  /** An output of this worker settled: wakes its waiters here and on the other workers. */
  settled(id: string): void {
    this.wake(id);
    this.channel?.publish(TOPIC, id).catch(this.onError);
  }

  private wake(id: string): void {
    const set = this.waiters.get(id);
    if (!set) return;
    this.waiters.delete(id);
    for (const wake of set) wake();
  }

  /** Resolves when `id` settles somewhere, after `ms`, or when `signal` aborts. */
  waitFor(id: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(id);
      if (!set) {
        set = new Set();
        this.waiters.set(id, set);
      }
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        const current = this.waiters.get(id);
        current?.delete(done);
        if (current?.size === 0) this.waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      set.add(done);
    });
  }

  close(): void {
    this.unsubscribe();
    for (const id of [...this.waiters.keys()]) this.wake(id);
  }
}

/**
 * The stores with an output store that reports every settlement (`complete`, `fail`) to
 * `settled`, so the sessions this worker runs wake waiters wherever they are.
 *
 * @example
 * const watched = reportingSettlements(stores, (id) => settlements.settled(id));
 */
export function reportingSettlements(
  stores: SpillwayStores,
  settled: (id: string) => void,
): SpillwayStores {
  const outputs = stores.outputs;
  const reporting: OutputStore = {
    get location() {
      return outputs.location;
    },
    get maxOutputBytes() {
      return outputs.maxOutputBytes;
    },
    put: (origin, content, options) => outputs.put(origin, content, options),
    begin: (origin) => outputs.begin(origin),
    complete: async (id, content, options) => {
      const record = await outputs.complete(id, content, options);
      settled(record.id);
      return record;
    },
    fail: async (id, error) => {
      const record = await outputs.fail(id, error);
      settled(record.id);
      return record;
    },
    get: (id, scope) => outputs.get(id, scope),
    list: (filter) => outputs.list(filter),
    open: (id, scope) => outputs.open(id, scope),
    countRead: (id, times) => outputs.countRead(id, times),
    verify: (id, scope) => outputs.verify(id, scope),
    close: () => outputs.close(),
  };
  return Object.create(stores, { outputs: { value: reporting, enumerable: true } });
}

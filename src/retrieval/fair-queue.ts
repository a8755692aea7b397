/**
 * Slots for costly reads (regex scans, JSON queries), shared fairly between lanes (tenants on
 * a server). A bounded number run at once; one lane may hold at most `perLane` of them, so with
 * two slots or more another lane always finds one within a job's time; waiting jobs are served
 * round-robin between lanes, so a lane with many queued jobs delays another by at most one of
 * them. A job's deadline counts from its arrival, waiting included, and a job whose caller
 * went away (its signal aborted) leaves the queue at once.
 */

/** Who a job is for, and how its caller cancels it. */
export interface RetrievalJob {
  /** The fairness lane (a tenant); jobs without one share the default lane. */
  readonly lane?: string;
  /** Aborted when the caller no longer wants the answer (e.g. the HTTP client went away). */
  readonly signal?: AbortSignal;
}

export interface FairQueueOptions {
  /** Jobs running at once. */
  readonly slots: number;
  /** Jobs of one lane running at once (default: slots - 1, at least 1). */
  readonly perLane?: number;
}

interface Waiter {
  readonly grant: () => void;
}

interface Lane {
  running: number;
  readonly waiting: Waiter[];
}

export interface AcquireOptions extends RetrievalJob {
  /** Epoch ms after which waiting is pointless: the wait rejects with `expired()`. */
  readonly deadline?: number;
  readonly expired?: () => Error;
  /** What the wait rejects with when `signal` aborts. */
  readonly aborted?: () => Error;
}

/**
 * A fair, bounded set of slots.
 *
 * @example
 * const queue = new FairQueue({ slots: 2 });
 * const release = await queue.acquire({ lane: "alice", signal, deadline: Date.now() + 5000 });
 * try { await work(); } finally { release(); }
 */
export class FairQueue {
  readonly slots: number;
  readonly perLane: number;
  private running = 0;
  private readonly lanes = new Map<string, Lane>();
  /** Lane names in round-robin order; the next turn starts after `lastServed`. */
  private lastServed: string | undefined;

  constructor(options: FairQueueOptions) {
    this.slots = Math.max(1, Math.floor(options.slots));
    this.perLane = Math.max(1, Math.min(this.slots, Math.floor(options.perLane ?? this.slots - 1)));
  }

  /** Jobs holding a slot now. */
  get active(): number {
    return this.running;
  }

  /** Jobs waiting, by lane (for tests and metrics). */
  waiting(lane = ""): number {
    return this.lanes.get(lane)?.waiting.length ?? 0;
  }

  /** Waits for a slot; resolves with the function that gives it back (idempotent). */
  acquire(options: AcquireOptions = {}): Promise<() => void> {
    const name = options.lane ?? "";
    const lane = this.laneOf(name);
    if (options.signal?.aborted) return Promise.reject(this.abortError(options));
    if (options.deadline !== undefined && Date.now() >= options.deadline)
      return Promise.reject(options.expired?.() ?? new Error("deadline passed"));
    if (lane.waiting.length === 0 && this.canRun(lane)) return Promise.resolve(this.take(name));
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = () => {
        const at = lane.waiting.indexOf(waiter);
        if (at >= 0) lane.waiting.splice(at, 1);
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      const waiter: Waiter = {
        grant: () => {
          leave();
          resolve(this.take(name));
        },
      };
      const onAbort = () => {
        leave();
        this.forget(name);
        reject(this.abortError(options));
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });
      if (options.deadline !== undefined) {
        timer = setTimeout(
          () => {
            leave();
            this.forget(name);
            reject(options.expired?.() ?? new Error("deadline passed"));
          },
          Math.max(0, options.deadline - Date.now()),
        );
        timer.unref?.();
      }
      lane.waiting.push(waiter);
    });
  }

  private abortError(options: AcquireOptions): Error {
    return options.aborted?.() ?? (options.signal?.reason as Error) ?? new Error("aborted");
  }

  private laneOf(name: string): Lane {
    let lane = this.lanes.get(name);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      this.lanes.set(name, lane);
    }
    return lane;
  }

  private canRun(lane: Lane): boolean {
    return this.running < this.slots && lane.running < this.perLane;
  }

  private take(name: string): () => void {
    const lane = this.laneOf(name);
    lane.running++;
    this.running++;
    this.lastServed = name;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.running--;
      this.running--;
      this.forget(name);
      this.dispatch();
    };
  }

  /** Grants free slots round-robin: the lanes after the last one served come first. */
  private dispatch(): void {
    while (this.running < this.slots) {
      const names = [...this.lanes.keys()];
      const start = this.lastServed === undefined ? 0 : names.indexOf(this.lastServed) + 1;
      let granted = false;
      for (let i = 0; i < names.length; i++) {
        const name = names[(start + i) % names.length]!;
        const lane = this.lanes.get(name)!;
        const next = lane.waiting[0];
        if (next && lane.running < this.perLane) {
          next.grant();
          granted = true;
          break;
        }
      }
      if (!granted) return;
    }
  }

  private forget(name: string): void {
    const lane = this.lanes.get(name);
    if (lane && lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(name);
  }
}

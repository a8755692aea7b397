/**
 * The fan-out of session events to SSE subscribers. Each session keeps a bounded window of
 * recent events (count and bytes); subscribers do not get queues of their own: each holds a
 * cursor and pulls from the window as fast as its connection drains. A slow consumer
 * therefore costs no memory, loses nothing while its cursor is inside the window, and is told
 * exactly what it missed (a `reset`) when it falls behind the window. Events are projections:
 * nothing here ever writes canonical history.
 */

/** An event as published: a type and a JSON-serializable payload. */
export interface WireEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** An event in a session's window, with its SSE id (`<epoch>-<seq>`). */
export interface HubEvent {
  readonly id: string;
  readonly seq: number;
  readonly type: string;
  /** The JSON text sent as the SSE `data:` line. */
  readonly data: string;
}

export interface ReadResult {
  readonly events: readonly HubEvent[];
  /**
   * Set when the cursor was older than the window (or from another server run): events
   * between `missedAfter` and the first returned one are gone from the window; the
   * canonical history (`GET /v1/sessions/:id`) still has everything they described.
   */
  readonly gap?: { readonly missedAfter: string | null; readonly resumedAt: string | null };
  /** True when the session's stream has ended and every event was read. */
  readonly ended: boolean;
}

/**
 * What SSE routes need of the event fan-out. The in-memory hub implements it for one server;
 * a cross-worker channel (e.g. PostgreSQL LISTEN/NOTIFY) can feed `publish`/`end` on every
 * worker so subscribers anywhere see every session's events.
 */
export interface SessionEventFeed {
  publish(sessionId: string, event: WireEvent): HubEvent;
  /** No more events will come for the session (its run ended). */
  end(sessionId: string): void;
  /** Whether the feed holds a window for the session (it has published or ended there). */
  knows(sessionId: string): boolean;
  /** Up to `max` events after the cursor (`null`: from the start of the window). */
  read(sessionId: string, after: string | null, max: number): ReadResult;
  /** Resolves true when events after `after` exist (or the stream ended), false on timeout. */
  wait(
    sessionId: string,
    after: string | null,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<boolean>;
}

export interface EventHubOptions {
  /** Events each session's window keeps (default 4096). */
  readonly maxEvents?: number;
  /** Bytes of event data each window keeps (default 8 MiB). */
  readonly maxBytes?: number;
  /** Ended sessions whose windows are kept for late subscribers (default 256). */
  readonly maxEndedSessions?: number;
  /** Distinguishes this server run's ids from a previous run's (default: now, base 36). */
  readonly epoch?: string;
}

class SessionWindow {
  /** The epoch of the worker that publishes the session's events now (ids carry it). */
  constructor(public epoch: string) {}
  events: HubEvent[] = [];
  head = 0;
  bytes = 0;
  nextSeq = 1;
  ended = false;
  waiters = new Set<() => void>();

  get first(): number {
    return this.events[this.head]?.seq ?? this.nextSeq;
  }

  /** The sequence number a cursor points after, or null when the window cannot place it. */
  seqOf(cursor: string | null): number | null {
    if (cursor === null) return 0;
    const match = /^([0-9a-z]+)-(\d+)$/.exec(cursor);
    if (!match) return null;
    const seq = Number(match[2]);
    if (match[1] === this.epoch) return seq;
    // An id from an earlier publisher of this session (before a takeover) still in the window.
    const at = this.head + seq - this.first;
    return at >= this.head && this.events[at]?.id === cursor ? seq : null;
  }

  /** Forgets every event (the next one does not follow them): cursors before it get a reset. */
  clear(): void {
    this.events = [];
    this.head = 0;
    this.bytes = 0;
  }

  notify(): void {
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }
}

/**
 * The in-memory event hub of one server.
 *
 * @example
 * const hub = new EventHub();
 * hub.publish("ses_1", { type: "turn", turn: 1 });
 * hub.read("ses_1", null, 100).events[0].type; // "turn"
 */
export class EventHub implements SessionEventFeed {
  private readonly windows = new Map<string, SessionWindow>();
  private readonly ended: string[] = [];
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly maxEndedSessions: number;
  readonly epoch: string;

  constructor(options: EventHubOptions = {}) {
    this.maxEvents = options.maxEvents ?? 4096;
    this.maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
    this.maxEndedSessions = options.maxEndedSessions ?? 256;
    this.epoch = options.epoch ?? Date.now().toString(36);
  }

  private window(sessionId: string): SessionWindow {
    let window = this.windows.get(sessionId);
    if (!window) {
      window = new SessionWindow(this.epoch);
      this.windows.set(sessionId, window);
    }
    return window;
  }

  publish(sessionId: string, event: WireEvent): HubEvent {
    const window = this.window(sessionId);
    // Numbering goes on from the events another worker published before this one took over.
    window.epoch = this.epoch;
    const seq = window.nextSeq;
    const stored: HubEvent = {
      id: `${this.epoch}-${seq}`,
      seq,
      type: event.type,
      data: JSON.stringify(event),
    };
    this.append(sessionId, window, stored);
    return stored;
  }

  /**
   * Adds an event another worker published (relayed to this one), keeping its id, so a
   * subscriber here sees what a subscriber there sees and may reconnect to either. An event
   * that does not follow the last one (missed messages, a worker that started the session's
   * numbering again) empties the window first: cursors before it get a `reset`.
   *
   * @example
   * hub.mirror("ses_1", { id: "lq3k9x-7", seq: 7, type: "turn", data: '{"type":"turn"}' });
   */
  mirror(sessionId: string, event: HubEvent): void {
    const window = this.window(sessionId);
    if (event.seq !== window.nextSeq) window.clear();
    window.epoch = event.id.slice(0, event.id.lastIndexOf("-"));
    this.append(sessionId, window, event);
  }

  /** Sessions whose open windows mirror another worker's events (it may still run them). */
  mirroredOpen(): string[] {
    const ids: string[] = [];
    for (const [id, window] of this.windows)
      if (!window.ended && window.epoch !== this.epoch) ids.push(id);
    return ids;
  }

  private append(sessionId: string, window: SessionWindow, stored: HubEvent): void {
    if (window.ended) {
      // The session runs again (a continued session): its stream is open again.
      window.ended = false;
      const at = this.ended.indexOf(sessionId);
      if (at !== -1) this.ended.splice(at, 1);
    }
    window.nextSeq = stored.seq + 1;
    window.events.push(stored);
    window.bytes += stored.data.length;
    while (
      window.events.length - window.head > this.maxEvents ||
      (window.bytes > this.maxBytes && window.events.length - window.head > 1)
    ) {
      const dropped = window.events[window.head];
      window.events[window.head] = undefined as unknown as HubEvent;
      window.head++;
      window.bytes -= dropped?.data.length ?? 0;
    }
    if (window.head > 1024 && window.head * 2 > window.events.length) {
      window.events = window.events.slice(window.head);
      window.head = 0;
    }
    window.notify();
  }

  end(sessionId: string): void {
    const window = this.window(sessionId);
    if (window.ended) return;
    window.ended = true;
    window.notify();
    this.ended.push(sessionId);
    while (this.ended.length > this.maxEndedSessions) {
      const old = this.ended.shift();
      if (old !== undefined && this.windows.get(old)?.waiters.size === 0) this.windows.delete(old);
    }
  }

  knows(sessionId: string): boolean {
    return this.windows.has(sessionId);
  }

  read(sessionId: string, after: string | null, max: number): ReadResult {
    const window = this.windows.get(sessionId);
    if (!window) return { events: [], ended: false };
    let seq = window.seqOf(after);
    let gap: ReadResult["gap"];
    const oldest = window.first;
    if (seq === null || seq > window.nextSeq - 1 || (seq < oldest - 1 && after !== null)) {
      gap = {
        missedAfter: after,
        resumedAt: window.events[window.head]?.id ?? null,
      };
      seq = oldest - 1;
    } else if (after === null && oldest > 1) {
      gap = { missedAfter: null, resumedAt: window.events[window.head]?.id ?? null };
    }
    const start = window.head + Math.max(0, seq + 1 - oldest);
    const events = window.events.slice(start, Math.min(window.events.length, start + max));
    return {
      events,
      ...(gap ? { gap } : {}),
      ended: window.ended && start + events.length >= window.events.length,
    };
  }

  wait(
    sessionId: string,
    after: string | null,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<boolean> {
    const window = this.window(sessionId);
    const seq = window.seqOf(after);
    if (window.ended || seq === null || seq < window.nextSeq - 1) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        window.waiters.delete(wake);
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const wake = () => done(true);
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      window.waiters.add(wake);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}

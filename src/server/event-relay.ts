/**
 * Session events across workers: every event this worker publishes is also sent on the store's
 * channel (PostgreSQL LISTEN/NOTIFY), and every event another worker sends is mirrored into this
 * worker's hub with its id kept. So an SSE subscriber on any worker follows a session running on
 * any other, and may reconnect to either with its Last-Event-ID. Each worker thus keeps a window
 * for every running session of the cluster (bounded as the hub bounds it).
 */
import type { StoreChannel } from "../store/postgres-channel.js";
import type { EventHub, HubEvent, ReadResult, SessionEventFeed, WireEvent } from "./event-hub.js";

const TOPIC = "session_events";

/** What travels on the channel: one event of a session, or the end of its stream. */
type RelayMessage =
  | { readonly session: string; readonly event: HubEvent }
  | { readonly session: string; readonly end: true };

function parse(text: string): RelayMessage | undefined {
  try {
    const value = JSON.parse(text) as Partial<{
      session: unknown;
      event: Partial<HubEvent>;
      end: unknown;
    }>;
    if (typeof value.session !== "string") return undefined;
    if (value.end === true) return { session: value.session, end: true };
    const e = value.event;
    if (
      e &&
      typeof e.id === "string" &&
      typeof e.seq === "number" &&
      typeof e.type === "string" &&
      typeof e.data === "string"
    )
      return {
        session: value.session,
        event: { id: e.id, seq: e.seq, type: e.type, data: e.data },
      };
  } catch {
    // Not ours (or damaged): ignored.
  }
  return undefined;
}

/**
 * An event feed shared by the workers of one store.
 *
 * @example
 * const feed = new RelayedEventFeed(new EventHub(), stores.channel, isRunning, console.error);
 * await feed.ready(); // listening: events from other workers arrive from now on
 */
export class RelayedEventFeed implements SessionEventFeed {
  private readonly unsubscribe: () => void;

  constructor(
    private readonly hub: EventHub,
    private readonly channel: StoreChannel,
    /** Whether a session still runs (its history's status), asked after a dropped connection. */
    private readonly isRunning: (sessionId: string) => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
  ) {
    this.unsubscribe = channel.subscribe(TOPIC, {
      onMessage: (text) => {
        const message = parse(text);
        if (!message) return;
        if ("end" in message) hub.end(message.session);
        else hub.mirror(message.session, message.event);
      },
      onGap: () => {
        void this.recheck();
      },
    });
  }

  /**
   * After a dropped connection: a session that ended meanwhile would never see its end
   * message, so each mirrored one still open is looked up and ended if it no longer runs.
   * (A missed event is noticed by its successor's number; the window says so to subscribers.)
   */
  private async recheck(): Promise<void> {
    for (const sessionId of this.hub.mirroredOpen()) {
      try {
        if (!(await this.isRunning(sessionId))) this.hub.end(sessionId);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Resolves once this worker listens to the others. */
  ready(): Promise<void> {
    return this.channel.ready();
  }

  private send(message: RelayMessage): void {
    // A lost relay costs other workers' subscribers a `reset`, never this run.
    this.channel.publish(TOPIC, JSON.stringify(message)).catch(this.onError);
  }

  publish(sessionId: string, event: WireEvent): HubEvent {
    const stored = this.hub.publish(sessionId, event);
    this.send({ session: sessionId, event: stored });
    return stored;
  }

  end(sessionId: string): void {
    this.hub.end(sessionId);
    this.send({ session: sessionId, end: true });
  }

  knows(sessionId: string): boolean {
    return this.hub.knows(sessionId);
  }

  read(sessionId: string, after: string | null, max: number): ReadResult {
    return this.hub.read(sessionId, after, max);
  }

  wait(
    sessionId: string,
    after: string | null,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<boolean> {
    return this.hub.wait(sessionId, after, timeoutMs, signal);
  }

  /** Stops listening (the channel itself closes with the stores). */
  close(): void {
    this.unsubscribe();
  }
}

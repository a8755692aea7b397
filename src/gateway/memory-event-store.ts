/**
 * A small in-memory event store for the Streamable HTTP transport, so a client whose SSE
 * stream drops can resume it (`Last-Event-ID`) and gets the messages it missed. Bounded: the
 * oldest events are forgotten first.
 */
import { randomUUID } from "node:crypto";
import type {
  EventId,
  EventStore,
  StreamId,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Events kept per session by default. */
const DEFAULT_MAX_EVENTS = 256;

/** An {@link EventStore} in memory, keeping the last `maxEvents` events. */
export class MemoryEventStore implements EventStore {
  readonly #events = new Map<EventId, { stream: StreamId; message: JSONRPCMessage }>();
  #counter = 0;
  readonly #prefix = randomUUID().slice(0, 8);

  constructor(private readonly maxEvents = DEFAULT_MAX_EVENTS) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // Zero-padded counters sort in order; the stream is part of the id.
    const id = `${stream}::${this.#prefix}-${String(++this.#counter).padStart(12, "0")}`;
    this.#events.set(id, { stream, message });
    if (this.#events.size > this.maxEvents) {
      this.#events.delete(this.#events.keys().next().value as EventId);
    }
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.get(eventId)?.stream ?? eventId.split("::")[0];
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const stream = (await this.getStreamIdForEventId(lastEventId)) ?? "";
    for (const [id, event] of this.#events) {
      if (event.stream !== stream || id <= lastEventId) continue;
      // Priming events carry no message.
      if (Object.keys(event.message).length > 0) await send(id, event.message);
    }
    return stream;
  }
}

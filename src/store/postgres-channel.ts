/**
 * A message channel between the processes that share one PostgreSQL store, over LISTEN/NOTIFY:
 * what one worker publishes on a topic reaches every other worker subscribed to it, in the
 * order it was published. NOTIFY carries at most 8,000 bytes, so a longer message is written to
 * `channel_messages` and the notification carries its row id; rows older than a few minutes are
 * swept. Notifications are not durable: a subscriber whose connection dropped is told (`onGap`)
 * that it may have missed messages, so it can say so to its own readers.
 */
import { randomBytes } from "node:crypto";
import type { Client } from "pg";
import { type Clock, systemClock } from "../core/clock.js";
import { unreachable } from "./postgres-database.js";

/** A handler of one topic's messages. */
export interface ChannelSubscriber {
  onMessage(message: string): void;
  /** The connection dropped and was restored: messages sent meanwhile are lost. */
  onGap?(): void;
}

/**
 * Messages between the processes that share a store (absent on a store only one machine uses).
 *
 * @example
 * const off = stores.channel?.subscribe("events", { onMessage: (m) => console.log(m) });
 * await stores.channel?.publish("events", JSON.stringify({ hello: "worker" }));
 */
export interface StoreChannel {
  /** Sends a message to every other process subscribed to the topic (not to this one). */
  publish(topic: string, message: string): Promise<void>;
  /** Receives the topic's messages from other processes, in their publishing order. */
  subscribe(topic: string, subscriber: ChannelSubscriber): () => void;
  /** Resolves once every earlier publish and subscription reached the other processes' server. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Bytes of a message sent inline; PostgreSQL's limit is 8,000 including the envelope. */
const INLINE_BYTES = 7_000;
/** How long an overflow row outlives its notification (a listener reads it within ms). */
const OVERFLOW_KEEP_MS = 5 * 60_000;
const TOPIC = /^[a-z][a-z0-9_]{0,40}$/;

function channelName(topic: string): string {
  if (!TOPIC.test(topic))
    throw new Error(`channel topic ${JSON.stringify(topic)} must be lowercase letters, digits, _`);
  return `spillway_${topic}`;
}

export interface PostgresChannelOptions {
  readonly connectionString: string;
  readonly clock?: Clock;
  /** Called with connection errors (the channel reconnects by itself); default: ignore. */
  readonly onError?: (error: unknown) => void;
}

/**
 * The LISTEN/NOTIFY channel of a PostgreSQL store, on a connection of its own (a listening
 * connection cannot come from the query pool, which hands connections around).
 *
 * @example
 * const channel = await openPostgresChannel({ connectionString: "postgres://localhost/spillway" });
 * channel.subscribe("events", { onMessage: (m) => console.log(m) });
 */
export async function openPostgresChannel(
  options: PostgresChannelOptions,
): Promise<PostgresChannel> {
  const channel = new PostgresChannel(options);
  await channel.connect();
  return channel;
}

export class PostgresChannel implements StoreChannel {
  /** Tells this process's notifications from the others' (a listener hears its own). */
  private readonly origin = randomBytes(6).toString("hex");
  private readonly clock: Clock;
  private readonly subscribers = new Map<string, Set<ChannelSubscriber>>();
  private client: Client | undefined;
  /** Publishes and deliveries each run in order on one chain. */
  private sending: Promise<unknown> = Promise.resolve();
  private delivering: Promise<unknown> = Promise.resolve();
  private closed = false;
  private reconnecting: Promise<void> | undefined;
  private overflowWrites = 0;
  private firstConnect: Promise<void> | undefined;

  constructor(private readonly options: PostgresChannelOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Opens the connection and listens to every subscribed topic (the first use does it too). */
  async connect(): Promise<void> {
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: this.options.connectionString });
    try {
      await client.connect();
    } catch (error) {
      throw unreachable(this.options.connectionString, error);
    }
    client.on("notification", (note) => this.receive(note.channel, note.payload ?? ""));
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, new Error("the channel's connection ended")));
    for (const topic of this.subscribers.keys()) await client.query(`LISTEN ${channelName(topic)}`);
    this.client = client;
  }

  private lost(client: Client, error: unknown): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.options.onError?.(error);
    this.reconnecting ??= (async () => {
      for (let delay = 100; !this.closed; delay = Math.min(delay * 2, 5_000)) {
        await new Promise((r) => setTimeout(r, delay));
        try {
          await this.connect();
          for (const set of this.subscribers.values()) for (const s of set) s.onGap?.();
          return;
        } catch (reconnectError) {
          this.options.onError?.(reconnectError);
        }
      }
    })().finally(() => {
      this.reconnecting = undefined;
    });
  }

  private async connected(): Promise<Client> {
    if (this.client) return this.client;
    if (this.closed) throw new Error("the store's channel is closed");
    // The first use opens the connection: a process that never publishes nor subscribes
    // (a CLI command) never holds one.
    if (!this.reconnecting) {
      this.firstConnect ??= this.connect();
      await this.firstConnect;
    }
    await this.reconnecting;
    if (this.client) return this.client;
    throw new Error("the store's channel is closed or cannot reach PostgreSQL");
  }

  publish(topic: string, message: string): Promise<void> {
    const name = channelName(topic);
    const sent = this.sending.then(async () => {
      const client = await this.connected();
      let body = `${this.origin}:${message}`;
      if (Buffer.byteLength(body) > INLINE_BYTES) {
        const { rows } = await client.query<{ id: string }>(
          "INSERT INTO channel_messages (topic, body, created_at) VALUES ($1, $2, $3) RETURNING id",
          [topic, message, this.clock()],
        );
        body = `${this.origin}@${rows[0]!.id}`;
        if (++this.overflowWrites % 100 === 0)
          await client.query("DELETE FROM channel_messages WHERE created_at < $1", [
            this.clock() - OVERFLOW_KEEP_MS,
          ]);
      }
      await client.query("SELECT pg_notify($1, $2)", [name, body]);
    });
    // A failed publish must not stop the ones after it.
    this.sending = sent.catch(() => {});
    return sent;
  }

  private receive(name: string, payload: string): void {
    const topic = name.replace(/^spillway_/, "");
    const set = this.subscribers.get(topic);
    const match = /^([0-9a-f]+)([:@])/.exec(payload);
    if (!set || !match || match[1] === this.origin) return;
    const rest = payload.slice(match[0].length);
    const message =
      match[2] === ":"
        ? Promise.resolve(rest)
        : this.connected()
            .then((client) =>
              client.query<{ body: string }>("SELECT body FROM channel_messages WHERE id = $1", [
                rest,
              ]),
            )
            .then(({ rows }) => rows[0]?.body);
    // Deliver in arrival order even when a message must first be read from its row.
    this.delivering = this.delivering.then(async () => {
      let text: string | undefined;
      try {
        text = await message;
      } catch (error) {
        this.options.onError?.(error);
      }
      for (const subscriber of set) {
        if (text === undefined) subscriber.onGap?.();
        else subscriber.onMessage(text);
      }
    });
  }

  subscribe(topic: string, subscriber: ChannelSubscriber): () => void {
    const name = channelName(topic);
    let set = this.subscribers.get(topic);
    if (!set) {
      set = new Set();
      this.subscribers.set(topic, set);
      const listening = this.sending.then(async () => {
        const client = await this.connected();
        // connect() listens to every subscribed topic already; LISTEN twice is harmless.
        await client.query(`LISTEN ${name}`);
      });
      this.sending = listening.catch((error) => this.options.onError?.(error));
    }
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
    };
  }

  /** Resolves once every earlier publish and subscription reached the server. */
  async ready(): Promise<void> {
    await this.sending;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.sending;
    await this.delivering;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

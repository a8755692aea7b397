/**
 * A small SSE client over fetch, for tests and benchmarks of `spillway serve`: reads a stream
 * of server-sent events (id, event, data), can resume with Last-Event-ID, and can be read
 * slowly on purpose (a slow consumer).
 */

export interface SseEvent {
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

/**
 * Parses SSE text incrementally: feed chunks, get complete events (comments are skipped).
 *
 * @example
 * const parser = new SseParser();
 * parser.push("id: a-1\nevent: turn\ndata: {\"turn\":1}\n\n"); // [{ id: "a-1", event: "turn", data: '{"turn":1}' }]
 */
export class SseParser {
  private buffer = "";

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.indexOf("\n\n");
      if (end === -1) return events;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let id: string | null = null;
      let event = "message";
      const data: string[] = [];
      let any = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") id = value;
        else if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else continue;
        any = true;
      }
      if (any && data.length > 0) events.push({ id, event, data: data.join("\n") });
    }
  }
}

export interface ReadSseOptions {
  readonly headers?: Record<string, string>;
  readonly lastEventId?: string;
  /** Stop reading once this returns true for an event. */
  readonly until?: (event: SseEvent) => boolean;
  /** Waits between chunks read (a slow consumer), ms. */
  readonly delayMs?: number;
  readonly signal?: AbortSignal;
  /** Called for each event as it arrives. */
  readonly onEvent?: (event: SseEvent) => void;
}

/**
 * Reads an SSE URL until the stream ends or `until` matches; returns every event read.
 *
 * @example
 * const events = await readSse(`${url}/v1/sessions/${id}/events`, { until: (e) => e.event === "final" });
 */
export async function readSse(url: string, options: ReadSseOptions = {}): Promise<SseEvent[]> {
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const response = await fetch(url, {
    headers: {
      accept: "text/event-stream",
      ...(options.lastEventId ? { "last-event-id": options.lastEventId } : {}),
      ...(options.headers ?? {}),
    },
    signal: controller.signal,
  });
  if (!response.ok || !response.body)
    throw new Error(`SSE ${url} answered ${response.status}: ${await response.text()}`);
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return events;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) {
        events.push(event);
        options.onEvent?.(event);
        if (options.until?.(event)) return events;
      }
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    }
  } finally {
    controller.abort();
    await reader.cancel().catch(() => {});
  }
}

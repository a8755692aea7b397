/**
 * One SSE connection as a pull-based stream: the HTTP layer pulls the next chunk only when the
 * socket has drained, so a slow consumer holds nothing but its cursor. Sends `retry:`, the
 * events after the cursor (each with its `id:` for Last-Event-ID), `reset` when the cursor fell
 * out of the window, a heartbeat comment when idle, and closes once the session's stream ends.
 */
import type { HubEvent, SessionEventFeed } from "./event-hub.js";

export interface SseStreamOptions {
  readonly feed: SessionEventFeed;
  readonly sessionId: string;
  /** The Last-Event-ID to resume after, or null for the whole window. */
  readonly after: string | null;
  readonly heartbeatMs: number;
  /** Events per chunk written to the socket. */
  readonly batch?: number;
  /** Called once the stream closes (client gone or session ended). */
  readonly onClose?: () => void;
  /** Sent first when the feed knows nothing of the session (e.g. it ended before this server run). */
  readonly snapshot?: () => Promise<Record<string, unknown> | null>;
}

const encoder = new TextEncoder();

function frame(event: HubEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.data}\n\n`;
}

/**
 * A ReadableStream of SSE text for one subscriber.
 *
 * @example
 * return new Response(sseStream({ feed: hub, sessionId, after: null, heartbeatMs: 15000 }), {
 *   headers: { "content-type": "text/event-stream" },
 * });
 */
export function sseStream(options: SseStreamOptions): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  let cursor = options.after;
  let started = false;
  let closed = false;
  const close = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (closed) return;
    closed = true;
    controller.close();
    options.onClose?.();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          let text = "retry: 2000\n\n";
          if (!options.feed.knows(options.sessionId) && options.snapshot) {
            const snapshot = await options.snapshot();
            if (snapshot) {
              text += `event: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`;
              controller.enqueue(encoder.encode(text));
              close(controller);
              return;
            }
          }
          controller.enqueue(encoder.encode(text));
          return;
        }
        for (;;) {
          if (abort.signal.aborted) return close(controller);
          const result = options.feed.read(options.sessionId, cursor, options.batch ?? 64);
          let text = "";
          if (result.gap) {
            text += `event: reset\ndata: ${JSON.stringify({
              type: "reset",
              missedAfter: result.gap.missedAfter,
              resumedAt: result.gap.resumedAt,
              message:
                "Events before resumedAt are no longer in this server's window; the canonical history (GET /v1/sessions/:id) holds everything.",
            })}\n\n`;
          }
          for (const event of result.events) text += frame(event);
          const last = result.events.at(-1);
          if (last) cursor = last.id;
          else if (result.gap?.resumedAt === null) cursor = null;
          if (text !== "") {
            controller.enqueue(encoder.encode(text));
            if (result.ended) close(controller);
            return;
          }
          if (result.ended) return close(controller);
          const woke = await options.feed.wait(
            options.sessionId,
            cursor,
            options.heartbeatMs,
            abort.signal,
          );
          if (!woke) {
            if (abort.signal.aborted) return close(controller);
            controller.enqueue(encoder.encode(": heartbeat\n\n"));
            return;
          }
        }
      },
      cancel() {
        abort.abort();
        if (!closed) {
          closed = true;
          options.onClose?.();
        }
      },
    },
    { highWaterMark: 1 },
  );
}

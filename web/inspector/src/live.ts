/**
 * A session's events over SSE, read with fetch (so the bearer token goes in a header, never in
 * the URL); reconnects with Last-Event-ID after a dropped connection.
 */
import { authHeaders } from "./api";

export interface LiveEvent {
  id: string | null;
  type: string;
  data: Record<string, unknown>;
}

/** Follows a session's events until `signal` aborts; calls `onEvent` for each. */
export async function follow(
  sessionId: string,
  onEvent: (event: LiveEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let lastId: string | null = null;
  while (!signal.aborted) {
    try {
      const response = await fetch(`/v1/sessions/${encodeURIComponent(sessionId)}/events`, {
        headers: {
          accept: "text/event-stream",
          ...authHeaders(),
          ...(lastId ? { "last-event-id": lastId } : {}),
        },
        signal,
      });
      if (!response.ok || !response.body) return;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return; // the session's stream ended
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
          let id: string | null = null;
          let type = "message";
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("event: ")) type = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (!data) continue;
          if (id) lastId = id;
          try {
            onEvent({ id, type, data: JSON.parse(data) as Record<string, unknown> });
          } catch {
            // a malformed event is skipped; the canonical history is reloaded on the next one
          }
        }
      }
    } catch {
      if (signal.aborted) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

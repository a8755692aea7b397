/**
 * A `fetch` for the SDK's Streamable HTTP transport that notices when the connection to the
 * server is lost.
 *
 * When a server dies while streaming a response as server-sent events, the SDK only reports
 * "SSE stream disconnected" to `onerror` and the pending request waits for its timeout. This
 * wrapper reports network failures of requests and of response bodies, so the caller can fail
 * the calls at once with the real reason.
 */

import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * Wraps `fetch`; `onLost` is called (with the network error) when a request or a response body
 * fails for a reason other than `signal` being aborted (the transport closing).
 */
export function watchedFetch(onLost: (error: unknown) => void, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    let response: Response;
    try {
      response = await base(url, init);
    } catch (error) {
      if (!init?.signal?.aborted) onLost(error);
      throw error;
    }
    if (!response.ok || response.body === null) return response;
    return new Response(watchBody(response.body, init?.signal ?? undefined, onLost), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function watchBody(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  onLost: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (cancelled) return;
        if (!signal?.aborted) onLost(error);
        controller.error(error);
        return;
      }
      if (cancelled) return;
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
}

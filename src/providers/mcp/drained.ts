import { once } from "node:events";
import type { Writable } from "node:stream";

/**
 * Resolves when `stream` emits "drain"; rejects with `closedMessage` if it closes first. For
 * writers of newline-delimited JSON-RPC that respect backpressure (stdio transports).
 *
 * @example
 * if (!stdin.write(line)) await drained(stdin, "stdin closed before the message was written");
 */
export async function drained(stream: Writable, closedMessage: string): Promise<void> {
  const controller = new AbortController();
  try {
    await Promise.race([
      once(stream, "drain", { signal: controller.signal }),
      once(stream, "close", { signal: controller.signal }).then(() => {
        throw new Error(closedMessage);
      }),
    ]);
  } finally {
    controller.abort();
  }
}

/**
 * Messages between the client and the servers behind the gateway that are not tool results:
 * requests a server sends its client (sampling, elicitation, roots), the notifications servers
 * send (log messages, resource updates, list changes), and progress on either side.
 *
 * A server's request or log message that arrives while a tool call to that server runs is
 * sent on that call's stream (over Streamable HTTP, the client may have no other stream
 * open); otherwise on the session's own channel.
 */
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpMessage } from "../providers/mcp/index.js";

/** What the relay needs of a request being answered (the SDK's request handler extra). */
export interface RelayChannel {
  sendRequest(
    request: McpMessage,
    options: { signal: AbortSignal; onprogress?: (progress: Record<string, unknown>) => void },
  ): Promise<Record<string, unknown>>;
  sendNotification(notification: McpMessage): Promise<void>;
}

/** Notifications passed on to the client as they are. */
const PASSED_ON = new Set([
  "notifications/message",
  "notifications/resources/updated",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
]);

/** Tracks the calls in flight per server and relays server messages to the client. */
export class Relay {
  readonly #inflight = new Map<string, RelayChannel[]>();

  constructor(
    /** The session's own channel to the client (no request to relate to). */
    private readonly session: RelayChannel,
    private readonly log: (line: string) => void,
  ) {}

  /** Runs `work` as a call in flight to `server`, answered on `channel`. */
  async during<T>(server: string, channel: RelayChannel, work: () => Promise<T>): Promise<T> {
    const list = this.#inflight.get(server) ?? [];
    list.push(channel);
    this.#inflight.set(server, list);
    try {
      return await work();
    } finally {
      list.splice(list.lastIndexOf(channel), 1);
      if (list.length === 0) this.#inflight.delete(server);
    }
  }

  #channel(server: string): RelayChannel {
    const list = this.#inflight.get(server);
    return list?.[list.length - 1] ?? this.session;
  }

  /**
   * A request from `server` to the client: forwarded (its progress token replaced by one of
   * the gateway's, and the client's progress sent back under the server's token);
   * cancelled when the server cancels it.
   */
  async serverRequest(
    server: string,
    request: McpMessage,
    extra: { signal: AbortSignal; notify: (notification: McpMessage) => Promise<void> },
  ): Promise<Record<string, unknown>> {
    const meta = (request.params?._meta ?? undefined) as Record<string, unknown> | undefined;
    const token = meta?.progressToken;
    const { progressToken: _theirs, ...otherMeta } = meta ?? {};
    const params = request.params
      ? {
          ...request.params,
          ...(meta ? { _meta: otherMeta } : {}),
        }
      : undefined;
    if (meta && Object.keys(otherMeta).length === 0 && params) delete params._meta;
    const onprogress =
      token === undefined
        ? undefined
        : (progress: Record<string, unknown>) => {
            extra
              .notify({
                method: "notifications/progress",
                params: { ...progress, progressToken: token },
              })
              .catch((error: unknown) =>
                this.log(`progress to server "${server}" not sent: ${String(error)}`),
              );
          };
    return this.#channel(server).sendRequest(
      { method: request.method, ...(params ? { params } : {}) },
      { signal: extra.signal, ...(onprogress ? { onprogress } : {}) },
    );
  }

  /** A notification from `server`: passed on when the client can use it. */
  serverNotification(server: string, notification: McpMessage): void {
    if (!PASSED_ON.has(notification.method)) return;
    const channel =
      notification.method === "notifications/message" ? this.#channel(server) : this.session;
    channel.sendNotification(notification).catch((error: unknown) => {
      this.log(`${notification.method} from server "${server}" not passed on: ${String(error)}`);
    });
  }
}

/** The result schema that accepts any result (the relay passes results on unchanged). */
export const ANY_RESULT = ResultSchema;

/** The relay channel of a request being answered: its requests and notifications go on its stream. */
export function channelOf(extra: {
  sendRequest: (...args: never[]) => Promise<unknown>;
  sendNotification: (...args: never[]) => Promise<void>;
}): RelayChannel {
  return {
    sendRequest: (request, options) =>
      (
        extra.sendRequest as (
          r: unknown,
          s: unknown,
          o: unknown,
        ) => Promise<Record<string, unknown>>
      )(request, ANY_RESULT, options),
    sendNotification: (notification) =>
      (extra.sendNotification as (n: unknown) => Promise<void>)(notification),
  };
}

/**
 * One connection attempt to one server: transport, SDK `Client`, handshake, tool list.
 * Resolves with a live {@link McpSession} or rejects with `MCP_SERVER_FAILED` saying why.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, ListToolsResultSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { SpillwayError } from "../../core/errors.js";
import { watchedFetch } from "./http-fetch.js";
import { mcpErrorCode, type ServerFacts, serverStartError } from "./mcp-errors.js";
import { McpStdioClientTransport } from "./stdio-transport.js";
import {
  describeTarget,
  isStdioSpec,
  type McpMessage,
  type McpServerSpec,
  type ResolvedMcpHubOptions,
} from "./types.js";

/** A connected client and what is known about its transport. */
export type McpSession = {
  client: Client;
  /** Set for stdio servers. */
  stdio: McpStdioClientTransport | undefined;
  http: StreamableHTTPClientTransport | undefined;
  tools: Tool[];
  /** Set when an HTTP request or response stream failed on the network. */
  lost: { error: unknown } | undefined;
  /** The transport has closed (the server exited, the connection was lost, or we closed it). */
  closed: boolean;
};

/** Callbacks from a session to its owner. */
export type SessionEvents = {
  /** The session's transport closed; `session.closed` is already true. */
  onClose(session: McpSession): void;
};

/** What messages need to know about a session's server right now. */
export function sessionFacts(name: string, spec: McpServerSpec, session?: McpSession): ServerFacts {
  const stderr = session?.stdio?.stderrText();
  return {
    server: name,
    target: describeTarget(spec),
    http: !isStdioSpec(spec),
    ...(session?.stdio?.exit ? { exit: session.stdio.exit } : {}),
    ...(stderr ? { stderr } : {}),
  };
}

/** Connects, completes the handshake and lists every tool (following pagination). */
export async function openSession(
  name: string,
  spec: McpServerSpec,
  options: ResolvedMcpHubOptions,
  events: SessionEvents,
): Promise<McpSession> {
  const client = new Client(options.clientInfo, { capabilities: options.clientCapabilities });
  const session: McpSession = {
    client,
    stdio: undefined,
    http: undefined,
    tools: [],
    lost: undefined,
    closed: false,
  };
  const transport = createTransport(name, spec, options, session);
  client.onclose = () => {
    session.closed = true;
    events.onClose(session);
  };
  // Out-of-band transport errors (a stray line on stdout, a dropped SSE stream) are not fatal
  // by themselves; fatal ones close the transport and surface through the pending calls.
  client.onerror = () => {};
  relayServerMessages(name, client, options);
  const timeout = options.connectTimeoutMs;
  try {
    await client.connect(transport, { timeout });
    if (client.getServerCapabilities()?.tools) {
      let cursor: string | undefined;
      do {
        const page = await client.request(
          { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
          ListToolsResultSchema,
          { timeout },
        );
        session.tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    }
    return session;
  } catch (error) {
    throw await startFailure(name, spec, session, error, timeout);
  }
}

/**
 * Requests and notifications the server sends that the SDK client does not handle itself go
 * to the hub's hooks (progress and cancellation are the SDK's, routed to their calls).
 */
function relayServerMessages(name: string, client: Client, options: ResolvedMcpHubOptions): void {
  const { onServerRequest, onServerNotification } = options;
  if (onServerRequest) {
    client.fallbackRequestHandler = async (request, extra) =>
      (await onServerRequest(name, request as McpMessage, {
        signal: extra.signal,
        notify: (notification) =>
          extra.sendNotification(notification as Parameters<typeof extra.sendNotification>[0]),
      })) as Awaited<ReturnType<NonNullable<Client["fallbackRequestHandler"]>>>;
  }
  if (onServerNotification) {
    client.fallbackNotificationHandler = async (notification) => {
      onServerNotification(name, notification as McpMessage);
    };
  }
}

async function startFailure(
  name: string,
  spec: McpServerSpec,
  session: McpSession,
  cause: unknown,
  timeoutMs: number,
): Promise<SpillwayError> {
  // A child that exits at once can fail the handshake (EPIPE) before its exit is reported:
  // give it a moment, so the message has its exit code and stderr.
  const stdio = session.stdio;
  const answered =
    mcpErrorCode(cause) !== undefined && mcpErrorCode(cause) !== ErrorCode.ConnectionClosed;
  if (stdio && !stdio.exit && !answered) await Promise.race([stdio.closed, delay(500)]);
  const facts = sessionFacts(name, spec, session);
  await session.client.close().catch(() => {});
  // For HTTP, the network error is the reason; the SDK only reports "Connection closed".
  const lost = session.lost;
  return serverStartError(facts, lost ? lost.error : cause, timeoutMs, lost !== undefined);
}

function createTransport(
  name: string,
  spec: McpServerSpec,
  options: ResolvedMcpHubOptions,
  session: McpSession,
): McpStdioClientTransport | StreamableHTTPClientTransport {
  if (isStdioSpec(spec)) {
    const onStderr = options.onStderr;
    session.stdio = new McpStdioClientTransport({
      ...spec,
      serverName: name,
      maxMessageBytes: options.maxMessageBytes,
      stderrTailBytes: options.stderrTailBytes,
      closeGraceMs: options.closeGraceMs,
      ...(onStderr ? { onStderr: (text: string) => onStderr(name, text) } : {}),
    });
    return session.stdio;
  }
  const fetchLike = watchedFetch((error) => {
    if (session.lost || session.closed) return;
    session.lost = { error };
    void session.client.close().catch(() => {});
  });
  session.http = new StreamableHTTPClientTransport(new URL(spec.url), {
    fetch: fetchLike,
    ...(spec.headers ? { requestInit: { headers: spec.headers } } : {}),
  });
  return session.http;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * One client connection to the gateway (a stdio process, or one MCP session over Streamable
 * HTTP): an MCP server (the official SDK's) that answers for the servers behind it. On the
 * client's `initialize` it opens the spillway session and connects the servers with the
 * client's capabilities, then advertises what they offer.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Clock } from "../core/clock.js";
import type { IdGenerator } from "../core/ids.js";
import { loadTokenizer } from "../core/tokens.js";
import { advertisedCapabilities, GATEWAY_INSTRUCTIONS, gatewayInstructions } from "./advertised.js";
import { complete, getPrompt, listPrompts, setLogLevel } from "./forwarding.js";
import { GatewayError } from "./gateway-errors.js";
import { type ExtractionSource, extractionSource } from "./gateway-extractor.js";
import { GatewayHistory } from "./gateway-history.js";
import type { GatewaySettings } from "./gateway-settings.js";
import type { GatewayStores } from "./gateway-stores.js";
import { runReadTool } from "./read-call.js";
import { READ_TOOL_NAME, readSurface, readToolDefinition } from "./read-tool.js";
import { ANY_RESULT, channelOf, Relay } from "./relay.js";
import { GatewayResources } from "./resources.js";
import { callUpstreamTool } from "./tool-call.js";
import { Upstream } from "./upstream.js";

/** What a session is built from. */
export interface GatewaySessionOptions {
  readonly settings: GatewaySettings;
  readonly stores: GatewayStores;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  /** What the session record says this is ("spillway mcp -- npx … (stdio)"). */
  readonly description: string;
  /** A gateway session to continue (stdio `--session`). */
  readonly resume?: string;
  /** The name and version the gateway reports. */
  readonly serverInfo: { name: string; version: string };
  /** Diagnostics (stderr for stdio). */
  readonly log: (line: string) => void;
}

/**
 * One client's gateway session: an MCP server for the client, the upstream server behind it,
 * and the session record its stored results belong to. Connect `server` to a transport; the
 * upstream starts when the client initializes.
 *
 * @example
 * const session = new GatewaySession({ settings, stores, ids: randomId, clock: systemClock,
 *   description: "spillway mcp (stdio)", serverInfo: { name: "spillway", version: "0.1.0" },
 *   log: (line) => process.stderr.write(`${line}\n`) });
 * await session.server.connect(transport);
 * // … when the transport closes:
 * await session.close("completed");
 */
export class GatewaySession {
  readonly server: Server;
  readonly #options: GatewaySessionOptions;
  #upstream: Upstream | undefined;
  #history: GatewayHistory | undefined;
  #starting: Promise<void> | undefined;
  #extraction: ExtractionSource = { kind: "none", reason: "the client has not initialized" };
  #closed = false;
  #closing: Promise<void> | undefined;
  #listChanged: NodeJS.Timeout | undefined;
  readonly #resources: GatewayResources;
  readonly #relay: Relay;
  readonly #surface;

  constructor(options: GatewaySessionOptions) {
    this.#options = options;
    this.#surface = readSurface(options.settings.synopsisLines);
    this.server = new Server(options.serverInfo, {
      capabilities: {
        tools: {},
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      },
      instructions: GATEWAY_INSTRUCTIONS,
    });
    this.server.onerror = (error) => options.log(`protocol error: ${error.message}`);
    this.#resources = new GatewayResources(
      options.stores.outputs,
      () => this.#requireHistory().sessionId,
      () => this.#upstream,
      options.settings.limits.maxReferenceBytes,
    );
    this.#relay = new Relay(
      {
        sendRequest: (request, requestOptions) =>
          this.server.request(request as never, ANY_RESULT, requestOptions as never) as Promise<
            Record<string, unknown>
          >,
        sendNotification: (notification) => this.server.notification(notification as never),
      },
      options.log,
    );
    this.#register();
  }

  /** The spillway session id, once the client has initialized. */
  get sessionId(): string | undefined {
    return this.#history?.sessionId;
  }

  /** The servers behind this session, once connected. */
  get upstream(): Upstream | undefined {
    return this.#upstream;
  }

  /**
   * Flushes the history, ends the session record and closes the servers behind it. Calling it
   * again returns the same promise.
   */
  close(status: "completed" | "failed" | "aborted" = "completed", error?: string): Promise<void> {
    this.#closing ??= this.#close(status, error);
    return this.#closing;
  }

  async #close(status: "completed" | "failed" | "aborted", error?: string): Promise<void> {
    this.#closed = true;
    if (this.#listChanged) clearTimeout(this.#listChanged);
    // A start that failed already recorded the session failed.
    const started = await (this.#starting ?? Promise.resolve()).then(
      () => true,
      () => false,
    );
    await this.#upstream?.close();
    if (started) await this.#history?.close(status, error);
  }

  #requireHistory(): GatewayHistory {
    if (!this.#history)
      throw new GatewayError(
        ErrorCode.InvalidRequest,
        "The client has not initialized this session yet.",
      );
    return this.#history;
  }

  #requireUpstream(): Upstream {
    if (!this.#upstream)
      throw new GatewayError(
        ErrorCode.InvalidRequest,
        "The client has not initialized this session yet.",
      );
    return this.#upstream;
  }

  /** Opens the session record and connects the servers (once, at initialize). */
  async #start(clientCapabilities: Record<string, unknown>): Promise<void> {
    const { settings, stores, log } = this.#options;
    this.#history = await GatewayHistory.open({
      history: stores.history,
      settings,
      description: this.#options.description,
      clock: this.#options.clock,
      ids: this.#options.ids,
      ...(this.#options.resume ? { resume: this.#options.resume } : {}),
      onError: (error) => log(`history write failed (the outputs are stored): ${String(error)}`),
    });
    // The tokenizer loads once per process (hundreds of ms): not on the first call's path.
    const tokenizer = loadTokenizer(settings.tokenizer);
    this.#upstream = await Upstream.connect(settings.servers, {
      namespaced: settings.namespace,
      clientCapabilities,
      clientInfo: this.#options.serverInfo,
      callTimeoutMs: settings.toolTimeoutMs,
      // A gateway outlives its servers' crashes: each is restarted, with a growing wait.
      maxRestarts: Number.POSITIVE_INFINITY,
      restartBackoffMs: 1_000,
      onStderr: (server, text) => log(`[${server}] ${text.trimEnd()}`),
      onServerRequest: (server, request, extra) =>
        this.#relay.serverRequest(server, request, extra),
      onServerNotification: (server, notification) =>
        this.#relay.serverNotification(server, notification),
    });
    await tokenizer;
    const failures = this.#upstream.hub.failures();
    for (const { server, error } of failures)
      log(`server "${server}" failed to start: ${error.message}`);
    if (failures.length === Object.keys(settings.servers).length) {
      const reasons = failures.map((f) => f.error.message).join("; ");
      await this.#history.close("failed", reasons);
      throw new GatewayError(
        ErrorCode.InternalError,
        `spillway mcp: no server behind the gateway started: ${reasons}`,
      );
    }
    for (const tool of this.#upstream.tools()) {
      if (tool.name === READ_TOOL_NAME) {
        log(
          `server "${tool.server}" has a tool named ${READ_TOOL_NAME}; it is shadowed by spillway's (use --namespace to reach it as ${tool.hubName})`,
        );
      }
    }
    this.#extraction = extractionSource(settings, clientCapabilities);
    log(
      `session ${this.#history.sessionId}: ${this.#upstream.tools().length} tools from ${Object.keys(settings.servers).length - failures.length} server(s); extract: ${this.#extraction.kind === "none" ? "none available" : this.#extraction.kind}`,
    );
  }

  /** New outputs change the resource list: tell the client, at most once a second. */
  #stored = (): void => {
    if (this.#listChanged || this.#closed) return;
    this.#listChanged = setTimeout(() => {
      this.#listChanged = undefined;
      if (this.#closed) return;
      this.server.sendResourceListChanged().catch((error: unknown) => {
        this.#options.log(`resources/list_changed not sent: ${String(error)}`);
      });
    }, 1_000);
    this.#listChanged.unref();
  };

  #register(): void {
    const server = this.server;
    const initialize = (
      server as unknown as { _oninitialize(request: unknown): Promise<Record<string, unknown>> }
    )._oninitialize.bind(server);
    server.setRequestHandler(InitializeRequestSchema, async (request) => {
      this.#starting ??= this.#start(request.params.capabilities as Record<string, unknown>);
      await this.#starting;
      const result = await initialize(request);
      return {
        ...result,
        capabilities: advertisedCapabilities(this.#upstream?.handshakes()),
        instructions: gatewayInstructions(this.#upstream?.handshakes()),
      } as never;
    });
    server.setRequestHandler(
      ListToolsRequestSchema,
      async () =>
        ({
          tools: [
            ...this.#requireUpstream()
              .tools()
              .filter((t) => t.name !== READ_TOOL_NAME)
              .map((t) => t.definition),
            readToolDefinition(this.#surface, {
              extract: this.#extraction.kind !== "none",
              maxReferenceBytes: this.#options.settings.limits.maxReferenceBytes,
            }),
          ],
        }) as never,
    );
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const upstream = this.#requireUpstream();
      const history = this.#requireHistory();
      const name = request.params.name;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      const channel = channelOf(extra);
      if (name === READ_TOOL_NAME) {
        return (await runReadTool({
          surface: this.#surface,
          settings: this.#options.settings,
          stores: this.#options.stores,
          history,
          ids: this.#options.ids,
          source: this.#extraction,
          args,
          signal: extra.signal,
          send: (params, signal) =>
            extra.sendRequest(
              { method: "sampling/createMessage", params } as never,
              CreateMessageResultSchema,
              signal ? { signal } : {},
            ),
        })) as never;
      }
      const tool = upstream.tool(name);
      if (!tool) {
        throw new GatewayError(
          ErrorCode.InvalidParams,
          `Unknown tool: ${name}. Tools here: ${[...upstream.tools().map((t) => t.name), READ_TOOL_NAME].join(", ")}.`,
        );
      }
      const services = {
        settings: this.#options.settings,
        upstream,
        outputs: this.#options.stores.outputs,
        history,
        ids: this.#options.ids,
        onStored: this.#stored,
      };
      return (await this.#relay.during(tool.server, channel, () =>
        callUpstreamTool(services, tool, args, {
          signal: extra.signal,
          meta: extra._meta as Record<string, unknown> | undefined,
          notify: (notification) => extra.sendNotification(notification as never),
        }),
      )) as never;
    });
    server.setRequestHandler(
      ListResourcesRequestSchema,
      async (request) => this.#resources.list(request.params?.cursor) as never,
    );
    server.setRequestHandler(
      ListResourceTemplatesRequestSchema,
      async () => this.#resources.templates() as never,
    );
    server.setRequestHandler(
      ReadResourceRequestSchema,
      async (request) => this.#resources.read(request.params.uri) as never,
    );
    server.setRequestHandler(
      SubscribeRequestSchema,
      async (request) =>
        this.#resources.subscription("resources/subscribe", request.params.uri) as never,
    );
    server.setRequestHandler(
      UnsubscribeRequestSchema,
      async (request) =>
        this.#resources.subscription("resources/unsubscribe", request.params.uri) as never,
    );
    server.setRequestHandler(
      ListPromptsRequestSchema,
      async () => listPrompts(this.#requireUpstream()) as never,
    );
    server.setRequestHandler(
      GetPromptRequestSchema,
      async (request, extra) =>
        getPrompt(
          this.#requireUpstream(),
          request.params as Record<string, unknown>,
          extra.signal,
        ) as never,
    );
    server.setRequestHandler(
      CompleteRequestSchema,
      async (request, extra) =>
        complete(
          this.#requireUpstream(),
          this.#resources,
          request.params as Record<string, unknown>,
          extra.signal,
        ) as never,
    );
    server.setRequestHandler(
      SetLevelRequestSchema,
      async (request) =>
        setLogLevel(this.#requireUpstream(), request.params as Record<string, unknown>) as never,
    );
  }
}

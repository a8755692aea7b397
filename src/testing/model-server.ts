/**
 * A scripted OpenAI-compatible Chat Completions server over real HTTP, for tests that drive
 * the real AI SDK providers without any LLM API. Replies come from a scenario (one per
 * request, in order) or from a policy function that reads the request. Every response says
 * it is scripted: model ids contain "scripted", bodies carry `system_fingerprint:
 * "spillway-scripted"` and responses the header `x-spillway-scripted: true`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { completionBody, countUsage, SCRIPTED_FINGERPRINT, streamChunks } from "./chat-response.js";
import { type ChatRequest, parseChatRequest } from "./chat-types.js";
import { type Responder, resolveReply, type ScriptedReply } from "./scripted-reply.js";

/** The default model id of a scripted server. */
export const DEFAULT_SCRIPTED_MODEL_ID = "scripted-policy";

/** An answer the server gave that a test did not script: a bad request, a missing reply, … */
export interface ScriptedServerFailure {
  /** The request's index in `requests`, or -1 when it was refused before being recorded (bad body, unknown model). */
  callIndex: number;
  status: number;
  /** Machine-readable reason, also the `error.code` of the response body. */
  code: "invalid_request" | "scenario_exhausted" | "responder_failed" | "model_not_found";
  message: string;
}

export interface ScriptedModelServer {
  /** The OpenAI-compatible base URL, e.g. `http://127.0.0.1:41234/v1`. */
  readonly baseURL: string;
  /** Every valid chat request for a scripted model, in order (index = callIndex = scenario position). */
  readonly requests: ChatRequest[];
  /** Every unscripted failure the server answered with (should stay empty in a passing test). */
  readonly failures: ScriptedServerFailure[];
  readonly modelId: string;
  /** Stops listening, aborts pending replies and drops open connections. */
  close(): Promise<void>;
}

export interface ScriptedModelServerOptions {
  /** Replies served in order, one per request; a request beyond the last gets HTTP 500. */
  scenario?: ScriptedReply[];
  /** A policy deciding each reply from the request (takes precedence over `scenario`). */
  respond?: Responder;
  /** Must contain "scripted"; default "scripted-policy". Requests may name any id containing "scripted". */
  modelId?: string;
  /** Delay applied to replies without their own `delayMs`. */
  defaultDelayMs?: number;
  /** Port to listen on (127.0.0.1); default 0, a random free port. */
  port?: number;
}

const SCRIPTED_HEADERS = { "x-spillway-scripted": "true" } as const;

/**
 * Starts a scripted OpenAI-compatible server on 127.0.0.1.
 *
 * @example
 * const server = await startScriptedModelServer({
 *   scenario: [toolCall("echo", { text: "hi" }), finalText("done")],
 * });
 * const provider = createOpenAICompatible({ name: "scripted", baseURL: server.baseURL, apiKey: "test" });
 * const result = await generateText({ model: provider(server.modelId), prompt: "go", tools });
 * await server.close();
 */
export async function startScriptedModelServer(
  options: ScriptedModelServerOptions,
): Promise<ScriptedModelServer> {
  const modelId = options.modelId ?? DEFAULT_SCRIPTED_MODEL_ID;
  if (!modelId.includes("scripted")) {
    throw new TypeError(
      `modelId "${modelId}" must contain "scripted" so no output passes for a real model.`,
    );
  }
  const requests: ChatRequest[] = [];
  const failures: ScriptedServerFailure[] = [];
  const closing = new AbortController();

  const fail = (res: ServerResponse, failure: ScriptedServerFailure) => {
    failures.push(failure);
    sendError(res, failure.status, failure.message, failure.code);
  };

  /**
   * What a responder sees: the request, with `tools` narrowed to the one a named `tool_choice`
   * requires (an API that enforces it lets the model call nothing else). `requests` keeps the
   * request as it was sent.
   */
  const callableView = (request: ChatRequest): ChatRequest => {
    const choice = request.tool_choice as
      | { type?: string; function?: { name?: string } }
      | undefined;
    const name = choice?.type === "function" ? choice.function?.name : undefined;
    if (name === undefined || !request.tools) return request;
    return { ...request, tools: request.tools.filter((t) => t.function.name === name) };
  };
  const chooseReply = async (
    request: ChatRequest,
    callIndex: number,
    signal: AbortSignal,
  ): Promise<ScriptedReply | ScriptedServerFailure> => {
    if (options.respond) {
      try {
        return await options.respond(callableView(request), { callIndex, signal });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return {
          callIndex,
          status: 500,
          code: "responder_failed",
          message: `spillway scripted model: the respond policy threw on request #${callIndex}: ${reason}`,
        };
      }
    }
    const reply = options.scenario?.[callIndex];
    if (reply !== undefined) return reply;
    const length = options.scenario?.length ?? 0;
    return {
      callIndex,
      status: 500,
      code: "scenario_exhausted",
      message:
        `spillway scripted model: the scenario ran out: this is request #${callIndex} (0-based) ` +
        `but the scenario has only ${length} ${length === 1 ? "reply" : "replies"}. ` +
        "Add a reply to the scenario or pass a respond policy.",
    };
  };

  const handleChat = async (req: IncomingMessage, res: ServerResponse, signal: AbortSignal) => {
    const bodyText = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(bodyText);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      fail(res, {
        callIndex: -1,
        status: 400,
        code: "invalid_request",
        message: `Request body is not valid JSON: ${reason}`,
      });
      return;
    }
    const parsed = parseChatRequest(body);
    if (!parsed.ok) {
      fail(res, { callIndex: -1, status: 400, code: "invalid_request", message: parsed.message });
      return;
    }
    const { request, includeUsage } = parsed;
    // Refused before it is recorded, so it takes no scenario reply.
    if (!request.model.includes("scripted")) {
      fail(res, {
        callIndex: -1,
        status: 404,
        code: "model_not_found",
        message: `The model "${request.model}" does not exist on this scripted server; it serves "${modelId}" (any model id containing "scripted" is accepted).`,
      });
      return;
    }
    const callIndex = requests.push(request) - 1;
    const chosen = await chooseReply(request, callIndex, signal);
    if ("code" in chosen) {
      fail(res, chosen);
      return;
    }
    await sleep(chosen.delayMs ?? options.defaultDelayMs ?? 0, signal);
    if (signal.aborted) return;
    if (chosen.error) {
      const { status, message, retryAfterMs } = chosen.error;
      const headers = retryAfterMs !== undefined ? { "retry-after-ms": String(retryAfterMs) } : {};
      sendError(res, status, message, "scripted_error", headers);
      return;
    }
    const reply = resolveReply(chosen, callIndex);
    const usage = await countUsage(request, reply);
    const identity = {
      id: `chatcmpl-scripted-${callIndex}`,
      model: request.model,
      created: Math.floor(Date.now() / 1000),
    };
    if (request.stream !== true) {
      sendJson(res, 200, completionBody(identity, reply, usage));
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...SCRIPTED_HEADERS,
    });
    for (const chunk of streamChunks(identity, reply, usage, includeUsage)) {
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end("data: [DONE]\n\n");
  };

  const server = createServer((req, res) => {
    const requestAbort = new AbortController();
    const onClosing = () => requestAbort.abort();
    closing.signal.addEventListener("abort", onClosing, { once: true });
    res.on("close", () => {
      closing.signal.removeEventListener("abort", onClosing);
      if (!res.writableFinished) requestAbort.abort();
    });
    route(req, res, requestAbort.signal).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      if (!res.headersSent)
        sendError(res, 500, `spillway scripted model: internal error: ${reason}`, "internal_error");
      else res.destroy();
    });
  });

  const route = async (req: IncomingMessage, res: ServerResponse, signal: AbortSignal) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
    if (path === "/v1/chat/completions") {
      if (req.method !== "POST")
        return sendError(res, 405, "Use POST for /v1/chat/completions.", "method_not_allowed");
      return handleChat(req, res, signal);
    }
    if (path === "/v1/models" && req.method === "GET") {
      return sendJson(res, 200, {
        object: "list",
        data: [{ id: modelId, object: "model", created: 0, owned_by: SCRIPTED_FINGERPRINT }],
      });
    }
    sendError(
      res,
      404,
      `No route ${req.method} ${path} on the spillway scripted model server; it serves POST /v1/chat/completions and GET /v1/models.`,
      "not_found",
    );
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    failures,
    modelId,
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...SCRIPTED_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

/** An OpenAI-style error body: `{ error: { message, type, code } }`. */
function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  code: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error: { message, type: code, code, param: null } }, headers);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

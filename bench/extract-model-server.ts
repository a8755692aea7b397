/**
 * The extraction benchmark's scripted model server, in a process of its own, the way a real
 * model server is remote: its request parsing and token counting do not run on the event loop
 * of the engine being measured.
 *
 *   node --import tsx bench/extract-model-server.ts <latencyMs>     (started by extract-bench.ts)
 *
 * It times every request on the server side, from its arrival to the end of the response, so
 * the benchmark can tell the model's time from the engine's. Over IPC it sends
 * `{ type: "ready", baseURL }`, answers `{ type: "stats", id }` with the requests, failures,
 * timings and CPU time so far, and stops on `{ type: "close" }` or a disconnect.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import { syncBuiltinESMExports } from "node:module";

/** One request as the server saw it; times are epoch milliseconds (sub-millisecond precision). */
export interface ServerSpan {
  /** "map:<chunk>" or "reduce:" (see extractionCall), "" when not an extraction call. */
  call: string;
  startMs: number;
  endMs: number;
}

export interface ServerStats {
  readonly requests: number;
  readonly failures: string[];
  /** Every request answered so far, in the order they finished. */
  readonly spans: ServerSpan[];
  /** CPU time of the server process (user + system). */
  readonly cpuMs: number;
}

export type ParentMessage = { type: "stats"; id: number } | { type: "close" };
export type ChildMessage =
  | { type: "ready"; baseURL: string }
  | ({ type: "stats"; id: number } & ServerStats);

const epochMs = () => performance.timeOrigin + performance.now();

const current = new AsyncLocalStorage<ServerSpan>();
const spans: ServerSpan[] = [];

/**
 * Wraps node:http's createServer (before the scripted server is loaded) so that each request
 * runs in its own async context holding its span: the policy names the call, the response's
 * "finish" closes the span.
 */
function timeRequests(): void {
  const createServer = http.createServer;
  const timed = (listener: http.RequestListener) =>
    createServer((req, res) => {
      const span: ServerSpan = { call: "", startMs: epochMs(), endMs: 0 };
      res.on("finish", () => {
        span.endMs = epochMs();
        spans.push(span);
      });
      current.run(span, () => listener(req, res));
    });
  Object.assign(http, { createServer: timed });
  syncBuiltinESMExports();
}

async function main(): Promise<void> {
  const latencyMs = Number(process.argv[2]);
  if (!Number.isFinite(latencyMs) || latencyMs < 0) {
    throw new Error("usage: extract-model-server.ts <latencyMs>");
  }
  if (!process.send) throw new Error("extract-model-server.ts runs as a child with an IPC channel");
  timeRequests();
  const { startScriptedModelServer, extractionCall } = await import("../src/testing/index.js");
  const { extractionPolicy } = await import("./extract-policy.js");
  const policy = extractionPolicy(latencyMs);
  const server = await startScriptedModelServer({
    respond: (request, context) => {
      const span = current.getStore();
      const call = extractionCall(request);
      if (span && call) span.call = `${call.kind}:${call.kind === "map" ? call.chunk : ""}`;
      return policy(request, context);
    },
  });
  const send = (message: ChildMessage) => process.send?.(message);
  let closing: Promise<void> | undefined;
  const stop = () => {
    closing ??= server.close().finally(() => {
      if (process.connected) process.disconnect();
    });
    return closing;
  };
  process.on("disconnect", () => void stop());
  process.on("message", (message: ParentMessage) => {
    if (message.type === "close") {
      void stop();
      return;
    }
    const { user, system } = process.cpuUsage();
    send({
      type: "stats",
      id: message.id,
      requests: server.requests.length,
      failures: server.failures.map((f) => `#${f.callIndex} ${f.code}: ${f.message}`),
      spans,
      cpuMs: (user + system) / 1000,
    });
  });
  send({ type: "ready", baseURL: server.baseURL });
}

await main();

/**
 * The real spillway runtime for the evaluation: runAgent with its default settings, the AI SDK's
 * openai-compatible provider over HTTP against the scripted model server (which plays the agent
 * and, for extract, the extraction model), and an in-process MCP server over Streamable HTTP
 * whose `fetch` tool returns the workload's output, so every result goes through spillway's
 * one interception point exactly as a user's tool result would.
 */
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import type { GuidanceSwitch } from "../src/config/guidance.js";
import { openSqliteStores, type SpillwayStores } from "../src/store/sqlite-history-store.js";
import {
  type Responder,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../src/testing/index.js";
import { CONTEXT_WINDOW, MAX_OUTPUT_TOKENS } from "./episode.js";

/** The model ref the agent uses: the scripted server, configured as a user configures a model. */
export const EVAL_MODEL = "openai-compatible/eval/scripted-agent";
/** The same scripted server, playing the extract-first strategy (spillway extract). */
export const EVAL_EXTRACT_MODEL = "openai-compatible/eval/scripted-extract-agent";

export interface SpillwayEnv {
  readonly dir: string;
  readonly agentPath: string;
  readonly stores: SpillwayStores;
  readonly server: ScriptedModelServer;
  /** Outputs the MCP `fetch` tool serves, by document id. */
  readonly outputs: Map<string, string>;
  close(): Promise<void>;
}

/** An MCP server over Streamable HTTP (one transport per MCP session) serving `outputs`. */
async function startDataServer(outputs: Map<string, string>) {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (req.method !== "POST" || sessionId !== undefined) {
      res.writeHead(404).end("unknown session");
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    const server = new McpServer({ name: "spillway-eval-data", version: "1.0.0" });
    server.registerTool(
      "fetch",
      {
        description: "Returns a stored API response, log or document by its id.",
        inputSchema: { output: z.string() },
      },
      async ({ output }) => {
        const text = outputs.get(output);
        if (text === undefined)
          return { content: [{ type: "text", text: `no output ${output}` }], isError: true };
        return { content: [{ type: "text", text }] };
      },
    );
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close()));
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}

/** Starts the model server, the data server, a store and the agent's files. */
export async function startSpillwayEnv(
  respond: Responder,
  ablate: readonly GuidanceSwitch[] = [],
): Promise<SpillwayEnv> {
  const dir = await mkdtemp(join(tmpdir(), "spillway-eval-"));
  const outputs = new Map<string, string>();
  const server = await startScriptedModelServer({ respond });
  const data = await startDataServer(outputs);
  await writeFile(
    join(dir, "spillway.config.json"),
    JSON.stringify({
      providers: { "openai-compatible": { eval: { baseURL: server.baseURL } } },
      models: Object.fromEntries(
        [EVAL_MODEL, EVAL_EXTRACT_MODEL].map((ref) => [
          ref,
          { contextWindow: CONTEXT_WINDOW, maxOutputTokens: MAX_OUTPUT_TOKENS },
        ]),
      ),
      ...(ablate.length > 0
        ? { defaults: { guidance: Object.fromEntries(ablate.map((name) => [name, false])) } }
        : {}),
    }),
  );
  const agentPath = join(dir, "analyst.md");
  await writeFile(
    agentPath,
    [
      "---",
      "description: Answers questions about large tool outputs",
      `models: ["${EVAL_MODEL}"]`,
      "maxTurns: 12",
      "mcpServers:",
      `  data: { url: "${data.url}" }`,
      "---",
      "You answer the question from the output of the data tool. Quote values exactly.",
      "",
    ].join("\n"),
  );
  const stores = await openSqliteStores({ home: join(dir, "home") });
  return {
    dir,
    agentPath,
    stores,
    server,
    outputs,
    close: async () => {
      await stores.close();
      await data.close();
      await server.close();
      // SPILLWAY_EVAL_KEEP=1 keeps the store, so `spillway --home <dir>/home sessions show`
      // can replay what the model saw.
      if (process.env.SPILLWAY_EVAL_KEEP === "1") console.error(`  kept ${join(dir, "home")}`);
      else await rm(dir, { recursive: true, force: true });
    },
  };
}

import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { firstText, handleId, startTestGateway } from "../../test/helpers/gateway-fixture.js";
import { tempDir } from "../../test/helpers/temp-store.js";
import { loadConfigFile } from "../config/index.js";
import { openSqliteStores } from "../store/sqlite-history-store.js";
import {
  extractionCall,
  extractionReport,
  noRelevantData,
  startScriptedModelServer,
} from "../testing/index.js";
import { resolveGatewaySettings } from "./gateway-settings.js";

/**
 * extract through the client's own model: map and reduce calls become MCP sampling requests to
 * the client, several at once. The client here is a scripted stand-in (not a real model): it
 * answers each request blind, from the request alone (the chunk it was sent and the query).
 */
describe("gateway extraction", () => {
  it("runs map and reduce calls as sampling requests to the client, concurrently", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const kinds: string[] = [];
    const gateway = await startTestGateway({
      cli: { samplingContextWindow: 4096, samplingConcurrency: 3 },
      capabilities: { sampling: {} },
      setup: (client) => {
        client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((r) => setTimeout(r, 30));
          inFlight--;
          const user = request.params.messages
            .map((m) => (m.content as { text?: string }).text ?? "")
            .join("\n");
          const call = extractionCall({
            model: "client",
            messages: [
              { role: "system", content: request.params.systemPrompt ?? "" },
              { role: "user", content: user },
            ],
          });
          if (!call) throw new Error("not an extraction request");
          kinds.push(call.kind);
          // Blind: the literal it looks for is the token in the query, found in what it was sent.
          const wanted = /[A-Z]+-\d+/.exec(call.query)?.[0] ?? "";
          const line = call.text.split("\n").find((l) => l.includes(wanted));
          const reply =
            call.kind === "map" && !line
              ? noRelevantData(call.nonce).text
              : extractionReport(call.nonce, `The line is: ${line ?? wanted}`, line ? [line] : []);
          return { role: "assistant", content: { type: "text", text: reply }, model: "stand-in" };
        });
      },
    });
    try {
      const { tools } = await gateway.client.listTools();
      const read = tools.find((t) => t.name === "get_tool_output")!;
      expect(JSON.stringify(read.inputSchema)).toContain('"extract"');
      const big = await gateway.client.callTool({
        name: "big_text",
        arguments: { bytes: 60_000, needle: "the deploy id is DEPLOY-4471" },
      });
      const id = handleId(big);
      const result = await gateway.client.callTool({
        name: "get_tool_output",
        arguments: { id, mode: "extract", query: "Which line mentions DEPLOY-4471?" },
      });
      const text = firstText(result);
      expect(result.isError).toBeFalsy();
      expect(text).toContain("the deploy id is DEPLOY-4471");
      expect(text).toMatch(/Verified quotes from out_\w+/);
      expect(text).toMatch(
        /\[extraction: full-chunked \(auto\), \d+ of \d+ chunks searched, model mcp-sampling\/client/,
      );
      expect(kinds.filter((k) => k === "map").length).toBeGreaterThan(3);
      // One chunk found it: its answer is the result (a reduce call runs when several do).
      expect(kinds.every((k) => k === "map" || k === "reduce")).toBe(true);
      expect(maxInFlight).toBeGreaterThan(1);
      expect(maxInFlight).toBeLessThanOrEqual(3);
    } finally {
      await gateway.close();
    }
  });

  it("uses the configured extraction model when the client has no sampling", async () => {
    // A scripted OpenAI-compatible server stands in for the model (not a real model); it
    // answers each extraction call blind, from the chunk and query in the request.
    const model = await startScriptedModelServer({
      respond: (request) => {
        const call = extractionCall(request);
        if (!call) return { text: "not an extraction call" };
        const line = call.text.split("\n").find((l) => l.includes("DEPLOY-9"));
        return call.kind === "map" && !line
          ? noRelevantData(call.nonce)
          : {
              text: extractionReport(
                call.nonce,
                `Found: ${line ?? "DEPLOY-9"}`,
                line ? [line] : [],
              ),
            };
      },
    });
    const dir = await tempDir();
    const configPath = join(dir, "spillway.config.json");
    await writeFile(
      configPath,
      JSON.stringify({
        providers: { "openai-compatible": { stand: { baseURL: model.baseURL } } },
        models: { [`openai-compatible/stand/${model.modelId}`]: { contextWindow: 8192 } },
      }),
    );
    const loaded = await loadConfigFile(configPath);
    const gateway = await startTestGateway({
      settings: (base) => {
        const resolved = resolveGatewaySettings(
          { command: ["unused"], extractionModels: [`openai-compatible/stand/${model.modelId}`] },
          loaded,
          {},
        );
        return { ...base, extraction: resolved.extraction };
      },
    });
    try {
      const big = await gateway.client.callTool({
        name: "big_text",
        arguments: { bytes: 40_000, needle: "release DEPLOY-9 rolled back" },
      });
      const result = await gateway.client.callTool({
        name: "get_tool_output",
        arguments: { id: handleId(big), mode: "extract", query: "What happened to DEPLOY-9?" },
      });
      expect(result.isError).toBeFalsy();
      expect(firstText(result)).toContain("release DEPLOY-9 rolled back");
      expect(firstText(result)).toContain(`model openai-compatible/stand/${model.modelId}`);
      expect(model.requests.length).toBeGreaterThan(1);
      expect(model.failures).toEqual([]);
    } finally {
      await gateway.close();
      await model.close();
    }
  });

  it("says plainly that no model is available when the client has no sampling and none is configured", async () => {
    const gateway = await startTestGateway();
    try {
      const big = await gateway.client.callTool({ name: "big_text", arguments: { bytes: 30_000 } });
      const result = await gateway.client.callTool({
        name: "get_tool_output",
        arguments: { id: handleId(big), mode: "extract", query: "anything" },
      });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain(
        'No model is available for mode="extract": the client did not declare the MCP sampling capability, and no extraction model is configured',
      );
      expect(gateway.logs.some((l) => l.includes("extract: none available"))).toBe(true);
    } finally {
      await gateway.close();
    }
  });

  it("resumes a session: earlier outputs stay readable and calls number on", async () => {
    const first = await startTestGateway();
    const big = await first.client.callTool({ name: "big_text", arguments: { bytes: 30_000 } });
    const id = handleId(big);
    const sessionId = first.session.sessionId!;
    await first.close({ keepHome: true });
    const again = await startTestGateway({ home: first.home, resume: sessionId });
    expect(again.session.sessionId).toBe(sessionId);
    const read = await again.client.callTool({
      name: "get_tool_output",
      arguments: { id, mode: "slice", slice: { line_start: 2, line_end: 2 } },
    });
    expect(firstText(read)).toContain("line 0000002");
    await again.close({ keepHome: true });
    const stores = await openSqliteStores({ home: first.home });
    try {
      const session = await stores.history.getSession(sessionId);
      expect(session).toMatchObject({ agentName: "mcp-gateway", status: "completed", turns: 2 });
      const calls = await stores.history.toolCalls(sessionId);
      expect(calls.map((c) => c.toolName)).toEqual(["big_text", "get_tool_output"]);
    } finally {
      await stores.close();
      await rm(first.home, { recursive: true, force: true });
    }
  });
});

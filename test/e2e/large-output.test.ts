import { describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/run-agent.js";
import { findOutputIds, type Responder, toolCall, toolMessages } from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "../helpers/agent-fixture.js";

/**
 * Hundreds of MB through the whole pipeline: an MCP tool returns a 200 MB log in one message,
 * the runtime stores it whole, the model gets a handle and greps the needle out of it.
 */
describe("a 200 MB tool output", () => {
  it("comes through MCP, is stored whole and is searchable by the model", async () => {
    const needle = "NEEDLE-two-hundred-megabytes";
    const bytes = 200 * 1024 * 1024;
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0) {
        return toolCall("test__generate_output", { bytes, kind: "log", needle, needle_at: 0.9 });
      }
      if (results.length === 1) {
        return toolCall("get_tool_output", {
          id: findOutputIds(results[0]!.text)[0],
          mode: "grep",
          pattern: needle,
        });
      }
      return toolCall("agent__final_report", { report: results[1]!.text });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("large", {
      mcpServers: { test: testServerSpec() },
      toolTimeoutSecs: 240,
    });
    const started = performance.now();
    const result = await runAgent({
      agent,
      prompt: "find it",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`[large-output] 200 MB through MCP, stored and grepped in ${seconds.toFixed(1)} s`);
    expect(result.status, result.error ?? "").toBe("completed");
    expect(result.report).toMatch(/1 matching line; showing 1/);
    expect(result.report).toContain(needle);
    const [record] = await fixture.stores.outputs.list({ sessionId: result.sessionId });
    expect(record!.byteSize).toBe(bytes);
    expect(
      (await fixture.stores.outputs.verify(record!.id, { sessionId: result.sessionId })).ok,
    ).toBe(true);
  }, 300_000);
});

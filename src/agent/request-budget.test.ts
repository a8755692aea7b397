/**
 * What a request really carries is budgeted (SW-21): tool definitions, instructions, history and
 * the notice, with a margin for the model's own tokenizer; and the default surface's tools are
 * listed from the first turn so the tool list (and a provider's prompt cache) holds (SW-20).
 */
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { countTokens } from "../core/tokens.js";
import {
  type ChatRequest,
  findOutputIds,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
  toolNames,
} from "../testing/index.js";
import { runAgent } from "./run-agent.js";
import { TOKENIZER_MARGINS } from "./session-context.js";

/** Every token a request carries, counted as the projection counts (o200k_base). */
async function sentTokens(request: ChatRequest): Promise<number> {
  let total = await countTokens(JSON.stringify(request.tools ?? []));
  for (const message of request.messages) {
    total += await countTokens(textOf(message));
    if (message.role === "assistant")
      for (const call of message.tool_calls ?? [])
        total += await countTokens(call.function.name + call.function.arguments);
  }
  return total;
}

const pager = (reads: number): Responder => {
  return (request) => {
    const results = toolMessages(request);
    if (results.length === 0)
      return toolCall("test__generate_output", { bytes: 200_000, kind: "text" });
    if (results.length <= reads) {
      const id = findOutputIds(results[0]!.text)[0];
      return toolCall("get_tool_output", { id, mode: "page", cursor: (results.length - 1) * 2000 });
    }
    return toolCall("agent__final_report", { report: "done" });
  };
};

describe("the request budget", () => {
  it("keeps every request, tool definitions included, within the window as the model counts it", async () => {
    const fixture = await agentFixture(pager(14));
    const window = 8_000;
    const reply = 500;
    const agent = await fixture.agent("tight", {
      mcpServers: { test: testServerSpec() },
      contextWindow: window,
      maxOutputTokens: reply,
      maxTurns: 30,
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    const margin = TOKENIZER_MARGINS["openai-compatible"];
    expect(margin).toBeGreaterThan(1);
    let largest = 0;
    for (const request of fixture.server.requests)
      largest = Math.max(largest, await sentTokens(request));
    // The pages filled the window: shortening had to happen, and every request still fit.
    expect(largest * margin).toBeGreaterThan((window - reply) * 0.8);
    expect(largest * margin).toBeLessThanOrEqual(window - reply);
  });

  it("lists get_tool_output from the first turn, so the tool list holds until the final turn", async () => {
    const fixture = await agentFixture(pager(2));
    const agent = await fixture.agent("steady", { mcpServers: { test: testServerSpec() } });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    const lists = fixture.server.requests.map((r) => toolNames(r).join(","));
    expect(lists[0]).toContain("get_tool_output");
    expect(new Set(lists).size).toBe(1);
    // Before any output is stored, the notice does not offer to read one.
    const notice = textOf(fixture.server.requests[0]!.messages.at(-1)!);
    expect(notice).not.toContain("Read stored tool outputs");
  });

  it("keeps the tool_output compatibility surface unlisted until an output is shown by handle (D0-15)", async () => {
    const fixture = await agentFixture((request) =>
      toolMessages(request).length === 0
        ? toolCall("test__generate_output", { bytes: 60_000, kind: "text" })
        : toolCall("agent__final_report", { report: "done" }),
    );
    const agent = await fixture.agent("tool-output", {
      mcpServers: { test: testServerSpec() },
      toolOutput: { surface: "tool_output" },
    });
    await runAgent({ agent, prompt: "go", stores: fixture.stores, cwd: fixture.dir });
    expect(toolNames(fixture.server.requests[0]!)).not.toContain("tool_output");
    expect(toolNames(fixture.server.requests[1]!)).toContain("tool_output");
  });
});

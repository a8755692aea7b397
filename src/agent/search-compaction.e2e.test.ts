import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import {
  isSummarizerRequest,
  scriptedSummary,
  summaryMessage,
} from "../../test/helpers/compaction-policy.js";
import {
  type ChatRequest,
  finalText,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";

/**
 * Nothing the session saw is out of reach: an output compacted out of the model's context is
 * still found by a search without an id (scripted model over real HTTP, the real MCP test
 * server, real SQLite). The agent is blind: it remembers only the words it looks for, never a
 * handle; it searches once the needle's result is no longer in what it is sent.
 */

const NEEDLE = "BOOT-MARKER-ALPHA=7f3a9c";
const SIZES = [800, 2_500, 6_000, 15_000];

function searchingAgent(): Responder {
  let turns = 0;
  let searched = false;
  return (request: ChatRequest) => {
    if (isSummarizerRequest(request)) return scriptedSummary(request);
    turns++;
    const sent = request.messages.map(textOf).join("\n");
    const last = toolMessages(request).at(-1)?.text ?? "";
    if (turns === 1)
      return toolCall("test__generate_output", { bytes: 20_000, kind: "log", needle: NEEDLE });
    if (searched) {
      const line = last.split("\n").find((l) => l.includes(NEEDLE) && !l.startsWith("["));
      return toolCall("agent__final_report", { report: line ?? `not found in: ${last}` });
    }
    // Compacted out: a summary stands for the early turns and the needle is in none of them.
    if (summaryMessage(request) !== undefined && !sent.includes(NEEDLE)) {
      searched = true;
      return toolCall("get_tool_output", { mode: "search", query: "boot marker alpha" });
    }
    if (turns > 60) return finalText("no compaction happened");
    return toolCall("test__generate_output", {
      bytes: SIZES[turns % SIZES.length],
      kind: turns % 2 === 0 ? "log" : "json",
      seed: turns,
    });
  };
}

describe("search without an id after compaction", () => {
  it("finds a line of an output compacted out of the context, naming its output", async () => {
    const fixture = await agentFixture(searchingAgent());
    const agent = await fixture.agent("searcher", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 70,
      contextWindow: 16_384,
    });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      agent,
      prompt: "Generate outputs, then find the boot marker again.",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (event) => events.push(event),
    });
    expect(fixture.server.failures).toEqual([]);
    expect(events.some((e) => e.type === "compaction" && e.status === "compacted")).toBe(true);
    expect(result.report).toMatch(new RegExp(`^\\d+: .*${NEEDLE}`));

    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    const planted = calls.find((c) => c.argsText.includes(NEEDLE))!;
    const search = calls.find((c) => c.argsText.includes('"mode":"search"'))!;
    expect(JSON.parse(search.argsText)).toEqual({ mode: "search", query: "boot marker alpha" });
    const outputs = await fixture.stores.outputs.list({ sessionId: result.sessionId, limit: 1000 });
    expect(outputs.length).toBeGreaterThan(5);
    // The answer ranked every output of the session and named the planted one for the line.
    const answer = toolMessages(fixture.server.requests.at(-1)!).at(-1)!.text;
    expect(answer).toMatch(/^\[search of this session's \d+ outputs for "boot marker alpha"/);
    expect(answer.split("\n").find((l) => l.startsWith("[out_"))).toBe(
      `[${planted.outputId} test__generate_output]`,
    );
  });
});

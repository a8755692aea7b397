import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import {
  extractionAnswer,
  extractionCall,
  extractionReport,
  findOutputIds,
  noRelevantData,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";

const NEEDLE = "NEEDLE-extract-9d2f";

/** The read-grep agent's policy: Grep the needle, Read its line, report it quoted. */
function readGrepAgent(request: Parameters<Responder>[0], nonce: string): ReturnType<Responder> {
  const results = toolMessages(request);
  const handle = findOutputIds(textOf(request.messages[0]!))[0]!;
  if (results.length === 0) return toolCall("Grep", { file_path: handle, pattern: NEEDLE });
  if (results.length === 1) {
    const line = Number(/\n(\d+):\d+: /.exec(results[0]!.text)![1]);
    return toolCall("Read", { file_path: handle, offset: line, limit: 1 });
  }
  const line = results[1]!.text.split("\n")[1]!;
  return toolCall("agent__final_report", {
    report: extractionReport(nonce, `The needle is on this line: ${line}`, [line]),
  });
}

describe("extraction through the runtime", () => {
  it("read-grep: a sub-agent with only Read and Grep finds a needle in a 50 MB log (the exact compatibility header)", async () => {
    const respond: Responder = (request) => {
      const call = extractionCall(request);
      if (call?.kind === "read-grep") return readGrepAgent(request, call.nonce);
      const results = toolMessages(request);
      if (results.length === 0)
        return toolCall("test__generate_output", {
          bytes: 50 * 1024 * 1024,
          kind: "log",
          needle: NEEDLE,
          needle_at: 0.6,
        });
      if (results.length === 1) {
        const handle = findOutputIds(results[0]!.text)[0];
        return toolCall("tool_output", {
          handle,
          extract: `the line with ${NEEDLE}`,
          mode: "read-grep",
        });
      }
      return toolCall("agent__final_report", { report: results[1]!.text });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("rg", {
      mcpServers: { test: testServerSpec() },
      toolOutput: { surface: "tool_output" },
    });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (e) => events.push(e),
    });
    expect(result.status, result.error ?? "").toBe("completed");
    const [record] = await fixture.stores.outputs.list({ sessionId: result.sessionId });
    expect(
      result.report!.startsWith(
        `ABSTRACT FROM TOOL OUTPUT test__generate_output WITH HANDLE ${record!.id}, STRATEGY:read-grep:\n\n`,
      ),
    ).toBe(true);
    expect(result.report).toContain(`The needle is on this line: ${NEEDLE}`);
    expect(result.report).toMatch(
      /Verified quotes from out_\w+ .*\n {2}1\. chars [\d,]+-[\d,]+, line [\d,]+: "NEEDLE-extract-9d2f"/,
    );
    // The read-grep agent ran as its own session, linked to the parent, with only Read and Grep.
    const children = await fixture.stores.history.listSessions({
      parentSessionId: result.sessionId,
    });
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({ agentName: "read-grep", status: "completed" });
    const childRequest = fixture.server.requests.find(
      (r) => extractionCall(r)?.kind === "read-grep",
    )!;
    expect((childRequest.tools ?? []).map((t) => t.function.name).sort()).toEqual([
      "Grep",
      "Read",
      "agent__final_report",
    ]);
    // Its calls join the parent's totals.
    expect(result.usage.children.modelCalls).toBe(3);
    expect(events.find((e) => e.type === "extraction.end")).toMatchObject({
      strategy: "read-grep",
      found: true,
      snippets: 1,
    });
  }, 120_000);

  it("get_tool_output extract: map-reduce with verified quotes, counted and traced under its tool call", async () => {
    const respond: Responder = (request) => {
      const call = extractionCall(request);
      if (call?.kind === "map") {
        const hits = call.text.split("\n").filter((l) => l.includes(NEEDLE));
        return hits.length
          ? extractionAnswer(call.nonce, `found ${hits.length}`, hits)
          : noRelevantData(call.nonce);
      }
      if (call?.kind === "reduce") return extractionAnswer(call.nonce, "merged answer");
      const results = toolMessages(request);
      if (results.length === 0)
        return toolCall(
          "test__generate_output",
          { bytes: 300_000, kind: "log", needle: NEEDLE },
          "call_gen",
        );
      if (results.length === 1) {
        const id = findOutputIds(results[0]!.text)[0];
        return toolCall(
          "get_tool_output",
          { id, mode: "extract", query: `the line with ${NEEDLE}`, strategy: "full-chunked" },
          "call_extract",
        );
      }
      return toolCall("agent__final_report", { report: results[1]!.text });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("ex", {
      mcpServers: { test: testServerSpec() },
      contextWindow: 16_000,
      extraction: { concurrency: 3 },
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status, result.error ?? "").toBe("completed");
    expect(result.report).toMatch(
      new RegExp(
        `^found 1\\n\\nVerified quotes from out_\\w+ .*\\n {2}1\\. chars [\\d,]+-[\\d,]+, line [\\d,]+: "${NEEDLE}"`,
      ),
    );
    expect(result.report).toMatch(
      /\[extraction: full-chunked, (\d+) of \1 chunks searched, model openai-compatible\/scripted\/scripted-policy, confidence 1\.00\]/,
    );
    const maps = fixture.server.requests.filter((r) => extractionCall(r)?.kind === "map").length;
    expect(maps).toBeGreaterThan(3);
    expect(result.usage.children.modelCalls).toBe(maps);
    expect(result.usage.total.modelCalls).toBe(3 + maps);
    const trace = (await readFile(result.tracePath, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const calls = trace.filter((e) => e.type === "extraction.call");
    expect(calls).toHaveLength(maps);
    for (const call of calls) {
      expect(call).toMatchObject({ toolCallId: "call_extract", phase: "map" });
      expect(String(call.responsePreview).length).toBeLessThanOrEqual(200);
      expect(call.requestBytes).toBeGreaterThan(1000);
    }
  });
});

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { readOutput } from "../retrieval/read-output.js";
import {
  findOutputIds,
  lastMessage,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";

const NEEDLE = "NEEDLE-disk-full-on-sda7";

/** A policy that generates a large log, greps the handle for the needle, slices around it, reports. */
const needlePolicy: Responder = (request) => {
  const results = toolMessages(request);
  const last = results[results.length - 1];
  if (!last)
    return toolCall("test__generate_output", {
      bytes: 2_000_000,
      kind: "log",
      needle: NEEDLE,
      needle_at: 0.5,
    });
  if (last.toolName === "test__generate_output") {
    const [id] = findOutputIds(last.text);
    return toolCall("get_tool_output", { id, mode: "grep", pattern: NEEDLE });
  }
  if (last.toolName === "get_tool_output" && last.text.includes(" grep ")) {
    const line = /\n(\d+):\d+: /.exec(last.text)?.[1];
    const [id] = findOutputIds(last.text);
    return toolCall("get_tool_output", {
      id,
      mode: "slice",
      slice: { line_start: Number(line) - 1, line_end: Number(line) + 1 },
    });
  }
  const found = last.text.split("\n").find((l) => l.includes(NEEDLE));
  return toolCall("agent__final_report", { report: `Found: ${found}` });
};

describe("runAgent with the scripted model and the test MCP server", () => {
  it("stores a large output whole, shows a handle, and the model retrieves the needle", async () => {
    const fixture = await agentFixture(needlePolicy);
    // Async off: above asyncTokenThreshold the size trigger would announce the output ready
    // (async-tools.e2e.test.ts covers that); this test is about the handle message.
    const agent = await fixture.agent("needle", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 6,
      async: false,
    });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      agent,
      // Words the output does not hold: the handle message's search for the task finds no line,
      // so the needle reaches the model only through its own reads (handle-task-term.test.ts
      // covers the search lines).
      prompt: "Report the storage fault.",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (e) => events.push(e),
    });
    expect(result.error).toBeNull();
    expect(result.status).toBe("completed");
    expect(result.report).toContain(NEEDLE);
    expect(result.turns).toBe(4);

    // The first tool result the model saw was the handle message, not the output.
    const second = fixture.server.requests[1]!;
    const handle = toolMessages(second)[0]!.text;
    expect(
      handle.startsWith("[spillway] The output of test__generate_output is stored whole as out_"),
    ).toBe(true);
    expect(handle).toContain('get_tool_output(id="out_');
    expect(handle).not.toContain(NEEDLE);
    expect(handle).not.toContain("A search of it for the words of your task");
    // No request carries a System Notice: nothing runs in the background, the context is far
    // from its warn level and the session ends before its last two turns (notice.ts).
    for (const request of fixture.server.requests)
      expect(textOf(lastMessage(request))).not.toContain("# System Notice");
    expect(toolMessages(fixture.server.requests[3]!).at(-1)!.text).toContain(NEEDLE);

    // The canonical store holds the whole output, byte for byte.
    const [outputId] = findOutputIds(handle);
    const record = await fixture.stores.outputs.get(outputId!, { sessionId: result.sessionId });
    expect(record.byteSize).toBeGreaterThanOrEqual(2_000_000);
    const raw = await readOutput(
      fixture.stores.outputs,
      outputId!,
      { sessionId: result.sessionId },
      { mode: "raw", maxChars: 3_000_000 },
    );
    expect(createHash("sha256").update(raw.text).digest("hex")).toBe(record.sha256);
    expect(record.readCount).toBeGreaterThanOrEqual(2);

    // Canonical history: every call has exactly one result; no truncation markers anywhere.
    const messages = await fixture.stores.history.messages(result.sessionId);
    const calls = messages.flatMap((m) =>
      m.parts.filter((p) => p.type === "tool-call").map((p) => p.toolCallId),
    );
    const results = messages.flatMap((m) =>
      m.parts.filter((p) => p.type === "tool-result").map((p) => p.toolCallId),
    );
    expect(results.sort()).toEqual(calls.sort());
    expect(JSON.stringify(messages)).not.toMatch(/\[truncated/);
    expect(events.map((e) => e.type)).toContain("tool.end");
    expect(
      events.find((e) => e.type === "tool.end" && e.toolName === "test__generate_output"),
    ).toMatchObject({ shown: "handle" });
    expect(result.usage.total.modelCalls).toBe(4);
    expect(result.usage.byModel["openai-compatible/scripted/scripted-policy"]?.calls).toBe(4);
  });

  it("sends no notice for an output announced as ready for its size: its call came back with it", async () => {
    const fixture = await agentFixture(needlePolicy);
    const agent = await fixture.agent("needle-ready", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 6,
    });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      agent,
      prompt: "Report the storage fault.",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (e) => events.push(e),
    });
    expect(result.report).toContain(NEEDLE);
    expect(
      events.find((e) => e.type === "tool.end" && e.toolName === "test__generate_output"),
    ).toMatchObject({ shown: "ready" });
    for (const request of fixture.server.requests)
      expect(textOf(lastMessage(request))).not.toContain("# System Notice");
  });
});

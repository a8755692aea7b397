/**
 * Async tools end to end, their lifecycle: abort and graceful stop with tools in the background,
 * and async sub-agents (run in parallel, aborted with their parent); the real test MCP server,
 * the scripted model server over HTTP, a real SQLite store.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { runAgent } from "../../src/agent/run-agent.js";
import {
  findOutputIds,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
  toolNames,
} from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "../helpers/agent-fixture.js";
import {
  calls,
  markedServer,
  noticeOf,
  processesWith,
  report,
  setup,
  slow,
} from "../helpers/async-session.js";

describe("async tools: lifecycle", () => {
  it("abort mid-flight cancels background tools at once: recorded as aborted, no orphan processes", async () => {
    const respond: Responder = (request) =>
      toolMessages(request).length === 0
        ? calls(slow(60, "never"), { name: "test__echo", arguments: { text: "go on" } })
        : { ...toolCall("wait_for_tool_output", {}) };
    const { fixture, agent, marker } = await setup(respond);
    const controller = new AbortController();
    let serverPids: number[] = [];
    const started = performance.now();
    const result = await runAgent({
      agent,
      prompt: "abort me",
      stores: fixture.stores,
      cwd: fixture.dir,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "tool.async")
          void processesWith(marker).then((pids) => {
            serverPids = pids;
            setTimeout(() => controller.abort(new Error("user pressed stop")), 200);
          });
      },
    });
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result.status).toBe("aborted");
    expect(serverPids.length).toBeGreaterThan(0);
    const [record] = (await fixture.stores.outputs.list({ sessionId: result.sessionId })).filter(
      (r) => r.toolName === "test__slow",
    );
    expect(record).toMatchObject({ status: "failed", error: "aborted: user pressed stop" });
    expect(await processesWith(marker)).toEqual([]);
  }, 30_000);

  it("a session that ends with a tool still running records it as aborted; graceful stop makes the next turn final", async () => {
    const stop = new AbortController();
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0) {
        // The stop arrives while the tools run; the next turn is the final one.
        setTimeout(() => stop.abort(), 100);
        return calls(slow(30, "late"), { name: "test__echo", arguments: { text: "now" } });
      }
      return report(
        `tools: ${toolNames(request).join(",")} | ${
          noticeOf(request)
            .split("\n")
            .find((l) => l.startsWith("- test__slow")) ?? ""
        }`,
      );
    };
    const { fixture, agent, marker } = await setup(respond);
    const result = await runAgent({
      agent,
      prompt: "stop",
      stores: fixture.stores,
      cwd: fixture.dir,
      stop: stop.signal,
    });
    expect(result.status).toBe("completed");
    expect(result.report).toMatch(
      /^tools: agent__final_report \| - test__slow \(id: out_\w+, running \d+\.\ds\)$/,
    );
    // The report copies the notice's status line (runtime text): sent back once in the final
    // turn, it gets one more final turn (SW-25), and the same report is then taken.
    expect(result.turns).toBe(3);
    const [record] = (await fixture.stores.outputs.list({ sessionId: result.sessionId })).filter(
      (r) => r.toolName === "test__slow",
    );
    expect(record).toMatchObject({
      status: "failed",
      error: "aborted: the session ended before the tool finished",
    });
    expect(await processesWith(marker)).toEqual([]);
  }, 30_000);
});

describe("async sub-agents", () => {
  it("two sub-agents with async: true run in parallel; their reports become async outputs; their accounting joins the parent's", async () => {
    const respond: Responder = (request) => {
      const system = JSON.stringify(request.messages[0]?.content ?? "");
      const results = toolMessages(request);
      if (system.includes("You are a helper")) {
        const task = textOf(request.messages.find((m) => m.role === "user")!);
        if (results.length === 0) return calls(slow(1.5, `${task} done`));
        if (/### Running/.test(noticeOf(request))) return toolCall("wait_for_tool_output", {});
        const [id] = findOutputIds(results[0]!.text);
        if (results.at(-1)!.toolName !== "get_tool_output")
          return toolCall("get_tool_output", { id, mode: "raw" });
        // get_tool_output's raw answer: a provenance header line, then the output.
        return report(`helper: ${results.at(-1)!.text.split("\n").slice(1).join("\n")}`);
      }
      if (results.length === 0)
        return calls(
          { name: "agent__helper", arguments: { task: "left", async: true } },
          { name: "agent__helper", arguments: { task: "right", async: true } },
        );
      if (/### Running/.test(noticeOf(request))) return toolCall("wait_for_tool_output", {});
      const ids = findOutputIds(
        results
          .slice(0, 2)
          .map((r) => r.text)
          .join("\n"),
      );
      if (results.at(-1)!.toolName !== "get_tool_output")
        return calls(
          ...ids.map((id) => ({ name: "get_tool_output", arguments: { id, mode: "raw" } })),
        );
      const reports = results.slice(-2).map((r) => r.text.split("\n").slice(1).join("\n"));
      return report(reports.sort().join(" + "));
    };
    const fixture = await agentFixture(respond);
    const helper = await fixture.agent(
      "helper",
      {
        description: "does one slow job",
        mcpServers: { test: testServerSpec() },
        asyncTimeoutSecs: 0.3,
      },
      "You are a helper.",
    );
    const agent = await fixture.agent("parent", { agents: [helper], maxTurns: 10 });
    const events: (AgentEvent & { readonly depth: number })[] = [];
    const result = await runAgent({
      agent,
      prompt: "Do both jobs.",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (event) => events.push(event),
    });
    expect(result.error).toBeNull();
    expect(result.report).toBe("helper: left done + helper: right done");
    // In parallel: both children start before either ends (order of events, not wall time).
    const childLifecycle = events
      .filter((e) => (e.type === "session.start" || e.type === "session.end") && e.depth === 1)
      .map((e) => e.type);
    expect(childLifecycle).toEqual([
      "session.start",
      "session.start",
      "session.end",
      "session.end",
    ]);
    const parentAnswers = toolMessages(
      fixture.server.requests.find(
        (r) =>
          !JSON.stringify(r.messages[0]?.content ?? "").includes("You are a helper") &&
          toolMessages(r).length > 0,
      )!,
    );
    for (const answer of parentAnswers.slice(0, 2))
      expect(answer.text).toMatch(
        /^agent__helper goes on in the background; its output will be stored as out_\w+\.\nWait for it with wait_for_tool_output\(\)/,
      );
    const asyncEvents = events.filter((e) => e.type === "tool.async");
    expect(
      asyncEvents.filter((e) => e.type === "tool.async" && e.trigger === "explicit"),
    ).toHaveLength(2);
    // The children's model calls are in the parent's accounting.
    const childCalls = fixture.server.requests.filter((r) =>
      JSON.stringify(r.messages[0]?.content ?? "").includes("You are a helper"),
    ).length;
    expect(result.usage.total.modelCalls).toBe(fixture.server.requests.length);
    expect(childCalls).toBeGreaterThanOrEqual(6);
    const schema = fixture.server.requests[0]!.tools!.find(
      (t) => t.function.name === "agent__helper",
    )!.function.parameters as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(["task", "async"]);
  }, 30_000);

  it("an async sub-agent still running when the parent ends is aborted: its output and its session say so", async () => {
    const respond: Responder = (request) => {
      const system = JSON.stringify(request.messages[0]?.content ?? "");
      if (system.includes("You are a helper")) return calls(slow(30, "never"));
      if (toolMessages(request).length === 0)
        return calls(
          { name: "agent__helper", arguments: { task: "long job", async: true } },
          { name: "agent__task_status", arguments: { status: "started the helper" } },
        );
      return report("done without waiting");
    };
    const fixture = await agentFixture(respond);
    const marker = randomUUID();
    const helper = await fixture.agent(
      "helper",
      { mcpServers: { test: markedServer(marker) } },
      "You are a helper.",
    );
    const agent = await fixture.agent("parent", { agents: [helper], helperTools: true });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    const [record] = await fixture.stores.outputs.list({ sessionId: result.sessionId });
    expect(record).toMatchObject({
      toolName: "agent__helper",
      status: "failed",
      error: "aborted: the session ended before the tool finished",
    });
    const [child] = await fixture.stores.history.listSessions({
      parentSessionId: result.sessionId,
    });
    expect(child?.status).toBe("aborted");
    expect(await processesWith(marker)).toEqual([]);
  }, 30_000);
});

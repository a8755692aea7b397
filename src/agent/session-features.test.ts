import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import {
  findOutputIds,
  lastMessage,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
  toolNames,
} from "../testing/index.js";
import { runAgent } from "./run-agent.js";

describe("sub-agents", () => {
  it("runs an agent file as a tool in its own linked session, stores its report, and joins its accounting", async () => {
    const respond: Responder = (request) => {
      const system = textOf(request.messages[0]!);
      const results = toolMessages(request);
      if (system.includes("You are the child.")) {
        return results.length === 0
          ? toolCall("test__echo", { text: "child saw it" })
          : toolCall("agent__final_report", { report: `child report: ${results[0]!.text}` });
      }
      return results.length === 0
        ? toolCall("agent__child", { task: "look around" })
        : toolCall("agent__final_report", { report: `parent got: ${results[0]!.text}` });
    };
    const fixture = await agentFixture(respond);
    const child = await fixture.agent(
      "child",
      { description: "A helper", mcpServers: { test: testServerSpec() } },
      "You are the child.",
    );
    // The child starts an MCP server of its own, which on a loaded machine can outlast the
    // default wait before a call goes to the background; this test is about the linked session.
    const parent = await fixture.agent(
      "parent",
      { agents: ["./child.md"], asyncTimeoutSecs: 120 },
      "You are the parent.",
    );
    const result = await runAgent({
      agent: parent,
      prompt: "delegate",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    expect(result.report).toBe("parent got: child report: child saw it");
    const sessions = await fixture.stores.history.listSessions({
      parentSessionId: result.sessionId,
    });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      agentName: "child",
      status: "completed",
      parentSessionId: result.sessionId,
    });
    expect(result.usage.own.modelCalls).toBe(2);
    expect(result.usage.children.modelCalls).toBe(2);
    expect(result.usage.total.modelCalls).toBe(4);
    // The child's report is an output like any other.
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    const record = await fixture.stores.outputs.get(calls[0]!.outputId!, {
      sessionId: result.sessionId,
    });
    expect(record.toolName).toBe("agent__child");
    void child;
  });
});

describe("turn policy", () => {
  it("runs the last turn's calls as any other turn's and fails a run that never reports", async () => {
    const fixture = await agentFixture(() => toolCall("test__echo", { text: "again" }));
    const agent = await fixture.agent("stubborn", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 3,
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("failed");
    expect(result.error).toContain("used its 3 turns without delivering a final report");
    const last = fixture.server.requests.at(-1)!;
    // Listed as in the turns before (the prompt's prefix holds); the report is due, not forced.
    expect(toolNames(last)).toEqual(toolNames(fixture.server.requests.at(-2)!));
    expect(toolNames(last)).toContain("test__echo");
    expect(last.tool_choice).not.toEqual({
      type: "function",
      function: { name: "agent__final_report" },
    });
    expect(textOf(last.messages.at(-1)!)).toContain("This is your final turn");
    expect(textOf(last.messages.at(-1)!)).not.toContain("No other tool");
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.status)).toEqual(["ok", "ok", "ok"]);
  });

  it("accepts a plain-text answer as the final report", async () => {
    const fixture = await agentFixture(() => ({ text: "The answer is 42." }));
    const agent = await fixture.agent("plain", {});
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result).toMatchObject({ status: "completed", report: "The answer is 42.", turns: 1 });
  });
});

describe("agent__batch", () => {
  it("runs several calls, retrieval included, each through the interception point", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return toolCall("test__generate_output", {
          bytes: 30_000,
          kind: "log",
          needle: "BATCH-NEEDLE",
        });
      if (results.length === 1) {
        const id = findOutputIds(results[0]!.text)[0];
        return toolCall("agent__batch", {
          calls: [
            { tool: "get_tool_output", args: { id, mode: "grep", pattern: "BATCH-NEEDLE" } },
            { tool: "test__echo", args: { text: "second" } },
            { tool: "agent__final_report", args: { report: "not inside a batch" } },
          ],
        });
      }
      return toolCall("agent__final_report", { report: results[1]!.text });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("batch", {
      mcpServers: { test: testServerSpec() },
      helperTools: true,
      // The report is what the model was shown, runtime text included: a test device.
      guidance: { reportGuards: false },
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.report).toMatch(
      /### 1\. get_tool_output .*\n\[out_\w+ grep "BATCH-NEEDLE": 1 matching line/,
    );
    expect(result.report).toContain("### 2. test__echo");
    expect(result.report).toContain("second");
    expect(result.report).toMatch(/### 3\. agent__final_report .*\nError UNKNOWN_TOOL/);
    // The echo inside the batch was stored as an output of its own.
    const outputs = await fixture.stores.outputs.list({ sessionId: result.sessionId });
    expect(outputs.map((o) => o.toolName).sort()).toEqual(["test__echo", "test__generate_output"]);
  });
});

describe("legacy truncation (toolOutput.enabled: false)", () => {
  it("shows head and tail with a marker naming the handle, and still stores everything", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return toolCall("test__generate_output", { bytes: 60_000, kind: "log" });
      return toolCall("agent__final_report", { report: results[0]!.text });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("legacy", {
      mcpServers: { test: testServerSpec() },
      toolOutput: { enabled: false },
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.report).toMatch(
      /\n\[… truncated: [\d,]+ of [\d,]+ characters omitted here \(chars \d+-\d+\); the whole output is stored as out_\w+ …\]\n/,
    );
    expect(result.report!.length).toBeLessThan(13_000);
    expect(toolNames(fixture.server.requests[1]!)).not.toContain("get_tool_output");
    const [record] = await fixture.stores.outputs.list({ sessionId: result.sessionId });
    expect(record!.byteSize).toBe(60_000);
  });
});

describe("resume", () => {
  it("continues a session killed mid-tool from its canonical history", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0) return toolCall("test__slow", { seconds: 30 });
      return toolCall("agent__final_report", { report: `after resume: ${results[0]!.text}` });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("resumable", { mcpServers: { test: testServerSpec() } });
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const child = spawn(
      process.execPath,
      [
        "--import",
        tsx,
        join(import.meta.dirname, "../../test/fixtures/run-agent-child.ts"),
        fixture.home,
        agent,
        "go",
      ],
      {
        cwd: fixture.dir,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let sessionId = "";
    child.stdout.on("data", (chunk: Buffer) => {
      sessionId += chunk.toString();
    });
    // Wait until the slow tool is running, then kill the process like a crash.
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const id = sessionId.trim();
      if (id) {
        const calls = await fixture.stores.history.toolCalls(id);
        if (calls.some((c) => c.status === "running")) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const id = sessionId.trim();
    expect((await fixture.stores.history.getSession(id)).status).toBe("running");
    const result = await runAgent({ resume: id, stores: fixture.stores, cwd: fixture.dir });
    expect(result.sessionId).toBe(id);
    expect(result.status).toBe("completed");
    expect(result.report).toContain(
      "after resume: Error ABORTED: The run stopped before this tool call finished",
    );
    // The report repeats spillway's ABORTED text, advice to the model included ("Call the tool
    // again if you still need it."): runtime text, sent back once (report-guard.ts), then taken.
    const calls = await fixture.stores.history.toolCalls(id);
    expect(calls.map((c) => c.status)).toEqual(["aborted", "ok", "ok"]);
    const notes = (await fixture.stores.history.messages(id)).flatMap((m) =>
      m.parts.flatMap((p) =>
        p.type === "tool-result" && p.result.kind === "note" ? [p.result.text] : [],
      ),
    );
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^Not delivered: your report repeats text that spillway wrote/);
    expect(notes[1]).toBe("Final report received.");
  }, 60_000);

  it("a background tool of a killed run is recorded as aborted on resume, and the notice says so", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return {
          toolCalls: [
            { name: "test__slow", arguments: { seconds: 30 } },
            { name: "test__echo", arguments: { text: "fast" } },
          ],
        };
      // Before the kill: keep the run busy (the model is slow), so the test can kill it.
      if (results.length === 2 && !textOf(lastMessage(request)).includes("### Failed"))
        return { ...toolCall("test__echo", { text: "again" }), delayMs: 30_000 };
      const failed = textOf(lastMessage(request))
        .split("\n")
        .find((line) => line.startsWith("- test__slow"));
      return toolCall("agent__final_report", { report: `after resume: ${failed}` });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("resumable", {
      mcpServers: { test: testServerSpec() },
      asyncTimeoutSecs: 0.3,
    });
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const child = spawn(
      process.execPath,
      [
        "--import",
        tsx,
        join(import.meta.dirname, "../../test/fixtures/run-agent-child.ts"),
        fixture.home,
        agent,
        "go",
      ],
      { cwd: fixture.dir, stdio: ["ignore", "pipe", "inherit"] },
    );
    let sessionId = "";
    child.stdout.on("data", (chunk: Buffer) => {
      sessionId += chunk.toString();
    });
    // Wait until the slow tool went to the background (its output is begun, still running); a
    // loaded machine starts the child slowly, so the wait is long and its end is checked.
    const deadline = Date.now() + 60_000;
    let backgrounded = false;
    while (!backgrounded && Date.now() < deadline) {
      const id = sessionId.trim();
      if (id) {
        const running = await fixture.stores.outputs.list({ sessionId: id, status: "running" });
        backgrounded = running.length > 0 && fixture.server.requests.length >= 2;
      }
      if (!backgrounded) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(backgrounded, "the child run put its slow tool in the background before the kill").toBe(
      true,
    );
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const id = sessionId.trim();
    const result = await runAgent({ resume: id, stores: fixture.stores, cwd: fixture.dir });
    expect(result.status).toBe("completed");
    expect(result.report).toMatch(
      /^after resume: - test__slow \(id: out_\w+, aborted: the run stopped before the tool finished \(the process ended\)\)$/,
    );
    const [record] = (await fixture.stores.outputs.list({ sessionId: id })).filter(
      (r) => r.toolName === "test__slow",
    );
    expect(record!.status).toBe("failed");
  }, 120_000);
});

describe("projection invariants", () => {
  it("never splits a call from its result, even when it must shorten old results to fit", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return toolCall("test__generate_output", { bytes: 200_000, kind: "text" });
      if (results.length < 16) {
        const id = findOutputIds(results[0]!.text)[0];
        return toolCall("get_tool_output", {
          id,
          mode: "page",
          cursor: (results.length - 1) * 2000,
        });
      }
      return toolCall("agent__final_report", { report: "done" });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("tight", {
      mcpServers: { test: testServerSpec() },
      contextWindow: 8000,
      maxOutputTokens: 500,
      maxTurns: 30,
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    let shortenedSeen = false;
    for (const request of fixture.server.requests) {
      const calls = request.messages.flatMap((m) =>
        m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : [],
      );
      const answered = request.messages.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : []));
      expect(answered.sort()).toEqual(calls.sort());
      if (
        toolMessages(request).some((m) => m.text.includes("removed from this context to make room"))
      )
        shortenedSeen = true;
    }
    expect(shortenedSeen).toBe(true);
    // Shortened results name their handle.
    const last = toolMessages(fixture.server.requests.at(-1)!);
    for (const message of last.filter((m) => m.text.includes("removed from this context"))) {
      expect(findOutputIds(message.text)).toHaveLength(1);
    }
  });
});

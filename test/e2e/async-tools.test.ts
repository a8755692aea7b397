/**
 * Async tools end to end: the real test MCP server's `slow` tool over stdio, the
 * real AI SDK provider over HTTP against the scripted model server, a real SQLite store.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/agent/events.js";
import { runAgent } from "../../src/agent/run-agent.js";
import { openSqliteStores } from "../../src/store/sqlite-history-store.js";
import { asyncRunningGuidedText, NOT_READY_TEXT } from "../../src/surfaces/async-texts.js";
import {
  findOutputIds,
  type Responder,
  toolCall,
  toolMessages,
  toolNames,
} from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "../helpers/agent-fixture.js";
import { calls, noticeOf, report, setup, slow } from "../helpers/async-session.js";

/** These scripted models report the runtime's texts for the test to read: no report guards. */
const NO_GUARDS = { guidance: { reportGuards: false } };

describe("async tools: the time trigger", () => {
  it("three 2-second tools in one turn take about 2 s, not 6 s; each is answered with its id; the loop waits for real output (D3-22)", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return calls(slow(2, "alpha"), slow(2, "bravo"), slow(2, "charlie"));
      const ids = findOutputIds(
        results
          .slice(0, 3)
          .map((r) => r.text)
          .join("\n"),
      );
      const last = results.at(-1)!;
      if (last.toolName === "get_tool_output")
        return report(
          results
            .slice(-3)
            .map((r) => r.text)
            .join(" | "),
        );
      if (/### Running/.test(noticeOf(request))) return toolCall("wait_for_tool_output", {});
      return calls(
        ...ids.map((id) => ({ name: "get_tool_output", arguments: { id, mode: "raw" } })),
      );
    };
    // One tool at a time: without async the three calls would take 6 s back to back.
    const { fixture, agent } = await setup(respond, { toolConcurrency: 1 });
    const events: AgentEvent[] = [];
    const started = performance.now();
    const result = await runAgent({
      agent,
      prompt: "Run the three slow jobs.",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (event) => events.push(event),
    });
    const wallMs = performance.now() - started;
    expect(result.error).toBeNull();
    expect(result.report).toMatch(/alpha.*\| .*bravo.*\| .*charlie/s);
    expect(wallMs).toBeGreaterThan(2000);
    // The three ran together: all three went to the background before the first finished
    // (event order, not wall time, so a loaded machine cannot fail it).
    const firstToolDone = events.findIndex((e) => e.type === "tool.done");
    const handedOff = events.flatMap((e, i) => (e.type === "tool.async" ? [i] : []));
    expect(handedOff).toHaveLength(3);
    expect(Math.max(...handedOff)).toBeLessThan(firstToolDone);

    // Every call was answered with D3-13's timeout text, exactly.
    const second = fixture.server.requests[1]!;
    const answers = toolMessages(second);
    expect(answers).toHaveLength(3);
    for (const answer of answers) {
      const [id] = findOutputIds(answer.text);
      expect(answer.text).toBe(asyncRunningGuidedText(id!, "test__slow"));
    }
    // D3-22: the model was not called on async ids alone, only once an output was ready.
    const firstDone = events.findIndex((e) => e.type === "tool.done");
    const secondCall = events.findIndex(
      (e, i) => e.type === "model.call" && i > events.findIndex((x) => x.type === "model.call"),
    );
    expect(firstDone).toBeGreaterThan(-1);
    expect(firstDone).toBeLessThan(secondCall);
    expect(noticeOf(second)).toMatch(
      /### Ready \([123]\)\n- test__slow \(id: out_\w+, ~\d+ tokens, 0 retrievals\)/,
    );
    // The results are in the store whether or not the model read them.
    const outputs = await fixture.stores.outputs.list({ sessionId: result.sessionId });
    expect(outputs.map((o) => o.status)).toEqual(["ready", "ready", "ready"]);
    expect(events.filter((e) => e.type === "tool.async")).toHaveLength(3);
  }, 30_000);

  it("wait_for_tool_output: at once with nothing running; one completion; several at once; get_tool_output on a running id is not ready", async () => {
    const waits: string[] = [];
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      const last = results.at(-1);
      if (!last) return toolCall("wait_for_tool_output", {});
      if (results.length === 1) {
        waits.push(last.text);
        // One slow tool and a fast one: the turn has real output, so the model runs at once.
        return calls(slow(1, "one"), { name: "test__echo", arguments: { text: "fast" } });
      }
      if (results.length === 3) {
        // Results arrive in the order the calls end: find the slow one by name.
        const [id] = findOutputIds(results.find((r) => r.toolName === "test__slow")!.text);
        return toolCall("get_tool_output", { id, mode: "raw" });
      }
      if (results.length === 4) return toolCall("wait_for_tool_output", {});
      if (results.length === 5) {
        waits.push(last.text);
        return calls(slow(1, "two"), slow(1, "three"), {
          name: "test__echo",
          arguments: { text: "x" },
        });
      }
      if (results.length === 8) {
        // Both finish while the model thinks: the wait returns at once with both.
        return { ...toolCall("wait_for_tool_output", {}), delayMs: 1500 };
      }
      if (results.length === 9) {
        waits.push(last.text);
        // Everything has settled: nothing is left to wait for.
        return toolCall("wait_for_tool_output", {});
      }
      waits.push(last.text);
      return report(waits.join("\n====\n"));
    };
    const { fixture, agent } = await setup(respond, NO_GUARDS);
    const result = await runAgent({
      agent,
      prompt: "wait",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.error).toBeNull();
    // Before any tool went on in the background, waiting is not listed: the call is refused.
    expect(waits[0]).toContain('There is no tool named "wait_for_tool_output".');
    expect(
      fixture.server.requests[0]!.tools!.some((t) => t.function.name === "wait_for_tool_output"),
    ).toBe(false);
    // Nothing runs any more: the answer names the task's own tools (the test server's) to call.
    expect(waits[3]).toMatch(
      /^No async tools running\. Nothing to wait for: call the tool your task needs \(test__\w+(, test__\w+)*\), read a stored output with get_tool_output, or call agent__final_report with your complete answer\.$/,
    );
    expect(waits[3]).toContain("test__slow");
    // A small output is shown whole after the list (spillway's texts; the compatibility list alone
    // with asyncReadyMessage: ready-menu).
    expect(waits[1]).toMatch(
      /^Completed tools:\n- test__slow \(id: (out_\w+), size: 3B\)\n\nThe output of test__slow \(\1\), whole:\none$/,
    );
    expect(waits[2]).toMatch(
      /^Completed tools:\n- test__slow \(id: (out_\w+), size: 3B\)\n- test__slow \(id: (out_\w+), size: 5B\)\n\nThe output of test__slow \(\1\), whole:\ntwo\n\nThe output of test__slow \(\2\), whole:\nthree$/,
    );
    const notReady = toolMessages(fixture.server.requests[3]!).at(-1)!.text;
    expect(notReady).toBe(`Error OUTPUT_NOT_READY: ${NOT_READY_TEXT}`);
    // wait_for_tool_output is listed once a tool went on in the background; no parameters.
    const tool = fixture.server.requests
      .at(-1)!
      .tools!.find((t) => t.function.name === "wait_for_tool_output");
    expect(tool?.function.parameters).toEqual({
      type: "object",
      additionalProperties: false,
      properties: {},
    });
  }, 30_000);

  it("a tool that fails in the background: Failed in the notice, the failure from get_tool_output and wait_for_tool_output", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0) return calls(slow(1, "disk quota exceeded", { fail: true }));
      if (results.length === 1) return toolCall("wait_for_tool_output", {});
      if (results.length === 2) {
        const [id] = findOutputIds(results[0]!.text);
        return toolCall("get_tool_output", { id, mode: "raw" });
      }
      return report(`${results[1]!.text}\n====\n${results[2]!.text}\n====\n${noticeOf(request)}`);
    };
    const { fixture, agent } = await setup(respond, NO_GUARDS);
    const result = await runAgent({
      agent,
      prompt: "fail",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.error).toBeNull();
    const [wait, read, notice] = result.report!.split("\n====\n");
    expect(wait).toMatch(
      /^Completed tools:\n- test__slow \(id: out_\w+, failed: disk quota exceeded\)$/,
    );
    expect(read).toMatch(
      /^Error OUTPUT_FAILED: Tool test__slow failed, so output "out_\w+" has no content\. The tool's error: disk quota exceeded$/,
    );
    expect(notice).toMatch(/### Failed \(1\)\n- test__slow \(id: out_\w+, disk quota exceeded\)/);
    const [record] = await fixture.stores.outputs.list({ sessionId: result.sessionId });
    expect(record).toMatchObject({ status: "failed", error: "disk quota exceeded" });
  }, 30_000);
});

describe("async tools: limits", () => {
  it("at asyncMaxRunning, a call whose timer fires keeps blocking and returns its output inline", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0) return calls(slow(1, "first"), slow(1, "second"));
      return report(results.map((r) => r.text).join("\n====\n"));
    };
    const { fixture, agent } = await setup(respond, { ...NO_GUARDS, asyncMaxRunning: 1 });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      agent,
      prompt: "cap",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (event) => events.push(event),
    });
    expect(result.error).toBeNull();
    const answers = result.report!.split("\n====\n");
    // One went to the background (its id), the other blocked past the timer (its text).
    expect(
      answers.filter((a) =>
        / goes on in the background; its output will be stored as out_/.test(a),
      ),
    ).toHaveLength(1);
    expect(answers.filter((a) => a === "first" || a === "second")).toHaveLength(1);
    expect(events.filter((e) => e.type === "tool.async")).toHaveLength(1);
  }, 30_000);

  it("a background result the store refuses is recorded failed with the reason, not left running", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return calls(slow(0.8, "x".repeat(5_000)), {
          name: "test__echo",
          arguments: { text: "ok" },
        });
      if (results.length === 2) return toolCall("wait_for_tool_output", {});
      if (results.length === 3) {
        const [id] = findOutputIds(results.find((r) => r.toolName === "test__slow")!.text);
        return toolCall("get_tool_output", { id, mode: "raw" });
      }
      return report(`${results[2]!.text}\n====\n${results[3]!.text}`);
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("small", {
      mcpServers: { test: testServerSpec() },
      asyncTimeoutSecs: 0.3,
      ...NO_GUARDS,
    });
    const stores = await openSqliteStores({
      home: join(fixture.dir, "small-home"),
      maxOutputBytes: 4096,
    });
    try {
      const result = await runAgent({ agent, prompt: "store", stores, cwd: fixture.dir });
      expect(result.error).toBeNull();
      const [wait, read] = result.report!.split("\n====\n");
      expect(wait).toMatch(
        /^Completed tools:\n- test__slow \(id: out_\w+, failed: storing the result failed: OUTPUT_TOO_LARGE: /,
      );
      expect(read).toMatch(
        /^Error OUTPUT_FAILED: Tool test__slow failed, .*storing the result failed: OUTPUT_TOO_LARGE/,
      );
      const slowRecord = (await stores.outputs.list({ sessionId: result.sessionId })).find(
        (r) => r.toolName === "test__slow",
      );
      expect(slowRecord?.status).toBe("failed");
    } finally {
      await stores.close();
    }
  }, 30_000);
});

describe("async tools: the size trigger", () => {
  it("with asyncReadyMessage: ready-menu, an output over asyncTokenThreshold is announced with the compatibility ready text; raw is refused with the size and the modes that work", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return toolCall("test__generate_output", {
          bytes: 200_000,
          kind: "log",
          needle: "NEEDLE-42",
          needle_at: 0.5,
        });
      const [id] = findOutputIds(results[0]!.text);
      if (results.length === 1) return toolCall("get_tool_output", { id, mode: "raw" });
      if (results.length === 2)
        return toolCall("get_tool_output", { id, mode: "grep", pattern: "NEEDLE-42" });
      if (results.length === 3)
        return toolCall("get_tool_output", { id: "out_00000000000000000000000000", mode: "raw" });
      return report(results.map((r) => r.text).join("\n====\n"));
    };
    const { fixture, agent } = await setup(respond, {
      ...NO_GUARDS,
      asyncReadyMessage: "ready-menu",
    });
    const result = await runAgent({
      agent,
      prompt: "size",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.error).toBeNull();
    const [ready, raw, grep, unknown] = result.report!.split("\n====\n");
    const [record] = await fixture.stores.outputs.list({ sessionId: result.sessionId });
    expect(ready).toBe(
      `Tool Output ID: ${record!.id}\nTool: test__generate_output\nSize: ~${record!.tokenEstimate} tokens\n\n` +
        `Use get_tool_output("${record!.id}", mode) to retrieve this output:\n` +
        '- "extract": Extract specific information you need\n' +
        '- "slice": Get bytes around an anchor string',
    );
    expect(raw).toMatch(
      new RegExp(
        `^Error OUTPUT_TOO_LARGE: Response too large \\(${record!.byteSize} bytes\\)\\. Use extract mode\\. Also exact: mode="grep", "slice", "page" `,
      ),
    );
    expect(grep).toContain("NEEDLE-42");
    expect(unknown).toMatch(
      /^Error OUTPUT_NOT_FOUND: Unknown tool ID: out_00000000000000000000000000\. /,
    );
    // The notice lists it as ready with its retrieval count (D3-21: a counter).
    const last = fixture.server.requests.at(-1)!;
    expect(noticeOf(last)).toMatch(
      new RegExp(
        `### Ready \\(1\\)\\n- test__generate_output \\(id: ${record!.id}, ~\\d+K tokens, 1 retrieval\\)`,
      ),
    );
    expect(noticeOf(last)).toContain(
      "2. Retrieve/examine async tool outputs using get_tool_output(id, mode) or wait_for_tool_output()",
    );
  }, 30_000);

  it("the size trigger applies even to an output that would fit inline (D3-17), and shows the handle message by default", async () => {
    const respond: Responder = (request) =>
      toolMessages(request).length === 0
        ? toolCall("test__generate_output", { bytes: 2_000, kind: "log" })
        : report(toolMessages(request)[0]!.text);
    const { fixture, agent } = await setup(respond, { ...NO_GUARDS, asyncTokenThreshold: 100 });
    const result = await runAgent({
      agent,
      prompt: "small",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.report).toMatch(
      /^\[spillway\] The output of test__generate_output is stored whole as out_\w+ \([\d,]+ bytes, [\d,]+ lines, ~[\d,]+ tokens, kind \w+\)\.\n/,
    );
    expect(result.report).toContain('mode="grep"');
    // Ready, as the size trigger makes it; its call came back with its handle message, so it
    // sends no notice of its own (notice.ts).
    expect(noticeOf(fixture.server.requests[1]!)).not.toContain("# System Notice");
  }, 30_000);

  it("--no-async (async: false): tools block, large outputs get a handle, wait_for_tool_output is not listed", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      if (results.length === 0)
        return calls(slow(1, "blocked"), {
          name: "test__generate_output",
          arguments: { bytes: 200_000, kind: "log" },
        });
      const text = (name: string) => results.find((r) => r.toolName === name)!.text;
      return report(
        `${text("test__slow")}\n====\n${text("test__generate_output")}\n====\n${toolNames(request).join(",")}`,
      );
    };
    const { fixture, agent } = await setup(respond, { ...NO_GUARDS, async: false });
    const result = await runAgent({
      agent,
      prompt: "sync",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    const [slowText, handle, tools] = result.report!.split("\n====\n");
    expect(slowText).toBe("blocked");
    expect(handle).toMatch(
      /^\[spillway\] The output of test__generate_output is stored whole as out_/,
    );
    expect(tools).not.toContain("wait_for_tool_output");
    expect(toolNames(fixture.server.requests[0]!)).not.toContain("wait_for_tool_output");
  }, 30_000);
});

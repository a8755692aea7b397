import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentFixture, SCRIPTED_MODEL, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { isSpillwayError } from "../core/errors.js";
import { type Responder, textOf, toolCall, toolMessages } from "../testing/index.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";

/** A policy that plays `steps` in order, then reports every tool result it saw. */
function steps(...calls: Responder[]): Responder {
  return (request, context) => {
    const step = calls[context.callIndex];
    if (step) return step(request, context);
    const seen = toolMessages(request).map((m) => `${m.toolName}: ${m.text}`);
    return toolCall("agent__final_report", { report: seen.join("\n---\n") });
  };
}

/** Runs `agent` on the prompt "go" in the fixture's stores and directory. */
function play(
  fixture: Awaited<ReturnType<typeof agentFixture>>,
  agent: string,
  extra: Partial<Parameters<typeof runAgent>[0]> = {},
) {
  return runAgent({ agent, prompt: "go", stores: fixture.stores, cwd: fixture.dir, ...extra });
}

describe("bad input from the model goes back to the model; the session goes on", () => {
  it("answers malformed arguments, unknown tools, foreign handles and bad offsets with clear errors", async () => {
    const fixture = await agentFixture(
      steps(
        () => ({ toolCalls: [{ name: "test__echo", arguments: '{"text": "unterminated' }] }),
        () => toolCall("no_such_tool", { x: 1 }),
        () => toolCall("test__generate_output", { bytes: 40_000, kind: "log" }),
        () => toolCall("get_tool_output", { id: "out_0000000000000000000000abcd", mode: "raw" }),
        (request) => {
          const id = /out_[0-9a-z]{26}/.exec(toolMessages(request)[2]!.text)![0];
          return toolCall("get_tool_output", { id, mode: "slice", slice: { line_start: 999_999 } });
        },
        () => toolCall("get_tool_output", { id: "x", mode: "teleport" }),
      ),
    );
    const agent = await fixture.agent("bad", { mcpServers: { test: testServerSpec() } });
    const result = await play(fixture, agent);
    expect(result.status).toBe("completed");
    const [malformed, unknown, , foreign, range, mode] = result.report!.split("\n---\n");
    expect(malformed).toMatch(
      /^test__echo: Error INVALID_TOOL_ARGUMENTS: The arguments of test__echo are not valid JSON/,
    );
    expect(unknown).toMatch(
      /^no_such_tool: Error UNKNOWN_TOOL: There is no tool named "no_such_tool". Available tools: .*test__echo/,
    );
    expect(foreign).toContain("Error OUTPUT_NOT_FOUND");
    expect(range).toContain("Error INVALID_RANGE: lineStart=999999 is out of range");
    expect(mode).toContain("Error INVALID_TOOL_ARGUMENTS");
    expect(mode).toContain("mode");
    // Every call still has exactly one result in the canonical history.
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.status)).toEqual([
      "error",
      "error",
      "ok",
      "error",
      "error",
      "error",
      // The report quotes the handle message, the unread output's id included: sent back once
      // (no read of the output succeeded; a session sends back one report at most,
      // report-guard.ts), then taken as it is.
      "ok",
      "ok",
    ]);
    const [sentBack, taken] = calls.slice(-2).map((c) => c.toolCallId);
    const notes = new Map<string, string>();
    for (const message of await fixture.stores.history.messages(result.sessionId))
      for (const part of message.parts)
        if (part.type === "tool-result" && part.result.kind === "note")
          notes.set(part.toolCallId, part.result.text);
    const outputId = calls[2]!.outputId!;
    expect(notes.get(sentBack!)).toMatch(
      new RegExp(`^Not delivered: your report gives ${outputId} as a value`),
    );
    expect(notes.get(taken!)).toBe("Final report received.");
  });

  it("answers a call cut off at the reply's length limit as cut, not as a bad JSON object", async () => {
    const fixture = await agentFixture(
      steps(() => ({
        toolCalls: [
          { name: "test__echo", arguments: '"just a string"' },
          { name: "test__echo", arguments: '{"text": }' },
          { name: "test__echo", arguments: '{"text": "The trace id 0941 called /api' },
        ],
        finishReason: "length",
      })),
    );
    const agent = await fixture.agent("cut", { mcpServers: { test: testServerSpec() } });
    const result = await play(fixture, agent);
    expect(result.status).toBe("completed");
    // The report quotes every result it saw. Arguments that are not an object are refused as
    // such; only the reply's last call can be the one the limit cut.
    const [broken, notObject, cut] = result
      .report!.split("\n---\n")
      .filter((seen) => seen.startsWith("test__echo"))
      .sort();
    expect(notObject).toBe(
      "test__echo: Error INVALID_TOOL_ARGUMENTS: The arguments of test__echo must be one JSON object matching the tool's schema, not a string.",
    );
    expect(broken).toMatch(
      /^test__echo: Error INVALID_TOOL_ARGUMENTS: The arguments of test__echo are not valid JSON/,
    );
    expect(cut).toBe(
      "test__echo: Error INVALID_TOOL_ARGUMENTS: Your call to test__echo was cut off at the reply's length limit before its arguments were complete, so it did not run. Make the call again with shorter arguments.",
    );
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.slice(0, 3).map((c) => c.status)).toEqual(["error", "error", "error"]);
  });

  it("refuses another session's output as not found", async () => {
    let foreignId = "";
    const fixture = await agentFixture(
      steps(
        () => toolCall("test__generate_output", { bytes: 40_000, kind: "log" }),
        () => toolCall("get_tool_output", { id: foreignId, mode: "grep", pattern: "secret" }),
      ),
    );
    const other = await fixture.stores.outputs.put(
      { sessionId: "ses_someone_else", toolName: "t", toolArgs: "{}" },
      "secret\n".repeat(5000),
    );
    foreignId = other.id;
    const agent = await fixture.agent("foreign", { mcpServers: { test: testServerSpec() } });
    const result = await play(fixture, agent);
    const foreign = result.report!.split("\n---\n")[1]!;
    expect(foreign).toContain(
      `Error OUTPUT_NOT_FOUND: Unknown tool ID: ${other.id}. No output with id "${other.id}" is visible here`,
    );
    expect(foreign).not.toContain("matching line");
  });

  it("turns a tool that throws, a tool error and a server crash into results naming the server", async () => {
    const fixture = await agentFixture(
      steps(
        () => toolCall("test__throw_error", { message: "kaboom" }),
        () => toolCall("test__fail", { message: "disk quota exceeded" }),
        () => toolCall("test__crash", {}),
        () => toolCall("test__echo", { text: "still here" }),
      ),
    );
    // The restart of the crashed server must not send the next call to the background, however
    // loaded the machine: the test is about the session going on, not about timing.
    const agent = await fixture.agent("crash", {
      mcpServers: { test: testServerSpec() },
      asyncTimeoutSecs: 120,
    });
    const result = await play(fixture, agent);
    expect(result.status).toBe("completed");
    const [thrown, failed, crashed, after] = result.report!.split("\n---\n");
    expect(thrown).toContain("[the tool reported an error]");
    expect(thrown).toContain("kaboom");
    expect(failed).toContain("disk quota exceeded");
    expect(crashed).toMatch(/Error MCP_SERVER_FAILED: .*"test"/);
    // The hub restarts a crashed server once: the session goes on with it.
    expect(after).toContain("still here");
  });

  it("tells the model and the user when an MCP server cannot start", async () => {
    const fixture = await agentFixture(steps(() => toolCall("broken__anything", {})));
    const agent = await fixture.agent("nostart", {
      mcpServers: { broken: { command: "spillway-no-such-command-xyz" }, test: testServerSpec() },
    });
    const events: AgentEvent[] = [];
    const result = await play(fixture, agent, { onEvent: (e) => events.push(e) });
    expect(result.status).toBe("completed");
    const warning = events.find((e) => e.type === "warning");
    expect(warning && "message" in warning && warning.message).toMatch(
      /broken.*spillway-no-such-command-xyz/s,
    );
    const system = textOf(fixture.server.requests[0]!.messages[0]!);
    expect(system).toContain('MCP server "broken" could not start');
    expect(result.report).toContain("Error UNKNOWN_TOOL");
  });
});

describe("models: retry, fallback, and clear failures", () => {
  it("falls back to the next model when the first is unreachable, and says which served", async () => {
    const fixture = await agentFixture(steps());
    await writeFile(
      join(fixture.dir, "spillway.config.json"),
      JSON.stringify({
        providers: {
          "openai-compatible": {
            scripted: { baseURL: fixture.server.baseURL },
            down: { baseURL: "http://127.0.0.1:9/v1" },
          },
        },
      }),
    );
    const agent = await fixture.agent("fallback", {
      models: ["openai-compatible/down/scripted-policy", SCRIPTED_MODEL],
    });
    const events: AgentEvent[] = [];
    const result = await play(fixture, agent, { onEvent: (e) => events.push(e) });
    expect(result.status).toBe("completed");
    expect(
      events.filter((e) => e.type === "model.retry").map((e) => "model" in e && e.model),
    ).toContain("openai-compatible/down/scripted-policy");
    expect(events.find((e) => e.type === "model.call")).toMatchObject({ model: SCRIPTED_MODEL });
    expect(Object.keys(result.usage.byModel)).toEqual([SCRIPTED_MODEL]);
  });

  it("retries a failing model, then succeeds", async () => {
    const fixture = await agentFixture((_request, context) =>
      context.callIndex < 2
        ? { error: { status: 503, message: "overloaded" } }
        : { text: "recovered answer" },
    );
    const agent = await fixture.agent("retry", {});
    const result = await play(fixture, agent);
    expect(result.report).toBe("recovered answer");
    expect(fixture.server.requests).toHaveLength(3);
  });

  it("fails the session with MODEL_UNAVAILABLE when no model answers", async () => {
    const fixture = await agentFixture(() => ({ error: { status: 401, message: "bad key" } }));
    const agent = await fixture.agent("down", {});
    const result = await play(fixture, agent);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(
      /^MODEL_UNAVAILABLE: No model answered \(openai-compatible\/scripted\/scripted-policy: 401/,
    );
    expect((await fixture.stores.history.getSession(result.sessionId)).status).toBe("failed");
  });

  it("runs a call whose JSON arguments hold keyword arguments, and keeps the JSON it read", async () => {
    const fixture = await agentFixture(
      steps(() => ({
        toolCalls: [{ name: "test__echo", arguments: '{ text="the = sign stays"}' }],
      })),
    );
    const agent = await fixture.agent("keywords", { mcpServers: { test: testServerSpec() } });
    const result = await play(fixture, agent);
    expect(result.status).toBe("completed");
    expect(result.report).toMatch(/^test__echo: the = sign stays/);
    const [call] = await fixture.stores.history.toolCalls(result.sessionId);
    expect(call!.status).toBe("ok");
    expect(JSON.parse(call!.argsText)).toEqual({ text: "the = sign stays" });
  });

  it("takes a final report whose quoted log line left its quotes unescaped", async () => {
    const line =
      '10.0.0.7 - - [11/May/2026:07:09:28 +0000] "GET /api/orders HTTP/1.1" 502 559 "-" "curl/8.5.0"';
    const fixture = await agentFixture(
      steps(
        () => toolCall("test__echo", { text: line }),
        () => ({
          toolCalls: [
            {
              name: "agent__final_report",
              arguments: `{"report": "The first 502 is ${line}, at 07:09:28."}`,
            },
          ],
        }),
      ),
    );
    const agent = await fixture.agent("quotes", { mcpServers: { test: testServerSpec() } });
    const result = await play(fixture, agent);
    expect(result.status).toBe("completed");
    expect(result.report).toBe(`The first 502 is ${line}, at 07:09:28.`);
    expect(fixture.server.requests).toHaveLength(2);
  });

  it("names the missing API key variable", async () => {
    const fixture = await agentFixture(() => ({ text: "never" }));
    const agent = await fixture.agent("nokey", { models: ["openai/gpt-4.1"] });
    const result = await play(fixture, agent, { env: {} });
    expect(result.status).toBe("failed");
    expect(result.error).toContain("OPENAI_API_KEY");
  });

  it("rejects a missing agent file and an unknown provider before starting", async () => {
    const fixture = await agentFixture(() => ({ text: "x" }));
    const missing = await runAgent({
      agent: join(fixture.dir, "nope.md"),
      prompt: "go",
      stores: fixture.stores,
    }).catch((e: unknown) => e);
    expect(isSpillwayError(missing, "AGENT_FILE_INVALID")).toBe(true);
    expect((missing as Error).message).toContain("nope.md");
    const agent = await fixture.agent("badprovider", { models: ["mystery/model-1"] });
    const unknown = await play(fixture, agent).catch((e: unknown) => e);
    expect(isSpillwayError(unknown, "UNKNOWN_PROVIDER")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { onCleanup } from "../../test/helpers/temp-store.js";
import type { HistoryStore } from "../store/history.js";
import { openSqliteStores } from "../store/sqlite-history-store.js";
import { type Responder, toolCall, toolMessages } from "../testing/index.js";
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

const handleIn = (request: Parameters<Responder>[0], index: number) =>
  /out_[0-9a-z]{26}/.exec(toolMessages(request)[index]!.text)![0];

/** The notes agent__final_report answered in a session, in order. */
async function reportNotes(history: HistoryStore, sessionId: string): Promise<string[]> {
  const notes: string[] = [];
  for (const message of await history.messages(sessionId))
    for (const part of message.parts)
      if (
        part.type === "tool-result" &&
        part.toolName === "agent__final_report" &&
        part.result.kind === "note"
      )
        notes.push(part.result.text);
  return notes;
}

describe("store limits reach the model as errors; the session goes on", () => {
  it("a result past maxSessionBytes is SESSION_QUOTA_EXCEEDED for that call only", async () => {
    const fixture = await agentFixture(
      steps(
        () => toolCall("test__generate_output", { bytes: 40_000, kind: "log" }),
        () => toolCall("test__generate_output", { bytes: 40_000, kind: "log", seed: 2 }),
        () => toolCall("test__echo", { text: "still here" }),
      ),
    );
    const stores = await openSqliteStores({ home: fixture.home, maxSessionBytes: 60_000 });
    onCleanup(() => stores.close());
    const agent = await fixture.agent("quota", { mcpServers: { test: testServerSpec() } });
    const result = await runAgent({ agent, prompt: "go", stores, cwd: fixture.dir });
    expect(result.status).toBe("completed");
    const [first, second, third] = result.report!.split("\n---\n");
    expect(first).toContain("out_");
    expect(second).toContain("SESSION_QUOTA_EXCEEDED");
    expect(second).toContain("maxSessionBytes");
    expect(third).toContain("still here");
    const calls = await stores.history.toolCalls(result.sessionId);
    // The last two: this policy's report quotes the handle message, the unread output's id
    // included, so it is sent back once (a session sends back one report at most,
    // report-guard.ts), then taken.
    expect(calls.map((c) => c.status)).toEqual(["ok", "error", "ok", "ok", "ok"]);
    const notes = await reportNotes(stores.history, result.sessionId);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(new RegExp(`^Not delivered: your report gives ${calls[0]!.outputId}`));
    expect(notes[1]).toBe("Final report received.");
  });

  it("a costly JSON query is an error to the model, not the end of the agent", async () => {
    const fixture = await agentFixture(
      steps(
        // JSON nested 200,000 deep: walking it overflows any recursive evaluator.
        () => toolCall("test__echo", { text: `${"[".repeat(200_000)}${"]".repeat(200_000)}` }),
        (request) =>
          toolCall("get_tool_output", {
            id: handleIn(request, 0),
            mode: "json",
            json_query: "$..*",
          }),
        (request) =>
          toolCall("get_tool_output", { id: handleIn(request, 0), mode: "json", outline: true }),
      ),
    );
    // A window that holds the 400 KB argument itself (the model sent it; it stays in history).
    const agent = await fixture.agent("json", {
      mcpServers: { test: testServerSpec() },
      contextWindow: 1_000_000,
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    const [, query] = result.report!.split("\n---\n");
    expect(query).toContain("Error QUERY_TOO_COSTLY");
    expect(query).toContain("grep");
    // The agent went on: the outline after it was answered. Its report copies the handle
    // message (runtime text): sent back once, then taken.
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.status)).toEqual(["ok", "error", "ok", "ok", "ok"]);
    const notes = await reportNotes(fixture.stores.history, result.sessionId);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^Not delivered: your report repeats text that spillway wrote/);
    expect(notes[1]).toBe("Final report received.");
  });
});

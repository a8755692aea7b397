import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { type Responder, toolCall, toolMessages } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];

/** Generates a large log, then plays `reads` (given the output's id), then reports what it saw. */
function policy(reads: ((id: string) => Responder)[]): Responder {
  return (request, context) => {
    if (context.callIndex === 0)
      return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
    const seen = toolMessages(request);
    const read = reads[context.callIndex - 1];
    if (read) return read(idOf(seen[0]!.text))(request, context);
    return toolCall("agent__final_report", {
      report: seen.map((m) => `${m.toolName}: ${m.text.slice(0, 4000)}`).join("\n---\n"),
    });
  };
}

const grep = (pattern: string) => (id: string) => () =>
  toolCall("get_tool_output", { id, mode: "grep", pattern });

describe("a read repeated turn after turn", () => {
  it("is not run but answered with the earlier result and what to do; a different read runs", async () => {
    const fixture = await agentFixture(
      policy([
        grep("NO-SUCH-TEXT"),
        // The same call with its keys in another order is the same call.
        (id) => () => toolCall("get_tool_output", { pattern: "NO-SUCH-TEXT", mode: "grep", id }),
        grep("NO-SUCH-TEXT"),
        grep("INFO"),
        grep("NO-SUCH-TEXT"),
      ]),
    );
    const agent = await fixture.agent("repeat", { mcpServers: { test: testServerSpec() } });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    const seen = result.report!.split("\n---\n");
    expect(seen[1]).toContain("no matching lines");
    expect(seen[2]).toContain(
      "This is the same call as your turn 2 and a stored output does not change, so here is its result again:\n[out_",
    );
    // A note, not an error code a model could take for data.
    expect(seen[2]).not.toMatch(/^get_tool_output: Error|REPEATED_CALL/);
    expect(seen[2]).toContain('grep "NO-SUCH-TEXT": no matching lines]');
    expect(seen[2]).toContain("If these lines answer your task, call agent__final_report now");
    // A third identical call in a row is answered the same way, not run.
    expect(seen[3]).toContain("This is the same call as your turn 3");
    expect(seen[4]).toContain("matching line");
    // Not consecutive any more: the read runs again.
    expect(seen[5]).toContain("no matching lines");
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.status)).toEqual(["ok", "ok", "ok", "ok", "ok", "ok", "ok"]);
  });

  it("is run in a seed-exact session (asyncReadyMessage: seed-003)", async () => {
    const fixture = await agentFixture(policy([grep("NO-SUCH-TEXT"), grep("NO-SUCH-TEXT")]));
    const agent = await fixture.agent("seed", {
      mcpServers: { test: testServerSpec() },
      asyncReadyMessage: "seed-003",
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    const seen = result.report!.split("\n---\n");
    expect(seen[1]).toContain("no matching lines");
    expect(seen[2]).toContain("no matching lines");
  });
});

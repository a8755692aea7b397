import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { type Responder, textOf, toolCall, toolMessages, toolNames } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];

/** Generates a large log, then plays `reads` (given the output's id), then reports what it saw. */
function policy(reads: ((id: string) => Responder)[]): Responder {
  return (request, context) => {
    if (context.callIndex === 0)
      return toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
    const seen = toolMessages(request);
    const read = reads[context.callIndex - 1];
    // Reads while a read is offered (not in the final turn), then the report.
    if (read && toolNames(request).includes("get_tool_output"))
      return read(idOf(seen[0]!.text))(request, context);
    return toolCall("agent__final_report", {
      report: seen.map((m) => `${m.toolName}: ${m.text.slice(0, 4000)}`).join("\n---\n"),
    });
  };
}

const grep = (pattern: string) => (id: string) => () =>
  toolCall("get_tool_output", { id, mode: "grep", pattern });

/** Runs an agent with the test server and `frontmatter` under the scripted `respond`. */
async function run(respond: Responder, name: string, frontmatter: Record<string, unknown> = {}) {
  const fixture = await agentFixture(respond);
  const agent = await fixture.agent(name, {
    mcpServers: { test: testServerSpec() },
    ...frontmatter,
  });
  const result = await runAgent({ agent, prompt: "go", stores: fixture.stores, cwd: fixture.dir });
  return { fixture, result };
}

describe("a read repeated turn after turn", () => {
  it("is not run but answered with the earlier result and what to do; a different read runs", async () => {
    const { fixture, result } = await run(
      policy([
        grep("NO-SUCH-TEXT"),
        // The same call with its keys in another order is the same call.
        (id) => () => toolCall("get_tool_output", { pattern: "NO-SUCH-TEXT", mode: "grep", id }),
        grep("INFO"),
        grep("NO-SUCH-TEXT"),
      ]),
      "repeat",
    );
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
    expect(seen[3]).toContain("matching line");
    // Not consecutive any more: the read runs again.
    expect(seen[4]).toContain("no matching lines");
    // The first report copies the handle message (runtime text): sent back once, then taken.
    expect(seen[5]).toMatch(
      /^agent__final_report: Not delivered: your report repeats text that spillway wrote/,
    );
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.status)).toEqual(["ok", "ok", "ok", "ok", "ok", "ok", "ok"]);
  });

  it("a third time in a row: answered the same way, and the next turn is the final one", async () => {
    const same = grep("NO-SUCH-TEXT");
    const { fixture, result } = await run(policy([same, same, same, same, same]), "repeat-out", {
      maxTurns: 12,
    });
    // The scripted model wanted two more greps; the fifth request required the report. That
    // report copies the handle message (runtime text): sent back once, and the turn given for
    // another report is final too, not a turn to read in (report-guard.ts, turn-policy.ts).
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(6);
    expect(fixture.server.requests).toHaveLength(6);
    const seen = result.report!.split("\n---\n");
    expect(seen[3]).toContain("This is the same call as your turn 3");
    expect(seen[4]).toMatch(
      /^agent__final_report: Not delivered: your report repeats text that spillway wrote/,
    );
    const [fifth, sixth] = fixture.server.requests.slice(4);
    for (const request of [fifth!, sixth!]) {
      // The same tools as the turn before (the prompt's prefix holds); only the report may be called.
      expect(toolNames(request)).toEqual(toolNames(fixture.server.requests[3]!));
      expect(request.tool_choice).toEqual({
        type: "function",
        function: { name: "agent__final_report" },
      });
      expect(textOf(request.messages.at(-1)!)).toContain("This is your final turn");
    }
  });

  it("is run in a seed-exact session (asyncReadyMessage: ready-menu)", async () => {
    const { result } = await run(policy([grep("NO-SUCH-TEXT"), grep("NO-SUCH-TEXT")]), "seed", {
      asyncReadyMessage: "ready-menu",
    });
    const seen = result.report!.split("\n---\n");
    expect(seen[1]).toContain("no matching lines");
    expect(seen[2]).toContain("no matching lines");
  });
});

import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { isSummarizerRequest, scriptedSummary } from "../../test/helpers/compaction-policy.js";
import { type Responder, toolCall, toolMessages, toolNames } from "../testing/index.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";

const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];
const NEEDLE = "event=evt_ntngab003 refund_ref=ANS-R8P71E";
const LABEL =
  "The lines your tool results showed that hold words of your task (best first; a read's with their neighbours), as they were shown:";

/**
 * Fetches a large log with the needle, greps for `pattern`, then reports the final notice. That
 * report is runtime text: sent back once, and the extra final turn's notice is the one taken.
 */
function policy(pattern: string): Responder {
  return (request, context) => {
    if (context.callIndex === 0)
      return toolCall("test__generate_output", {
        bytes: 40_000,
        kind: "log",
        needle: NEEDLE,
        needle_at: 0.5,
      });
    if (toolNames(request).includes("get_tool_output"))
      return toolCall("get_tool_output", {
        id: idOf(toolMessages(request)[0]!.text),
        mode: "grep",
        pattern,
      });
    const notice = request.messages.at(-1);
    return toolCall("agent__final_report", {
      report: typeof notice?.content === "string" ? notice.content : JSON.stringify(notice),
    });
  };
}

async function finalNotice(pattern: string, prompt: string) {
  const fixture = await agentFixture(policy(pattern));
  const agent = await fixture.agent("evidence", {
    mcpServers: { test: testServerSpec() },
    maxTurns: 3,
  });
  const result = await runAgent({ agent, prompt, stores: fixture.stores, cwd: fixture.dir });
  expect(result.status).toBe("completed");
  return result.report!;
}

describe("the final turn restates what the session showed about the task's terms", () => {
  it("quotes the grep's line naming the task's identifier, with its neighbours", async () => {
    const notice = await finalNotice(
      "evt_ntngab003",
      "What is the refund reference recorded for event evt_ntngab003?",
    );
    expect(notice).toContain("This is your final turn");
    expect(notice).toContain(LABEL);
    expect(notice).toMatch(new RegExp(`\\n {2}\\d+:\\d+: .*${NEEDLE}`));
  });

  it("quotes the handle message's lines, each alone, when no read held the task's words", async () => {
    const notice = await finalNotice(
      "NO-SUCH-TEXT",
      "What is the refund reference recorded for event evt_zzzz999?",
    );
    const quoted = notice
      .split(LABEL)[1]!
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(quoted[0]).toMatch(/^ {2}\d+\| event=evt_ntngab003 refund_ref=ANS-R8P71E$/);
    // Lines of a handle message, not a read's neighbours: each is numbered as the message numbered it.
    for (const line of quoted) expect(line).toMatch(/^ {2}\d+\| /);
  });

  it("says nothing more when nothing the session showed holds the task's words", async () => {
    const notice = await finalNotice("NO-SUCH-TEXT", "Which checksum did artifact qqxv publish?");
    expect(notice).toContain("Your task was:");
    expect(notice).not.toContain(LABEL);
  });

  it("quotes a read from a turn that a compaction summarized", async () => {
    // The summary leaves the value out: the quote comes from the canonical history, not from it.
    let calls = 0;
    const fixture = await agentFixture((request) => {
      if (isSummarizerRequest(request)) return scriptedSummary(request);
      calls++;
      const results = toolMessages(request);
      if (calls === 1)
        return toolCall("test__generate_output", { bytes: 40_000, kind: "log", needle: NEEDLE });
      if (calls === 2)
        return toolCall("get_tool_output", {
          id: idOf(results.at(-1)!.text),
          mode: "grep",
          pattern: "evt_ntngab003",
        });
      if (toolNames(request).includes("get_tool_output"))
        return toolCall("test__generate_output", { bytes: 30_000, kind: "json", seed: calls });
      const notice = request.messages.at(-1);
      return toolCall("agent__final_report", {
        report: typeof notice?.content === "string" ? notice.content : JSON.stringify(notice),
      });
    });
    const agent = await fixture.agent("evidence", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 10,
      contextWindow: 8_192,
    });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      agent,
      prompt: "What is the refund reference recorded for event evt_ntngab003?",
      stores: fixture.stores,
      cwd: fixture.dir,
      onEvent: (event) => events.push(event),
    });
    const compacted = events.filter((e) => e.type === "compaction" && e.status === "compacted");
    expect(compacted.length).toBeGreaterThan(0);
    expect(result.report).toContain(LABEL);
    expect(result.report).toMatch(new RegExp(`\\n {2}\\d+:\\d+: .*${NEEDLE}`));
  });
});

import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { type Responder, toolCall, toolMessages, toolNames } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];
const NEEDLE = "event=evt_ntngab003 refund_ref=ANS-R8P71E";

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

describe("the final turn restates what the reads returned about the task's terms", () => {
  it("quotes the grep's line naming the task's identifier, with its neighbours", async () => {
    const notice = await finalNotice(
      "evt_ntngab003",
      "What is the refund reference recorded for event evt_ntngab003?",
    );
    expect(notice).toContain("This is your final turn");
    expect(notice).toContain(
      "The lines your reads returned that hold words of your task (best first, with their neighbours), as they were shown:",
    );
    expect(notice).toMatch(new RegExp(`\\n {2}\\d+:\\d+: .*${NEEDLE}`));
  });

  it("says nothing more when the reads never returned the task's terms", async () => {
    const notice = await finalNotice(
      "NO-SUCH-TEXT",
      "What is the refund reference recorded for event evt_zzzz999?",
    );
    expect(notice).toContain("Your task was:");
    expect(notice).not.toContain("The lines your reads returned");
  });
});

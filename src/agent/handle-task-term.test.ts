import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { toolCall, toolMessages } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

describe("a handle message in a session", () => {
  it("suggests a grep for the identifier the task names, also after a resume", async () => {
    const big = Array.from({ length: 2000 }, (_, i) =>
      i === 1234 ? "WARN order=ord_7731xk refund=ANS-1" : `INFO order=ord_${i}aa ok`,
    ).join("\n");
    const shown: string[] = [];
    const fixture = await agentFixture((request, context) => {
      if (context.callIndex % 2 === 0) return toolCall("test__echo", { text: big });
      shown.push(toolMessages(request).at(-1)!.text);
      return toolCall("agent__final_report", { report: "done" });
    });
    const agent = await fixture.agent("finder", { mcpServers: { test: testServerSpec() } });
    const first = await runAgent({
      agent,
      prompt: "What refund has order ord_7731xk?",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    await runAgent({
      agent,
      prompt: "Look again.",
      resume: first.sessionId,
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(shown).toHaveLength(2);
    for (const text of shown)
      expect(text).toContain('mode="grep", pattern="ord_7731xk", context=2)');
  });
});

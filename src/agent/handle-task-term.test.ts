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
    // Each run echoes once, then reports (twice: a report before any read of the output shown
    // by handle is sent back once).
    let echoNext = true;
    const fixture = await agentFixture((request) => {
      if (echoNext) {
        echoNext = false;
        return toolCall("test__echo", { text: big });
      }
      const last = toolMessages(request).at(-1)!;
      if (last.toolName === "test__echo") shown.push(last.text);
      return toolCall("agent__final_report", { report: "done" });
    });
    const agent = await fixture.agent("finder", { mcpServers: { test: testServerSpec() } });
    const first = await runAgent({
      agent,
      prompt: "What refund has order ord_7731xk?",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    echoNext = true;
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

import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { toolCall, toolMessages } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

describe("a handle message in a session", () => {
  it("shows where a search for the task's words lands, also after a resume", async () => {
    const big = Array.from({ length: 2000 }, (_, i) =>
      i === 1234 ? "WARN order=ord_7731xk refund=ANS-1" : `INFO order=ord_${i}aa ok`,
    ).join("\n");
    const shown: string[] = [];
    // Each run echoes once, then reports.
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
    // A resumed run keeps the session's task, its first prompt: its handle message searches
    // for those words too. The one line holding them is shown labelled as a line to check,
    // and the example calls carry the task's words.
    for (const text of shown) {
      expect(text).toContain(
        "A search of it for the words of your task found these lines (best first). One of them may answer your task",
      );
      // Only that line: the words every line holds ("order") are no reason to show one.
      const found = text.split("read more when none does.\n")[1]!.split("\n\n")[0];
      expect(found).toBe("  1235| WARN order=ord_7731xk refund=ANS-1");
      expect(text).toContain('mode="search", query="ord_7731xk refund")');
      expect(text).toContain('mode="grep", pattern="ord_7731xk", context=2)');
      expect(text).toContain('slice={"line_start": 1225, "line_end": 1245})');
    }
  });
});

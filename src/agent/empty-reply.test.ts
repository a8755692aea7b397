/**
 * An empty reply (no text, no tool call): the canonical history keeps it, the next projection
 * leaves it out and its notice says the reply was empty and what to do instead.
 */
import { describe, expect, it } from "vitest";
import { agentFixture } from "../../test/helpers/agent-fixture.js";
import { type Responder, textOf, toolCall } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

describe("an empty reply", () => {
  it("is kept in the history, left out of the next projection, and named in the notice", async () => {
    let calls = 0;
    const respond: Responder = () =>
      ++calls === 1 ? { text: "" } : toolCall("agent__final_report", { report: "done" });
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("quiet", {});
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    const [first, second] = fixture.server.requests;
    expect(textOf(first!.messages.at(-1)!)).not.toContain("Your last reply was empty");
    expect(second!.messages.filter((m) => m.role === "assistant")).toEqual([]);
    expect(textOf(second!.messages.at(-1)!)).toContain(
      "Your last reply was empty. Call the tool your task needs next, or agent__final_report",
    );
    const history = await fixture.stores.history.messages(result.sessionId);
    expect(history.filter((m) => m.role === "assistant").map((m) => m.parts.length)).toEqual([
      0, 1,
    ]);
  });
});

/**
 * An empty reply (no text, no tool call): the canonical history keeps it, the next projection
 * leaves it out and the next call requires a tool call. No note says why: spillway's notice
 * carries only background tools and the final turn (SW-26).
 */
import { describe, expect, it } from "vitest";
import { agentFixture } from "../../test/helpers/agent-fixture.js";
import { type Responder, textOf, toolCall } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

describe("an empty reply", () => {
  it("is kept in the history, left out of the next projection, and the next call requires a tool", async () => {
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
    // The task is the last message again: no notice, no note for a model to copy.
    expect(second!.messages.at(-1)!.role).toBe("user");
    expect(textOf(second!.messages.at(-1)!)).toBe("go");
    // And the call asks for one: a model that can be held to it is.
    expect(first!.tool_choice).not.toBe("required");
    expect(second!.tool_choice).toBe("required");
    const history = await fixture.stores.history.messages(result.sessionId);
    expect(history.filter((m) => m.role === "assistant").map((m) => m.parts.length)).toEqual([
      0, 1,
    ]);
  });
});

describe("a text reply with textReplies: confirm", () => {
  it("is held to a tool call once: a tool call then goes on, a second text is the answer", async () => {
    const replies: Responder[] = [
      () => ({ text: "I will read the log first." }),
      () => toolCall("agent__final_report", { report: "the answer" }),
    ];
    let i = 0;
    const fixture = await agentFixture((request, context) => replies[i++]!(request, context));
    const agent = await fixture.agent("careful", { textReplies: "confirm" });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.report).toBe("the answer");
    expect(fixture.server.requests[0]!.tool_choice).not.toBe("required");
    expect(fixture.server.requests[1]!.tool_choice).toBe("required");
    // The text stays in the conversation, and nothing after it to copy.
    expect(fixture.server.requests[1]!.messages.map(textOf).slice(-2)).toEqual([
      "go",
      "I will read the log first.",
    ]);
    // Twice text in a row: the second is the answer (the session always ends).
    const twice = await agentFixture(() => ({ text: "The answer is 42." }));
    const again = await twice.agent("careful", { textReplies: "confirm" });
    const second = await runAgent({
      agent: again,
      prompt: "go",
      stores: twice.stores,
      cwd: twice.dir,
    });
    expect(second.error ?? null).toBeNull();
    expect(second.report).toBe("The answer is 42.");
    expect(twice.server.requests).toHaveLength(2);
    // The default: text is the answer at once.
    const plain = await agentFixture(() => ({ text: "Right away." }));
    const first = await runAgent({
      agent: await plain.agent("plain", {}),
      prompt: "go",
      stores: plain.stores,
      cwd: plain.dir,
    });
    expect(first.report).toBe("Right away.");
    expect(plain.server.requests).toHaveLength(1);
  });
});

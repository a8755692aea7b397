/**
 * `helperTools`: agent__task_status and agent__batch are listed only when set true (SW-31):
 * neither reads a tool result, each definition costs every request, and a small local model
 * called agent__task_status instead of the tools its task needed (docs/local-models.md).
 */
import { describe, expect, it } from "vitest";
import { agentFixture } from "../../test/helpers/agent-fixture.js";
import { type Responder, toolCall, toolMessages, toolNames } from "../testing/index.js";
import { runAgent } from "./run-agent.js";
import { planRun } from "./run-settings.js";

/** Blind: tries agent__task_status first, then reports what it was told. */
const statusThenReport: Responder = (request) => {
  const results = toolMessages(request);
  if (results.length === 0) return toolCall("agent__task_status", { status: "starting" });
  return toolCall("agent__final_report", { report: `told: ${results[0]!.text.slice(0, 120)}` });
};

describe("helperTools", () => {
  it("lists agent__task_status and agent__batch when true, and leaves them out by default", async () => {
    const fixture = await agentFixture(statusThenReport);
    const withHelpers = await fixture.agent("with", { helperTools: true });
    const without = await fixture.agent("without", {});
    const first = await runAgent({
      agent: withHelpers,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(first.report).toBe("told: Status recorded.");
    expect(toolNames(fixture.server.requests[0]!)).toEqual(
      expect.arrayContaining(["agent__task_status", "agent__batch"]),
    );
    const before = fixture.server.requests.length;
    const second = await runAgent({
      agent: without,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    const names = toolNames(fixture.server.requests[before]!);
    expect(names).not.toContain("agent__task_status");
    expect(names).not.toContain("agent__batch");
    expect(names).toContain("agent__final_report");
    // A call to a tool that is not listed goes back to the model as an error; the run goes on.
    expect(second.status).toBe("completed");
    expect(second.report).toContain("UNKNOWN_TOOL");
  });

  it("defaults to off whatever the models, and a setting wins over that", async () => {
    const fixture = await agentFixture(statusThenReport);
    const plain = await fixture.agent("plain", {});
    const opted = await fixture.agent("opted", { helperTools: true });
    const local = { models: ["local/qwen2.5-coder-1.5b-instruct-q4_k_m"] };
    const plan = (agent: string, cli = {}) => planRun({ agent, cli, cwd: fixture.dir });
    expect((await plan(plain, local)).settings.helperTools).toBe(false);
    expect((await plan(plain, local)).settings.textReplies).toBe("none");
    expect((await plan(plain, local)).settings.surfaceFromFirstTurn).toBe(false);
    expect((await plan(plain, { models: ["openai/gpt-4.1"] })).settings.surfaceFromFirstTurn).toBe(
      true,
    );
    expect((await plan(plain, { models: ["openai/gpt-4.1"] })).settings.textReplies).toBe("final");
    expect((await plan(opted, local)).settings.helperTools).toBe(true);
    expect((await plan(plain, { models: ["openai/gpt-4.1"] })).settings.helperTools).toBe(false);
    expect((await plan(opted, { models: ["openai/gpt-4.1"] })).settings.helperTools).toBe(true);
    expect(
      (
        await plan(plain, {
          models: ["local/qwen2.5-coder-1.5b-instruct-q4_k_m", "openai/gpt-4.1"],
        })
      ).settings.helperTools,
    ).toBe(false);
  });
});

/**
 * A session run with the scripted model against the test MCP server, for the report guards'
 * tests: the report a run delivered, and the report as the model sent it.
 */
import { runAgent } from "../../src/agent/run-agent.js";
import type { Responder } from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "./agent-fixture.js";

/** The first output id a text names. */
export const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];

/**
 * The last report as the model sent it (its call's arguments): after a send-back the delivered
 * report leaves out lines of runtime text, and these tests read what the model was shown from it.
 */
export async function sentReport(
  fixture: Awaited<ReturnType<typeof agentFixture>>,
  sessionId: string,
) {
  const calls = await fixture.stores.history.toolCalls(sessionId);
  const last = calls.filter((c) => c.toolName === "agent__final_report").at(-1)!;
  return (JSON.parse(last.argsText) as { report: string }).report;
}

export async function runGuarded(
  policy: Responder,
  maxTurns = 8,
  prompt = "go",
  settings: Record<string, unknown> = {},
) {
  const fixture = await agentFixture(policy);
  const agent = await fixture.agent("guard", {
    mcpServers: { test: testServerSpec() },
    maxTurns,
    ...settings,
  });
  const result = await runAgent({ agent, prompt, stores: fixture.stores, cwd: fixture.dir });
  return { fixture, result };
}

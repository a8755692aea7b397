/**
 * A whole agent session on PostgreSQL: the runtime, the scripted model and the real test MCP
 * server, with every store in a real PostgreSQL database. The needle policy is blind: it reads
 * the handle message and the tool results it is shown, nothing else. A second worker (another
 * set of stores on the same database) then reads the session and its outputs and resumes it.
 */
import { describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/run-agent.js";
import { readOutput } from "../../src/retrieval/read-output.js";
import { findOutputIds, type Responder, toolCall, toolMessages } from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "../helpers/agent-fixture.js";
import { POSTGRES_ENGINE } from "../helpers/store-engines.js";
import { sha } from "../helpers/temp-store.js";

const NEEDLE = "NEEDLE-pg-worker-7731";

const policy: Responder = (request) => {
  const results = toolMessages(request);
  const last = results.at(-1);
  if (!last)
    return toolCall("test__generate_output", {
      bytes: 1_500_000,
      kind: "log",
      needle: NEEDLE,
      needle_at: 0.6,
    });
  // Asked again after its report (a resumed session): grep the output it was shown before.
  const shown =
    last.toolName === "agent__final_report"
      ? results.find((r) => r.toolName === "test__generate_output")
      : last;
  if (shown?.toolName === "test__generate_output") {
    const [id] = findOutputIds(shown.text);
    return toolCall("get_tool_output", { id, mode: "grep", pattern: NEEDLE });
  }
  const found =
    last.text.split("\n").find((line) => line.includes(NEEDLE)) ??
    `not found in ${last.toolName}: ${last.text.slice(0, 600)}`;
  return toolCall("agent__final_report", { report: `Found: ${found}` });
};

describe("an agent session on PostgreSQL", () => {
  it("stores, reads and reports through PostgreSQL; another worker reads it all and resumes it", async () => {
    const fixture = await agentFixture(policy);
    const { stores, again } = await POSTGRES_ENGINE.openStores();
    const agent = await fixture.agent("pg", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 5,
      async: false,
    });
    const result = await runAgent({ agent, prompt: "Find the needle.", stores, cwd: fixture.dir });
    expect(result.error).toBeNull();
    expect(result.report).toContain(NEEDLE);

    const worker = await again();
    const session = await worker.history.getSession(result.sessionId);
    expect(session).toMatchObject({ status: "completed", finalReport: result.report });
    const calls = await worker.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.toolName)).toEqual([
      "test__generate_output",
      "get_tool_output",
      "agent__final_report",
    ]);
    const generated = calls[0]!.outputId!;
    const record = await worker.outputs.get(generated, { sessionId: result.sessionId });
    const raw = await readOutput(
      worker.outputs,
      generated,
      { sessionId: result.sessionId },
      { mode: "raw", maxChars: 2_000_000 },
    );
    expect(sha(raw.text)).toBe(record.sha256);
    expect(record.byteSize).toBeGreaterThanOrEqual(1_500_000);

    const resumed = await runAgent({
      resume: result.sessionId,
      prompt: "Once more.",
      stores: worker,
      cwd: fixture.dir,
    });
    expect(resumed.sessionId).toBe(result.sessionId);
    expect(resumed.report).toContain(NEEDLE);
    const messages = await stores.history.messages(result.sessionId);
    const callIds = messages.flatMap((m) =>
      m.parts.filter((p) => p.type === "tool-call").map((p) => p.toolCallId),
    );
    const resultIds = messages.flatMap((m) =>
      m.parts.filter((p) => p.type === "tool-result").map((p) => p.toolCallId),
    );
    expect(resultIds.sort()).toEqual(callIds.sort());
  });
});

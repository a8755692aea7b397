/**
 * The focused reading in a session (surfaces/focused-reading.ts): the runtime asks the session's
 * model once more about the lines a handle message shows, and names the line it points to only
 * when that stored line holds the value.
 */
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { type GuidanceSwitch, PENDING_SWITCHES } from "../config/guidance.js";
import { FOCUSED_READING_SYSTEM } from "../surfaces/focused-reading.js";
import {
  type ChatRequest,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";

const big = Array.from({ length: 2000 }, (_, i) =>
  i === 1234
    ? "WARN order=ord_7731xk refund=ANS-1 total=1,843,221,907,332,118,554 status=held"
    : `INFO order=ord_${i}aa ok`,
).join("\n");
const prompt = "What refund has order ord_7731xk?";

/** A session that echoes the large text, then reports `report` ("done" by default). */
async function session(
  reading: Responder | undefined,
  options: { off?: GuidanceSwitch; report?: string } = {},
) {
  const shown: string[] = [];
  const fixture = await agentFixture(
    (request, { callIndex }) => {
      if (callIndex === 0) return toolCall("test__echo", { text: big });
      const last = toolMessages(request).at(-1)!;
      shown.push(last.text);
      return toolCall("agent__final_report", { report: options.report ?? "done" });
    },
    reading ? { reading } : {},
  );
  // Off by default while its pre-registered run is pending: turned on here.
  const agent = await fixture.agent("reader", {
    mcpServers: { test: testServerSpec() },
    guidance: { focusedReading: true, ...(options.off ? { [options.off]: false } : {}) },
  });
  const events: AgentEvent[] = [];
  const result = await runAgent({
    agent,
    prompt,
    stores: fixture.stores,
    cwd: fixture.dir,
    onEvent: (event) => events.push(event),
  });
  const calls = events.filter((e) => e.type === "model.call");
  const outputs = await fixture.stores.outputs.list({ sessionId: result.sessionId });
  return { result, shown, readings: fixture.server.readingRequests, calls, outputs };
}

const pointTo =
  (line: number, value: string): Responder =>
  () => ({ text: `LINE: ${line}\nVALUE: ${value}` });

const userText = (request: ChatRequest) =>
  request.messages
    .filter((m) => m.role === "user")
    .map(textOf)
    .join("\n");

describe("the focused reading", () => {
  it("names the line it points to under the handle message when that line holds the value", async () => {
    const { result, shown, readings, calls } = await session(pointTo(1235, "ANS-1"), {
      report: "ANS-1",
    });
    expect(readings).toHaveLength(1);
    const request = readings[0]!;
    expect(request.messages.map(textOf)).toContain(FOCUSED_READING_SYSTEM);
    // The task and the lines the handle message shows, nothing else of the session.
    expect(userText(request)).toContain(`Task: ${prompt}`);
    expect(userText(request)).toContain(
      "  1235| WARN order=ord_7731xk refund=ANS-1 total=1,843,221,907,332,118,554 status=held",
    );
    expect(request.tools ?? []).toEqual([]);
    expect(shown[0]).toContain(
      'A second, separate reading of the lines above for your task points to line 1235: "ANS-1".',
    );
    // Its tokens are the session's: one more model call than the agent's two turns.
    expect(calls).toHaveLength(3);
    // The value the note names is the output's own: a report giving it is delivered.
    expect(result).toMatchObject({ status: "completed", report: "ANS-1", turns: 2 });
  });

  it("takes a report giving the value it named as the output's own, and counts no read", async () => {
    const value = "1,843,221,907,332,118,554";
    const { result, shown, outputs } = await session(pointTo(1235, value), { report: value });
    expect(shown[0]).toContain(`points to line 1235: "${value}"`);
    // Not runtime text the report repeats (no output holds it as normalized, digit groups
    // joined): the reading named the line's own value, delivered on the turn it came.
    expect(result).toMatchObject({ status: "completed", report: value, turns: 2 });
    // Checking the line was not the model's read: the output stays unread for the guards.
    expect(outputs.every((o) => o.readCount === 0)).toBe(true);
  });

  it("names nothing when the line does not hold the value, or the reading declines", async () => {
    for (const reading of [pointTo(1235, "ANS-9"), pointTo(1236, "ok"), undefined]) {
      const { shown, readings, calls } = await session(reading);
      expect(readings).toHaveLength(1);
      expect(calls).toHaveLength(3);
      expect(shown[0]).toContain("[spillway] The output of test__echo is stored whole");
      expect(shown[0]).not.toContain("separate reading");
    }
  });

  it("is off by default while its run is pending", async () => {
    const fixture = await agentFixture((_request, { callIndex }) =>
      callIndex === 0
        ? toolCall("test__echo", { text: big })
        : toolCall("agent__final_report", { report: "r" }),
    );
    const agent = await fixture.agent("reader", { mcpServers: { test: testServerSpec() } });
    const result = await runAgent({ agent, prompt, stores: fixture.stores, cwd: fixture.dir });
    expect(result.status).toBe("completed");
    expect(fixture.server.requests.length).toBeGreaterThan(1);
    expect(fixture.server.readingRequests).toHaveLength(0);
    expect(PENDING_SWITCHES).toContain("focusedReading");
  });

  it("is not asked for with its switch off, nor without the task search", async () => {
    for (const off of ["focusedReading", "taskSearch"] as const) {
      const { shown, readings, calls } = await session(pointTo(1235, "ANS-1"), { off });
      expect(readings).toHaveLength(0);
      expect(calls).toHaveLength(2);
      expect(shown[0]).not.toContain("separate reading");
    }
  });

  it("keeps what it pointed to in the history: a resumed run shows the same note", async () => {
    const requests: ChatRequest[] = [];
    const fixture = await agentFixture(
      (request, { callIndex }) => {
        requests.push(request);
        return callIndex === 0
          ? toolCall("test__echo", { text: big })
          : toolCall("agent__final_report", { report: "ANS-1" });
      },
      { reading: pointTo(1235, "ANS-1") },
    );
    const agent = await fixture.agent("reader", {
      mcpServers: { test: testServerSpec() },
      guidance: { focusedReading: true },
    });
    const run = (resume?: string) =>
      runAgent({
        agent,
        prompt: resume ? "Look again." : prompt,
        ...(resume ? { resume } : {}),
        stores: fixture.stores,
        cwd: fixture.dir,
      });
    const first = await run();
    await run(first.sessionId);
    // The resumed run rendered the earlier result from the history, and asked for no reading.
    expect(fixture.server.readingRequests).toHaveLength(1);
    const resumed = toolMessages(requests.at(-1)!)[0]!.text;
    expect(resumed).toContain('points to line 1235: "ANS-1"');
    expect(resumed).toBe(toolMessages(requests[1]!)[0]!.text);
  });
});

/**
 * The turn after a report is sent back reads, and the report sent back is not shown again once
 * that read has run (readAfterSendBack; turn-policy.ts).
 */
import { describe, expect, it } from "vitest";
import {
  REPORT_READ_REPORT,
  reportsFirst,
  runGuarded as run,
} from "../../test/helpers/guard-session.js";
import { type ChatRequest, toolCall, toolMessages, toolNames } from "../testing/index.js";

describe("the turn after a report is sent back", () => {
  const offered = (request: Parameters<typeof toolNames>[0]) => toolNames(request);
  const afterNote = (requests: readonly Parameters<typeof toolNames>[0][]) =>
    requests.find((r) => toolMessages(r).some((m) => m.text.startsWith("Not delivered")))!;

  it("offers the tools that read and not the report, and starts the call with the surface's", async () => {
    const { result, fixture } = await run(
      reportsFirst("report-again", 40_000, () => "It failed at 08:02:77."),
    );
    const next = afterNote(fixture.server.requests);
    expect(offered(next)).toContain("get_tool_output");
    expect(offered(next)).toContain("test__generate_output");
    expect(offered(next)).not.toContain("agent__final_report");
    // The surface has one tool and an output is stored: the call is started with it.
    expect(next.tool_choice).toEqual({ type: "function", function: { name: "get_tool_output" } });
    // The report after that read is taken (the guards send back once a session); the report
    // sent back and its note were no longer shown to it.
    expect(result.status).toBe("completed");
    expect(result.report).not.toContain("Not delivered");
  });

  it("with no output stored yet, offers the agent's own tools only and says nothing was read", async () => {
    const { result, fixture } = await run((request) => {
      const seen = toolMessages(request);
      return toolCall("agent__final_report", {
        report:
          seen.length === 0
            ? "The first pod is pod-4711."
            : seen.map((m) => m.text.slice(0, 300)).join("\n---\n"),
      });
    });
    const next = afterNote(fixture.server.requests);
    expect(toolMessages(next)[0]!.text).toContain(
      "Nothing has been read in this session yet: call a tool to read what your task names",
    );
    expect(offered(next)).toContain("test__generate_output");
    expect(offered(next)).not.toContain("get_tool_output");
    expect(offered(next)).not.toContain("agent__final_report");
    // The test server has several tools: any of them, but some call.
    expect(next.tool_choice).toBe("required");
    expect(result.status).toBe("completed");
    // The report comes after the read the withheld turn made.
    expect(result.report).toMatch(/\[spillway\] The output of test__generate_output/);
  });

  it("offers the report when the next turn is the last one", async () => {
    const { result, fixture } = await run(
      reportsFirst("report-again", 40_000, () => "It failed at 08:02:77."),
      3,
    );
    expect(offered(afterNote(fixture.server.requests))).toContain("agent__final_report");
    expect(result.status).toBe("completed");
    expect(result.turns).toBe(3);
  });

  it("switched off (readAfterSendBack: false): offers the report again, the note allows it", async () => {
    const { result, fixture } = await run(
      reportsFirst("report-again", 40_000, () => "It failed at 08:02:77."),
      8,
      "go",
      { readAfterSendBack: false },
    );
    const next = afterNote(fixture.server.requests);
    expect(offered(next)).toContain("agent__final_report");
    expect(toolMessages(next).at(-1)!.text).toContain(
      "or report only values the tool results showed",
    );
    expect(result.turns).toBe(3);
  });
});

describe("the report sent back, once a read followed it", () => {
  const assistantCalls = (request: ChatRequest) =>
    request.messages.flatMap((m) =>
      m.role === "assistant" && "tool_calls" in m && Array.isArray(m.tool_calls)
        ? m.tool_calls.map((c: { function: { name: string } }) => c.function.name)
        : [],
    );

  it("is not shown to the model again; the canonical history keeps it", async () => {
    const { result, fixture } = await run(
      reportsFirst("report-again", 40_000, () => "It failed at 08:02:77."),
    );
    const requests = fixture.server.requests;
    const last = requests.at(-1)!;
    // The read turn still shows the report and its note, which asks for the read.
    expect(assistantCalls(requests.at(-2)!)).toContain("agent__final_report");
    // The turn after the read shows the output and the read, not the report sent back.
    expect(assistantCalls(last)).toEqual(["test__generate_output", "get_tool_output"]);
    expect(toolMessages(last).some((m) => m.text.startsWith("Not delivered"))).toBe(false);
    const calls = await fixture.stores.history.toolCalls(result.sessionId);
    expect(calls.map((c) => c.toolName)).toEqual(REPORT_READ_REPORT);
  });

  it("stays shown with readAfterSendBack off", async () => {
    const { fixture } = await run(
      reportsFirst("report-again", 40_000, () => "It failed at 08:02:77."),
      8,
      "go",
      { readAfterSendBack: false },
    );
    expect(assistantCalls(fixture.server.requests.at(-1)!)).toContain("agent__final_report");
  });
});

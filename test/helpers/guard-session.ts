/**
 * Sessions for the report guards' tests (src/agent/report-guard.test.ts, read-after-send-back.test.ts): the scripted model
 * over the test server's large log, a model that reports at once, and the notes it was shown.
 */
import { runAgent } from "../../src/agent/run-agent.js";
import {
  type ChatRequest,
  type Responder,
  toolCall,
  toolMessages,
  toolNames,
} from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "./agent-fixture.js";

export const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];

/**
 * Generates a large log (shown by handle), then reports at once, as the 1.5B model did;
 * `afterNote` is what it does when its report is sent back.
 */
export function reportsFirst(
  afterNote: "report-again" | "read" | "none",
  bytes = 40_000,
  firstReport: (id: string) => string = () => "The service failed.",
): Responder {
  return (request, context) => {
    if (context.callIndex === 0) return toolCall("test__generate_output", { bytes, kind: "log" });
    const seen = toolMessages(request);
    const last = seen[seen.length - 1]!;
    if (context.callIndex === 1)
      return toolCall("agent__final_report", { report: firstReport(idOf(seen[0]!.text)) });
    if (
      afterNote === "read" &&
      last.toolName === "agent__final_report" &&
      toolNames(request).includes("get_tool_output")
    )
      return toolCall("get_tool_output", {
        id: idOf(seen[0]!.text),
        mode: "grep",
        pattern: "ERROR",
      });
    // Ids written as OUT: a report that names an unread output's id is another case (below).
    return toolCall("agent__final_report", {
      report: seen
        .map((m) => `${m.toolName}: ${m.text.slice(0, 600)}`)
        .join("\n---\n")
        .replaceAll(/out_[0-9a-z]{26}/g, "OUT"),
    });
  };
}

/**
 * A model that reads when the turn does not offer the report tool (the turn after a send-back):
 * it greps the session's first output for ERROR; otherwise it plays `responder`.
 */
const readsWhenReportWithheld =
  (responder: Responder): Responder =>
  (request, context) => {
    if (toolNames(request).includes("agent__final_report")) return responder(request, context);
    const output = toolMessages(request).find((m) => /out_[0-9a-z]{26}/.test(m.text));
    return output
      ? toolCall("get_tool_output", { id: idOf(output.text), mode: "grep", pattern: "ERROR" })
      : toolCall("test__generate_output", { bytes: 40_000, kind: "log" });
  };

/** The guards' notes the model was shown in any request of the session, each once. */
export const notesSeen = (requests: readonly ChatRequest[]) => [
  ...new Set(
    requests.flatMap((r) =>
      toolMessages(r)
        .filter((m) => m.text.startsWith("Not delivered"))
        .map((m) => m.text),
    ),
  ),
];

export async function runGuarded(
  policy: Responder,
  maxTurns = 8,
  prompt = "go",
  guidance?: Record<string, boolean>,
) {
  const fixture = await agentFixture(readsWhenReportWithheld(policy));
  const agent = await fixture.agent("guard", {
    mcpServers: { test: testServerSpec() },
    maxTurns,
    ...(guidance ? { guidance } : {}),
  });
  const result = await runAgent({ agent, prompt, stores: fixture.stores, cwd: fixture.dir });
  return { fixture, result };
}

/** The calls of a session that reports, has its report sent back, reads, and reports again. */
export const REPORT_READ_REPORT = [
  "test__generate_output",
  "agent__final_report",
  "get_tool_output",
  "agent__final_report",
];

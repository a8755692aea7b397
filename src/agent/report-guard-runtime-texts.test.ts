/**
 * The report guard (SW-25) knows every text spillway wrote for the model, not only notices and
 * tool results: what stands in for turns and results once the context was made smaller, and
 * spillway's standing instructions. A report repeating one is runtime text, sent back.
 */
import { describe, expect, it } from "vitest";
import {
  isSummarizerRequest,
  scriptedSummary,
  summaryMessage,
} from "../../test/helpers/compaction-policy.js";
import { runGuarded as run } from "../../test/helpers/report-guard-run.js";
import { toolCall, toolMessages } from "../testing/index.js";

describe("a report that repeats what stood in for compacted turns", () => {
  it("is sent back as runtime text, and a report after it is taken", async () => {
    let sentBack = "";
    let reported = false;
    const { result, fixture } = await run(
      (request, context) => {
        if (isSummarizerRequest(request)) return scriptedSummary(request);
        const summary = summaryMessage(request);
        if (summary === undefined)
          return toolCall("test__generate_output", {
            bytes: 9_000,
            kind: "log",
            seed: context.callIndex,
          });
        if (!reported) {
          reported = true;
          return toolCall("agent__final_report", { report: summary.split("\n")[0]! });
        }
        sentBack = toolMessages(request).at(-1)!.text;
        return toolCall("agent__final_report", { report: "The value is 42." });
      },
      40,
      "go",
      { contextWindow: 8_192 },
    );
    expect(await fixture.stores.history.summaries(result.sessionId)).not.toHaveLength(0);
    expect(sentBack).toMatch(
      /^Not delivered: your report repeats text that spillway wrote \("\[spillway\] summary of earlier work/,
    );
    expect(result.status).toBe("completed");
    expect(result.report).toBe("The value is 42.");
  });

  it("that is spillway's standing instruction is sent back, and ends the session if repeated", async () => {
    const instruction =
      "When your task is done, call agent__final_report with your complete answer.";
    let sentBack = "";
    const { result } = await run((request, context) => {
      if (context.callIndex === 1) sentBack = toolMessages(request).at(-1)!.text;
      return toolCall("agent__final_report", { report: instruction });
    });
    expect(sentBack).toMatch(
      /^Not delivered: your report repeats text that spillway wrote \("when your task is done/,
    );
    expect(result.status).toBe("failed");
    expect(result.report).toBeNull();
  });
});

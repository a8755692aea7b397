import { describe, expect, it } from "vitest";
import { emptyTotals, type UsageReport, type UsageTotals } from "../agent/accounting.js";
import type { AgentRunResult } from "../agent/run-types.js";
import { summaryLines } from "./run-summary.js";

const totals = (values: Partial<UsageTotals>): UsageTotals => ({ ...emptyTotals(), ...values });

function resultWith(usage: UsageReport): AgentRunResult {
  return {
    sessionId: "ses_root",
    status: "completed",
    report: "done",
    error: null,
    turns: 3,
    usage,
    tracePath: "/tmp/trace.jsonl",
  };
}

/** The summary's fields, by label. */
function fieldsOf(usage: UsageReport): Record<string, string> {
  const lines = summaryLines(resultWith(usage), { elapsedMs: 5_000, reportPrinted: true });
  return Object.fromEntries(
    lines.slice(2).map((line) => {
      const [label, value] = line.split(/ {2,}/, 2);
      return [label ?? "", value ?? ""];
    }),
  );
}

describe("summaryLines", () => {
  it("shows a run without extraction or sub-agents as before", () => {
    const own = totals({
      modelCalls: 3,
      inputTokens: 12_300,
      outputTokens: 1_100,
      costUsd: 0.0334,
      toolCalls: 2,
      toolMs: 1_200,
    });
    const fields = fieldsOf({
      own,
      children: emptyTotals(),
      total: own,
      byModel: {
        "openai/gpt-4.1": { calls: 3, inputTokens: 12_300, outputTokens: 1_100, costUsd: 0.0334 },
      },
    });
    expect(fields["model calls"]).toBe("3 × openai/gpt-4.1 (12.3k in / 1.1k out)");
    expect(fields.tokens).toBe("12,300 in / 1,100 out");
    expect(fields.cost).toBe("$0.0334");
    expect(fields["tool calls"]).toBe("2 (1.20 s in tools)");
  });

  it("says which model calls, tokens and cost were extraction's and sub-agents'", () => {
    const own = totals({
      modelCalls: 3,
      inputTokens: 12_300,
      outputTokens: 1_100,
      costUsd: 0.0334,
      toolCalls: 2,
      toolMs: 1_200,
    });
    const children = totals({
      modelCalls: 12,
      inputTokens: 40_000,
      outputTokens: 2_900,
      costUsd: 0.0206,
      toolCalls: 5,
      toolMs: 300,
    });
    const fields = fieldsOf({
      own,
      children,
      total: totals({
        modelCalls: 15,
        inputTokens: 52_300,
        outputTokens: 4_000,
        costUsd: 0.054,
        toolCalls: 7,
        toolMs: 1_500,
      }),
      byModel: {
        "openai/gpt-4.1": { calls: 5, inputTokens: 20_300, outputTokens: 2_000, costUsd: 0.05 },
        "openai/gpt-4.1-mini": {
          calls: 10,
          inputTokens: 32_000,
          outputTokens: 2_000,
          costUsd: 0.004,
        },
      },
    });
    expect(fields["model calls"]).toBe(
      "5 × openai/gpt-4.1 (20.3k in / 2.0k out), 10 × openai/gpt-4.1-mini (32.0k in / 2.0k out) · " +
        "3 by the agent + 12 by extraction/sub-agents",
    );
    expect(fields.tokens).toBe(
      "52,300 in / 4,000 out (extraction/sub-agents: 40,000 in / 2,900 out)",
    );
    expect(fields.cost).toBe("$0.0540 (extraction/sub-agents: $0.0206)");
    expect(fields["tool calls"]).toBe("7 (1.50 s in tools; 5 by sub-agents)");
  });

  it("leaves the children's cost out when the cost is unknown", () => {
    const children = totals({ modelCalls: 2, inputTokens: 10, outputTokens: 5, costUsd: null });
    const fields = fieldsOf({
      own: emptyTotals(),
      children,
      total: children,
      byModel: { "local/m": { calls: 2, inputTokens: 10, outputTokens: 5, costUsd: null } },
    });
    expect(fields["model calls"]).toBe(
      "2 × local/m (10 in / 5 out) · 0 by the agent + 2 by extraction/sub-agents",
    );
    expect(fields.cost).toBe(
      'unknown: no pricing configured for local/m (set models."<ref>".pricing in the config file)',
    );
  });
});

/**
 * The live harness (`npm run eval:live`) measured against scripted stand-ins whose behaviour we
 * know: the blind agents (they read, and answer from what they read) and an inventor (it
 * answers without reading). The real measurement needs a real model; this checks that the
 * harness offers each policy's tools, scores reports, and counts retrievals and inventions.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { conversationOf, fetchOf, replyOf, responderOf } from "../../eval/agents/conversation.js";
import { pagingAgent, shellAgent, viewAgent } from "../../eval/agents/peer-agents.js";
import type { PolicyName } from "../../eval/episode.js";
import { writeLiveReport } from "../../eval/live-report.js";
import { type LiveTaskSpec, runLiveEval } from "../../eval/live-run.js";
import { EVAL_MODEL } from "../../eval/spillway-env.js";
import { spillwayResponder } from "../../eval/spillway-policy.js";
import { type Responder, toolCall } from "../../src/testing/index.js";
import { tempDir } from "../helpers/temp-store.js";

const TASKS: LiveTaskSpec[] = [
  { kind: "log", size: "50KB", position: "middle" },
  { kind: "json-pretty", size: "50KB", position: "nested-json" },
];

const blind = (policy: PolicyName): Responder =>
  policy === "spillway"
    ? spillwayResponder()
    : responderOf(
        policy === "paging-4000"
          ? pagingAgent
          : policy === "spill-to-file-shell"
            ? shellAgent
            : viewAgent,
      );

describe("eval:live harness", () => {
  it("offers each policy's tools to the model, scores the reports, and counts retrievals", async () => {
    const out = await tempDir("spillway-eval-live-");
    const { episodes, seconds } = await runLiveEval({
      model: EVAL_MODEL,
      out,
      tasks: TASKS,
      scriptedStandIn: blind,
      contextWindow: 12_000,
    });
    expect(episodes).toHaveLength(TASKS.length * 4);
    const of = (policy: PolicyName) => episodes.filter((e) => e.policy === policy);
    // Readers that read on purpose: retrieved first, right, nothing invented.
    for (const policy of ["spillway", "spill-to-file-shell", "paging-4000"] as const)
      for (const e of of(policy))
        expect(e, `${policy} ${e.taskId}`).toMatchObject({
          correct: true,
          retrieved: true,
          invented: false,
        });
    // The shell really ran: its results are real command output from the spilled file.
    expect(of("spill-to-file-shell").every((e) => e.requests >= 3)).toBe(true);
    // Codex's cut keeps neither needle; the blind agent says so.
    expect(of("codex-head-tail").every((e) => !e.correct && !e.invented && !e.retrieved)).toBe(
      true,
    );
    await writeLiveReport({
      episodes,
      model: EVAL_MODEL,
      modelLabel: "scripted stand-in",
      scripted: true,
      seconds,
      out,
      machine: "test",
      contextWindow: 12_000,
    });
    const report = await readFile(`${out}/README.md`, "utf8");
    expect(report).toContain("- **Context window**: 12,000 tokens for every policy");
    expect(report).toContain("**Scripted stand-in, not a real model**");
    expect(report).toContain("| spillway (default surface) | 100% (2/2) | 100% (2/2) | 0% (0/2) |");
  }, 120_000);

  it("flags a value the model was never shown, and no retrieval", async () => {
    const out = await tempDir("spillway-eval-live-");
    const inventor: Responder = (request) => {
      const seen = conversationOf(request);
      return seen.steps.length > 0
        ? toolCall("agent__final_report", { report: "The value is ANS-ZZZZZZ." })
        : replyOf(fetchOf(seen.prompt)!);
    };
    const { episodes } = await runLiveEval({
      model: EVAL_MODEL,
      out,
      tasks: TASKS.slice(0, 1),
      policies: ["spillway", "spill-to-file-shell"],
      scriptedStandIn: () => inventor,
    });
    expect(episodes).toHaveLength(2);
    for (const e of episodes)
      expect(e).toMatchObject({ invented: true, correct: false, retrieved: false });
  });

  it("stops at once, naming the model and its error, when the model does not answer", async () => {
    const out = await tempDir("spillway-eval-live-");
    let requests = 0;
    const down: Responder = () => {
      requests += 1;
      return { error: { status: 503, message: "overloaded", retryAfterMs: 1 } };
    };
    await expect(
      runLiveEval({ model: EVAL_MODEL, out, tasks: TASKS, scriptedStandIn: () => down }),
    ).rejects.toThrow(`eval:live: the model ${EVAL_MODEL} did not answer. MODEL_UNAVAILABLE`);
    // One session's attempts, not every task's.
    expect(requests).toBeLessThanOrEqual(4);
  });
});

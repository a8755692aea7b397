/**
 * The evaluation end to end on a small subset: the real spillway runtime and every peer policy
 * on generated outputs, played by blind agents and scored from reports, then the report. The
 * full run is `npm run eval` (minutes, not for CI).
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseQuestion } from "../../eval/agents/question.js";
import { readAnswer } from "../../eval/agents/reader.js";
import { prepare } from "../../eval/prepared.js";
import { runEval, seedOf } from "../../eval/run-eval.js";
import { startSpillwayEnv } from "../../eval/spillway-env.js";
import { runSpillwayPolicy, spillwayResponder } from "../../eval/spillway-policy.js";
import { generateWorkload, KINDS } from "../../eval/workload.js";
import type { GuidanceSwitch } from "../../src/config/guidance.js";
import { loadTokenizer } from "../../src/core/tokens.js";
import { textOf } from "../../src/testing/index.js";
import { tempDir } from "../helpers/temp-store.js";

describe("eval workload", () => {
  it("plants each needle once, and the blind reader finds it in the whole output from the question alone", () => {
    for (const kind of KINDS) {
      const workload = generateWorkload(kind, "500KB", 3);
      expect(workload.bytes).toBeGreaterThan(500 * 1024 * 0.95);
      expect(workload.bytes).toBeLessThan(500 * 1024 * 1.05);
      for (const task of workload.tasks) {
        expect(workload.text.split(task.expected)).toHaveLength(2);
        const reading = readAnswer(parseQuestion(task.question), workload.text);
        expect(reading, task.id).toMatchObject({ kind: "answer", value: task.expected });
        // Without the needle's own span, the answer is nowhere.
        const without =
          workload.text.slice(0, task.span.start) + workload.text.slice(task.span.end);
        expect(without).not.toContain(task.expected);
      }
    }
    expect(generateWorkload("csv", "50KB", 9).text).toBe(generateWorkload("csv", "50KB", 9).text);
  });
});

describe("runEval", () => {
  it("runs every policy, spillway for real, scores reports, and writes the report, charts and episodes", async () => {
    const out = await tempDir("spillway-eval-report-");
    const { summary, episodes, reportPath } = await runEval({
      out,
      kinds: ["log", "json-pretty", "json-min"],
      sizes: ["50KB"],
    });
    const tasks = new Set(episodes.map((e) => e.taskId)).size;
    expect(episodes).toHaveLength(tasks * 10);
    // Scored from the report: right exactly when the report names the expected value.
    for (const e of episodes) {
      const workload = generateWorkload(e.kind, e.size, seedOf(1, e.kind, e.size));
      const task = workload.tasks.find((t) => t.id === e.taskId)!;
      expect(e.correct, `${e.policy} ${e.taskId}`).toBe(
        (e.report ?? "").includes(task.expected) && e.answer === task.expected,
      );
    }
    expect(summary.spillwayLossless).toBe(true);
    expect(summary.policies.spillway!.recall).toBeGreaterThan(0.8);
    // The handle message shows verbatim lines (a log's first and last lines, the lines a search
    // for the task's words found): an answer taken from them without a read is right, never
    // invented.
    for (const e of episodes.filter((e) => e.policy === "spillway" && !e.retrieved))
      expect(e.correct && !e.invented, e.taskId).toBe(true);
    expect(summary.policies["codex-head-tail"]!.recall).toBeLessThan(0.6);
    // Counted whole, every spillway request carries its tool definitions and notice.
    const spillway = episodes.filter((e) => e.policy === "spillway");
    for (const e of spillway) expect(e.tokensSent).toBeGreaterThan(e.tokensExposed + 500);
    const extract = episodes.filter((e) => e.policy === "spillway-extract");
    expect(extract.every((e) => e.extractionTokens !== undefined && e.wallMs >= 0)).toBe(true);
    const report = await readFile(reportPath, "utf8");
    expect(report).toContain("**Scripted stand-ins, not a real model.**");
    expect(report).toContain("| spillway (default surface) |");
    for (const chart of report.match(/\]\(([\w-]+\.png)\)/g) ?? []) {
      const file = /\(([\w-]+\.png)\)/.exec(chart)![1]!;
      expect((await stat(join(out, file))).size).toBeGreaterThan(5_000);
    }
    expect(report.match(/\.png\)/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    const saved = JSON.parse(await readFile(join(out, "episodes.json"), "utf8"));
    expect(saved).toHaveLength(episodes.length);
  }, 180_000);
});

describe("runEval with --ablate", () => {
  it("switches the named guidance off in spillway's sessions, and only there", async () => {
    const seen = async (ablate: readonly GuidanceSwitch[]) => {
      const env = await startSpillwayEnv(spillwayResponder(), ablate);
      try {
        const tokenizer = await loadTokenizer("o200k_base");
        const prepared = await prepare(generateWorkload("log", "50KB", 5), (t) =>
          tokenizer.count(t),
        );
        await runSpillwayPolicy(env, prepared, "spillway");
        return env.server.requests.flatMap((r) => r.messages.map((m) => textOf(m))).join("\n");
      } finally {
        await env.close();
      }
    };
    const heading = "A search of it for the words of your task";
    expect(await seen([])).toContain(heading);
    expect(await seen(["taskSearch"])).not.toContain(heading);
  }, 120_000);
});

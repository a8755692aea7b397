/**
 * The evaluation end to end on a small subset: the real spillway runtime and every baseline on
 * generated outputs, then the report. The full run is `npm run eval` (minutes, not for CI).
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPagingPolicy, runViewPolicy } from "../../eval/baselines.js";
import { prepare } from "../../eval/prepared.js";
import { runEval } from "../../eval/run-eval.js";
import { runSpillPolicy } from "../../eval/spill-to-file.js";
import { answerFrom, generateWorkload, KINDS } from "../../eval/workload.js";
import { loadTokenizer } from "../../src/core/tokens.js";
import { tempDir } from "../helpers/temp-store.js";

describe("eval workload", () => {
  it("plants each needle once, where the task says, and the scorer finds it only with its cue", () => {
    for (const kind of KINDS) {
      const workload = generateWorkload(kind, "500KB", 3);
      expect(workload.bytes).toBeGreaterThan(500 * 1024 * 0.95);
      expect(workload.bytes).toBeLessThan(500 * 1024 * 1.05);
      for (const task of workload.tasks) {
        const needle = workload.text.slice(task.span.start, task.span.end);
        expect(needle, task.id).toContain(task.expected);
        expect(answerFrom(task, workload.text), task.id).toBe(task.expected);
        // Without the needle's own span, the answer is nowhere.
        const without =
          workload.text.slice(0, task.span.start) + workload.text.slice(task.span.end);
        expect(answerFrom(task, without), task.id).toBeUndefined();
      }
    }
    expect(generateWorkload("csv", "50KB", 9).text).toBe(generateWorkload("csv", "50KB", 9).text);
  });
});

describe("baselines", () => {
  it("truncation shows what it keeps and nothing else; paging and spill-to-file reach the middle", async () => {
    const tokenizer = await loadTokenizer("o200k_base");
    const p = await prepare(generateWorkload("log", "500KB", 5), (t) => tokenizer.count(t));
    const codex = runViewPolicy("codex-head-tail", p);
    const byPosition = (list: typeof codex, position: string) =>
      list.find((e) => e.position === position)!;
    expect(byPosition(codex, "start").correct).toBe(true);
    expect(byPosition(codex, "middle").correct).toBe(false);
    expect(byPosition(codex, "last").correct).toBe(true);
    expect(byPosition(codex, "middle").visibleFraction!).toBeLessThan(0.05);
    // Codex's view is at most 10 KiB plus its header.
    expect(byPosition(codex, "middle").tokensExposed).toBeLessThan(5_000);
    const raw = runViewPolicy("raw", p);
    expect(raw.every((e) => e.failure?.startsWith("context overflow"))).toBe(true);
    const paging = runPagingPolicy(p);
    expect(byPosition(paging, "25%").correct).toBe(true);
    expect(byPosition(paging, "25%").toolCalls).toBeGreaterThan(20);
    const dir = await tempDir("spillway-eval-spill-");
    const spill = await runSpillPolicy(p, dir);
    expect(spill.every((e) => e.correct)).toBe(true);
    const minJson = await prepare(generateWorkload("json-min", "500KB", 5), (t) =>
      tokenizer.count(t),
    );
    const spillMin = await runSpillPolicy(minJson, dir);
    expect(byPosition(spillMin, "middle")).toMatchObject({
      correct: false,
      failure: expect.stringContaining("grep omits lines over 500 columns"),
    });
  });
});

describe("runEval", () => {
  it("runs every policy, spillway for real, and writes the report, charts and episodes", async () => {
    const out = await tempDir("spillway-eval-report-");
    const { summary, episodes, reportPath } = await runEval({
      out,
      kinds: ["log", "json-pretty", "json-min"],
      sizes: ["50KB", "500KB"],
    });
    expect(summary.spillwayRecall).toBe(1);
    expect(summary.spillwayExtractRecall).toBe(1);
    expect(summary.spillwayLossless).toBe(true);
    // The extraction model reads whole chunks: a cost beside the agent's context, reported.
    const extract = episodes.filter((e) => e.policy === "spillway-extract");
    expect(extract.every((e) => e.extractionTokens !== undefined && e.wallMs >= 0)).toBe(true);
    expect(summary.extractMedianExtractionTokens).toBeGreaterThan(
      summary.spillwayMedianTokensPerAnswer,
    );
    expect(summary.bestTruncationRecall).toBeLessThan(1);
    expect(summary.spillwayMedianTokensPerAnswer).toBeLessThan(
      summary.pagingMedianTokensPerAnswer / 10,
    );
    const tasks = new Set(episodes.map((e) => e.taskId)).size;
    expect(episodes).toHaveLength(tasks * 9);
    const report = await readFile(reportPath, "utf8");
    expect(report).toContain("# What blind truncation loses, and what spillway costs");
    expect(report).toContain("| spillway (default surface) | 100% |");
    for (const chart of report.match(/\]\(([\w-]+\.png)\)/g) ?? []) {
      const file = /\(([\w-]+\.png)\)/.exec(chart)![1]!;
      expect((await stat(join(out, file))).size).toBeGreaterThan(5_000);
    }
    expect(report.match(/\.png\)/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    const saved = JSON.parse(await readFile(join(out, "episodes.json"), "utf8"));
    expect(saved).toHaveLength(episodes.length);
  }, 120_000);
});

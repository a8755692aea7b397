/**
 * The live benchmark's harness (`npm run eval:live`) against scripted stand-ins of known
 * behaviour (eval/agents/file-reader.ts): a reader that reads the named file and searches what
 * was set aside, and an inventor. The real measurement needs a real model; this checks that every
 * policy is offered its tools over the real file server, that reports are scored, reads and
 * inventions counted, and that a run continues where it stopped.
 */
import { access, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responderOf } from "../../eval/agents/conversation.js";
import { fileReader, inventor } from "../../eval/agents/file-reader.js";
import type { LiveEpisode } from "../../eval/live/episode.js";
import { writeLiveReport } from "../../eval/live/report.js";
import { runLive } from "../../eval/live/run.js";
import { taskOf } from "../../eval/tasks/draw.js";
import { appLog } from "../../eval/tasks/shapes/app-log.js";
import { csvShipments } from "../../eval/tasks/shapes/csv-shipments.js";
import type { LiveTask } from "../../eval/tasks/types.js";
import { Rng } from "../../src/core/rng.js";
import {
  type Responder,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../../src/testing/index.js";
import { tempDir } from "../helpers/temp-store.js";

const MODEL = "openai-compatible/standin/scripted-reader";

/** Lookup tasks of two shapes: each names an identifier to search for. */
function lookupTasks(seed: number): LiveTask[] {
  return [appLog, csvShipments].map((shape, index) => {
    const file = shape.generate(new Rng(seed + index), 60_000);
    const spec = file.questions.find((q) => q.kind === "lookup")!;
    return taskOf(seed, index, shape.name, file, spec, 0);
  });
}

describe("eval:live harness", () => {
  let server: ScriptedModelServer;
  let respond: Responder = responderOf(fileReader);
  beforeAll(async () => {
    server = await startScriptedModelServer({
      respond: (request, context) => respond(request, context),
    });
  });
  afterAll(() => server.close());

  const configText = () =>
    JSON.stringify({
      providers: { "openai-compatible": { standin: { baseURL: server.baseURL } } },
      models: { [MODEL]: { contextWindow: 8192, maxOutputTokens: 512 } },
    });

  it("offers each policy its tools over the real file server, scores reports and counts reads", async () => {
    respond = responderOf(fileReader);
    const out = await tempDir("spillway-live-out-");
    const run = await runLive({
      model: MODEL,
      seed: 31,
      count: 2,
      tasks: lookupTasks(31),
      policies: ["spillway", "claude-code", "codex", "paging"],
      out,
      workDir: await tempDir("spillway-live-work-"),
      configText: configText(),
    });
    expect(run.episodes).toHaveLength(8);
    const of = (policy: string) => run.episodes.filter((e) => e.policy === policy);
    // Claude Code's Grep over the spilled file finds the line; spillway finds it by its grep or
    // shows it at once, among the lines its search for the task's words found.
    for (const policy of ["spillway", "claude-code"])
      for (const e of of(policy))
        expect(e, `${policy} ${e.taskId}: ${e.report}`).toMatchObject({
          correct: true,
          invented: false,
        });
    for (const e of of("claude-code")) expect(e.readBeforeAnswer, e.taskId).toBe(true);
    // Codex's cut and paging's first page keep neither answer; the reader says so, inventing nothing.
    for (const policy of ["codex", "paging"])
      for (const e of of(policy))
        expect(e, `${policy} ${e.taskId}`).toMatchObject({
          correct: false,
          invented: false,
        });
    // The app log's answer is a value it holds once: spillway and the spilled file's Grep showed
    // it, the cut and the first page never did. The CSV's answer repeats: seeing it says nothing.
    for (const e of run.episodes)
      expect(e.answerShown, `${e.policy} ${e.taskId}`).toBe(
        e.taskId === "31-02" ? null : e.policy === "spillway" || e.policy === "claude-code",
      );
    // What each policy showed is in the transcript: the handle message, the persisted output, the cut.
    expect(of("spillway")[0]!.transcript[0]!.shown).toContain("get_tool_output reads the rest");
    expect(of("claude-code")[0]!.transcript[0]!.shown).toContain("<persisted-output>");
    expect(of("paging")[0]!.transcript[0]!.shown).toContain(
      "Call get_continuation with tool_call_id=",
    );
    // Every episode is kept as it finished.
    const kept = (await readFile(run.episodesFile, "utf8")).trim().split("\n");
    expect(kept).toHaveLength(8);
    // The report says a stand-in played, and leads with the per-policy table.
    const path = await writeLiveReport({
      episodes: run.episodes,
      seed: 31,
      fresh: false,
      tasks: 2,
      modelLabel: "file reader",
      scripted: true,
      window: 8192,
      machine: "test",
      seconds: run.seconds,
      command: "test",
      variant: "default",
      out,
    });
    const text = await readFile(path, "utf8");
    expect(text).toContain("scripted stand-in, not a real model");
    expect(text.indexOf("## Per policy")).toBeLessThan(text.indexOf("## Per shape"));
    expect(text).toContain("| spillway | 2/2 (100%");
    expect(text).not.toContain("Partial run");
    // The method link resolves from wherever the report is written.
    const method = /\[docs\/evaluation\.md\]\(([^)#]+)#the-live-benchmark\)/.exec(text)![1]!;
    await expect(access(resolve(dirname(path), method))).resolves.toBeUndefined();
    const minutes = Math.round(run.episodes.reduce((sum, e) => sum + e.seconds, 0) / 60);
    expect(text).toContain(`${minutes} minutes of sessions, summed, on test.`);
    // spillway's sessions say where the model's time went; the peers' harness does not measure it.
    for (const e of of("spillway")) {
      expect(e.modelSeconds, e.taskId).toBeGreaterThan(0);
      expect(e).toMatchObject({ compactions: 0, compactionSeconds: 0 });
    }
    for (const e of of("codex")) expect(e.modelSeconds).toBeUndefined();
    expect(text).toMatch(
      /\nspillway: the model worked \d+ minutes over 2 sessions; 0 compactions in 0 of them took 0 of those minutes \(0%\)\.\n/,
    );
    expect(text).not.toMatch(/\ncodex: the model worked/);
    // Where the wrong answers were lost: the cut never reached the answer.
    expect(text).toContain(
      "\ncodex: of 1 wrong answer to a value the file holds once, 0 had it shown, 1 never reached it.\n",
    );
    expect(text).not.toMatch(/\nspillway: of \d+ wrong/);
    // A report of fewer tasks than the seed's says it is partial and how to continue.
    const partial = await writeLiveReport({
      episodes: run.episodes,
      seed: 31,
      fresh: false,
      tasks: 2,
      seedTasks: 30,
      modelLabel: "file reader",
      scripted: true,
      window: 8192,
      machine: "test",
      seconds: run.seconds,
      command: "npm run eval:live -- --seed 31 --tasks 30",
      variant: "default",
      out,
    });
    expect(await readFile(partial, "utf8")).toContain(
      "**Partial run: 2 of the seed's 30 tasks** (those every policy has played).",
    );
    // A run of one kind's tasks says so, and is not partial when it played all of them.
    const oneKind = await writeLiveReport({
      episodes: run.episodes,
      seed: 31,
      fresh: false,
      tasks: 2,
      seedTasks: 2,
      aimedAt: { kinds: ["lookup"], drawn: 8 },
      modelLabel: "file reader",
      scripted: true,
      window: 8192,
      machine: "test",
      seconds: run.seconds,
      command: "npm run eval:live -- --seed 31 --tasks 8 --kind lookup",
      variant: "default",
      out,
    });
    const oneKindText = await readFile(oneKind, "utf8");
    expect(oneKindText).toContain(
      "Only the lookup questions of the seed's first 8 drawn tasks were played (`--kind`)",
    );
    expect(oneKindText).not.toContain("Partial run");
    // A run aimed at one kind of file too names both.
    const oneShape = await writeLiveReport({
      episodes: run.episodes,
      seed: 31,
      fresh: false,
      tasks: 2,
      seedTasks: 2,
      aimedAt: { kinds: ["pattern"], shapes: ["test-output"], drawn: 800 },
      modelLabel: "file reader",
      scripted: true,
      window: 8192,
      machine: "test",
      seconds: run.seconds,
      command: "npm run eval:live -- --seed 31 --tasks 800 --kind pattern --shape test-output",
      variant: "default",
      out,
    });
    expect(await readFile(oneShape, "utf8")).toContain(
      "Only the pattern questions about test-output files of the seed's first 800 drawn tasks were played (`--kind`, `--shape`)",
    );
  });

  it("counts an answer given without reading as invented, and continues a run where it stopped", async () => {
    respond = responderOf(inventor);
    const out = await tempDir("spillway-live-out-");
    const work = await tempDir("spillway-live-work-");
    const options = {
      model: MODEL,
      seed: 32,
      count: 2,
      tasks: lookupTasks(32),
      out,
      workDir: work,
      configText: configText(),
    };
    const progress: string[] = [];
    const first = await runLive({
      ...options,
      policies: ["spillway"],
      only: { from: 1, to: 1 },
      log: (line) => progress.push(line),
    });
    expect(first.episodes).toHaveLength(1);
    // A fresh seed is played blind: the progress line neither judges nor quotes the answer.
    const blind = progress.filter((line) => line.startsWith("[1/1]"));
    expect(blind).toHaveLength(1);
    expect(blind[0]).toContain(": played · ");
    expect(blind[0]).not.toMatch(/wrong|right|zzq-90817/i);
    expect(first.episodes[0]).toMatchObject({
      correct: false,
      invented: true,
      readBeforeAnswer: false,
    });
    expect(first.episodes[0]!.inventedValues).toEqual(["zzq-90817"]);
    // A crash cut the last line short: the next run drops it and plays that episode again.
    const { appendFile } = await import("node:fs/promises");
    await appendFile(join(out, "episodes-32.jsonl"), '{"taskId":"32-02","pol');
    const second = await runLive({
      ...options,
      policies: ["spillway"],
      showOutcomes: true,
      log: (line) => progress.push(line),
    });
    expect(second.episodes.map((e) => e.taskId)).toEqual([
      first.episodes[0]!.taskId,
      lookupTasks(32)[1]!.id,
    ]);
    const lines = (await readFile(join(out, "episodes-32.jsonl"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(2);
    // Asked to, the progress line says how the answer went and quotes a wrong one.
    expect(progress.some((line) => /: wrong \(invented\) · .* · It is ZZQ-90817/.test(line))).toBe(
      true,
    );
  });
  it("shows a task the same output ids in every run of it, so two runs differ only where a behaviour does", async () => {
    respond = responderOf(fileReader);
    const work = await tempDir("spillway-live-work-");
    const play = async (ablate: string[]) =>
      runLive({
        model: MODEL,
        seed: 33,
        count: 1,
        tasks: lookupTasks(33).slice(0, 1),
        policies: ["spillway"],
        ablate,
        out: await tempDir("spillway-live-out-"),
        workDir: work,
        configText: configText(),
      });
    const first = (await play([])).episodes[0]!;
    const second = (await play(["notice"])).episodes[0]!;
    const handle = (e: LiveEpisode) => e.transcript[0]!.shown;
    expect(handle(first)).toMatch(/stored whole as out_[0-9a-z]{26}/);
    // The same handle message, id and all, though the second run is another variant.
    expect(handle(second)).toBe(handle(first));
  });

  it("plays only the drawn tasks of the kinds asked for, and says how many were selected", async () => {
    respond = responderOf(fileReader);
    const [first, second] = lookupTasks(35);
    // The second task asked as another kind: the filter reads the task's kind, nothing else.
    const tasks = [first!, { ...second!, kind: "cross-field" as const }];
    const progress: string[] = [];
    const run = await runLive({
      model: MODEL,
      seed: 35,
      count: 2,
      tasks,
      policies: ["spillway"],
      kinds: ["cross-field"],
      out: await tempDir("spillway-live-out-"),
      workDir: await tempDir("spillway-live-work-"),
      configText: configText(),
      log: (line) => progress.push(line),
    });
    expect(run.episodes.map((e) => e.taskId)).toEqual([second!.id]);
    expect(progress[0]).toContain("2 tasks (1 selected), spillway; 1 episodes to play");
    expect(run.selected.map((t) => t.id)).toEqual([second!.id]);
  });

  it("plays only the drawn tasks about files of the shapes asked for", async () => {
    respond = responderOf(fileReader);
    // An app log and a CSV file, both asked a lookup: only the shape tells them apart.
    const tasks = lookupTasks(36);
    const first = tasks[0]!;
    const run = await runLive({
      model: MODEL,
      seed: 36,
      count: 2,
      tasks,
      policies: ["spillway"],
      shapes: ["app-log"],
      out: await tempDir("spillway-live-out-"),
      workDir: await tempDir("spillway-live-work-"),
      configText: configText(),
    });
    expect(run.episodes.map((e) => e.taskId)).toEqual([first.id]);
    expect(run.selected.map((t) => t.id)).toEqual([first.id]);
  });
});

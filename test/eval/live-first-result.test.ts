/**
 * Where a session's first tool result put the answer (eval/live/first-result.ts): on handle
 * messages written out, then through the harness against the scripted stand-in, where spillway's
 * handle message and Codex's cut put a lookup's answer in different places.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responderOf } from "../../eval/agents/conversation.js";
import { fileReader } from "../../eval/agents/file-reader.js";
import { firstResultLines, firstResultPlace } from "../../eval/live/first-result.js";
import { writeLiveReport } from "../../eval/live/report.js";
import { runLive } from "../../eval/live/run.js";
import { taskOf } from "../../eval/tasks/draw.js";
import { appLog } from "../../eval/tasks/shapes/app-log.js";
import type { LiveTask } from "../../eval/tasks/types.js";
import { Rng } from "../../src/core/rng.js";
import { TASK_SEARCH_HEAD } from "../../src/surfaces/task-section.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../../src/testing/index.js";
import { tempDir } from "../helpers/temp-store.js";

const task = {
  id: "1-01",
  seed: 1,
  shape: "app-log",
  kind: "lookup",
  phrasing: 0,
  question: "Which order was req-7f3a2c for?",
  fileName: "data/01-app.log",
  text: "req-7f3a2c order=ord-58213\nreq-9b1d00 order=ord-77120\n",
  expected: "ord-58213",
  accepted: [],
  decoys: ["ord-77120"],
} as unknown as LiveTask;

const message = (search: string[], rest: string[] = []) =>
  [
    "[spillway] The output of fs__read_text_file is stored whole as out_1.",
    "",
    TASK_SEARCH_HEAD,
    ...search,
    "",
    ...rest,
  ].join("\n");

describe("where the first result put the answer", () => {
  it("tells the best result alone, beside a decoy, elsewhere, and absent", () => {
    expect(firstResultPlace(task, message(["  1| req-7f3a2c order=ord-58213"]))).toBe("best-alone");
    // A record shown whole: its numbered lines are the best result.
    expect(
      firstResultPlace(
        task,
        message([
          "  [record: log entry, lines 1-2; the search found line 1]",
          "  1| req-7f3a2c order=ord-58213",
          "  2| req-9b1d00 order=ord-77120",
        ]),
      ),
    ).toBe("best");
    // The answer on the second line the search shows, not the first: elsewhere.
    expect(
      firstResultPlace(
        task,
        message(["  2| req-9b1d00 order=ord-77120", "  1| req-7f3a2c order=ord-58213"]),
      ),
    ).toBe("elsewhere");
    // A first result with no search (a peer's cut) that holds it.
    expect(firstResultPlace(task, "req-7f3a2c order=ord-58213\n[… 40 lines cut …]")).toBe(
      "elsewhere",
    );
    expect(firstResultPlace(task, message(["  2| req-9b1d00 order=ord-77120"]))).toBe("absent");
    // The line numbers spillway adds are not the output's: a value that is only a number there is not shown.
    expect(
      firstResultPlace({ ...task, expected: "2", text: "a 2\n" } as LiveTask, "  2| a b"),
    ).toBe("absent");
  });

  it("says nothing where the file holds the value more than once", () => {
    const repeated = { ...task, text: `${task.text}retry ord-58213\n` } as LiveTask;
    expect(firstResultPlace(repeated, message(["  1| req-7f3a2c order=ord-58213"]))).toBeNull();
  });

  it("tables the right answers by place, a column a policy", () => {
    const lines = firstResultLines([
      { policy: "spillway", correct: true, firstResult: "best-alone" },
      { policy: "spillway", correct: false, firstResult: "best-alone" },
      { policy: "spillway", correct: false, firstResult: null },
      { policy: "codex", correct: false, firstResult: "absent" },
    ]);
    expect(lines[0]).toBe("| where the first result put the answer | spillway | codex |");
    expect(lines).toContain("| in the search's best result, no decoy beside it | 1 of 2 | – |");
    expect(lines).toContain("| not in the first result | – | 0 of 1 |");
    expect(firstResultLines([{ policy: "spillway", correct: true }])).toEqual([]);
  });
});

describe("eval:live records the place", () => {
  let server: ScriptedModelServer;
  beforeAll(async () => {
    server = await startScriptedModelServer({ respond: responderOf(fileReader) });
  });
  afterAll(() => server.close());

  it("for spillway's handle message and Codex's cut, and reports it", async () => {
    const MODEL = "openai-compatible/standin/scripted-reader";
    const file = appLog.generate(new Rng(51), 60_000);
    const spec = file.questions.find((q) => q.kind === "lookup")!;
    const lookup = taskOf(51, 0, appLog.name, file, spec, 0);
    const out = await tempDir("spillway-live-out-");
    const run = await runLive({
      model: MODEL,
      seed: 51,
      count: 1,
      tasks: [lookup],
      policies: ["spillway", "codex"],
      out,
      workDir: await tempDir("spillway-live-work-"),
      configText: JSON.stringify({
        providers: { "openai-compatible": { standin: { baseURL: server.baseURL } } },
        models: { [MODEL]: { contextWindow: 8192, maxOutputTokens: 512 } },
      }),
    });
    const of = (policy: string) => run.episodes.find((e) => e.policy === policy)!;
    // The task search shows the request's line first; Codex's head and tail never reach it.
    expect(of("spillway").firstResult).toBe("best-alone");
    expect(of("codex").firstResult).toBe("absent");
    // Kept with the episode, so a pool of runs can count it.
    expect(await readFile(run.episodesFile, "utf8")).toContain('"firstResult":"best-alone"');
    const path = await writeLiveReport({
      episodes: run.episodes,
      seed: 51,
      fresh: false,
      tasks: 1,
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
    expect(text).toContain("## Where the first result put the answer (right / tasks)");
    expect(text).toContain("| in the search's best result, no decoy beside it | 1 of 1 | – |");
    expect(text).toContain("| not in the first result | – | 0 of 1 |");
  });
});

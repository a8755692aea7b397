/**
 * An ablation against the default run, task by task (eval/live/compare.ts): the tasks that
 * flipped decide, through an exact sign test; the CLI reads both runs' kept episodes.
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { compareRuns, renderComparison, sameSession, signTest } from "../../eval/live/compare.js";
import { episodeLines, liveEpisode } from "../helpers/live-episode.js";
import { tempDir } from "../helpers/temp-store.js";

const run = promisify(execFile);

describe("signTest", () => {
  it("is the exact two-sided binomial p-value of the discordant pairs", () => {
    expect(signTest(0, 0)).toBe(1);
    expect(signTest(3, 3)).toBe(1);
    expect(signTest(7, 0)).toBeCloseTo(2 / 128, 10);
    expect(signTest(5, 1)).toBeCloseTo((2 * 7) / 64, 10);
    expect(signTest(1, 5)).toBeCloseTo(signTest(5, 1), 12);
  });
});

describe("compareRuns", () => {
  it("counts sessions that differ only in the outputs' random ids as the same, whatever their tokens", () => {
    const turn = (id: string) => ({
      did: `get_tool_output({"id":"${id}","mode":"search"})`,
      shown: `[${id} search "x": 1 matching line]`,
    });
    const a = liveEpisode("t1", true, {
      inputTokens: 2305,
      transcript: [turn("out_0123456789abcdefghjkmnpqrs")],
    });
    const b = liveEpisode("t1", true, {
      inputTokens: 2300,
      transcript: [turn("out_zyxwvtsrqpnmkjhgfedcba9876")],
    });
    expect(sameSession(a, b)).toBe(true);
    expect(compareRuns([a], [b], "spillway")).toMatchObject({
      fewerTokensWith: 0,
      moreTokensWith: 0,
    });
    const c = liveEpisode("t1", true, {
      inputTokens: 2300,
      transcript: [turn("out_zyxwvtsrqpnmkjhgfedcba9876"), turn("out_zyxwvtsrqpnmkjhgfedcba9876")],
    });
    expect(sameSession(a, c)).toBe(false);
    expect(compareRuns([a], [c], "spillway")).toMatchObject({ moreTokensWith: 1 });
  });

  it("names the tasks whose sessions differ and counts those that compacted", () => {
    const turn = (shown: string) => ({ did: "read()", shown });
    const withIt = ["t1", "t2", "t3"].map((id) =>
      liveEpisode(id, true, { transcript: [turn("a")] }),
    );
    const without = [
      liveEpisode("t1", true, { transcript: [turn("a")] }),
      liveEpisode("t2", true, { transcript: [turn("b")] }),
      liveEpisode("t3", false, { transcript: [turn("c")], compactions: 2 }),
    ];
    const paired = compareRuns(withIt, without, "spillway");
    expect(paired.differingSessions).toEqual(["t2", "t3"]);
    expect(paired.differingCompacted).toBe(1);
    expect(renderComparison(paired, "firstRun").join("\n")).toContain(
      "Sessions: the same in both runs on 1 task, different on 2 (1 of them compacted in either run): t2, t3.",
    );
    const alike = compareRuns(withIt, withIt, "spillway");
    expect(renderComparison(alike, "firstRun").join("\n")).toContain(
      "Sessions: the same in both runs on 3 tasks, different on 0 (0 of them compacted in either run).",
    );
  });

  it("pairs the tasks both runs played and counts those that flipped each way", () => {
    const withIt = [
      ...Array.from({ length: 8 }, (_, i) => liveEpisode(`t${i}`, true)),
      liveEpisode("t8", false),
      liveEpisode("t9", false, { invented: true }),
      liveEpisode("only-here", true),
      liveEpisode("t0", false, { policy: "codex" }),
    ];
    const without = [
      ...Array.from({ length: 8 }, (_, i) =>
        liveEpisode(`t${i}`, i >= 7, {
          inputTokens: 1500,
          transcript: [{ did: "read()", shown: "x" }],
        }),
      ),
      liveEpisode("t8", true),
      liveEpisode("t9", false, { invented: true }),
    ];
    const paired = compareRuns(withIt, without, "spillway");
    expect(paired).toMatchObject({
      tasks: 10,
      rightWith: 8,
      rightWithout: 2,
      onlyWith: 7,
      onlyWithout: 1,
      inventedWith: 1,
      inventedWithout: 1,
      inventedPValue: 1,
      medianTokensWith: 1000,
      medianTokensWithout: 1500,
      fewerTokensWith: 8,
      moreTokensWith: 0,
    });
    expect(paired.tokensPValue).toBeCloseTo(signTest(8, 0), 12);
    expect(renderComparison(paired, "notice").join("\n")).toContain(
      "Input tokens: fewer with notice on 8 tasks, more on 0, the same on 2 (sign test, p = 0.008;",
    );
    const strong = {
      ...paired,
      fewerTokensWith: 24,
      moreTokensWith: 1,
      tokensPValue: signTest(24, 1),
    };
    expect(renderComparison(strong, "notice").join("\n")).toContain("(sign test, p < 0.001;");
    expect(paired.flippedToWrong).toEqual(["t0", "t1", "t2", "t3", "t4", "t5", "t6"]);
    expect(paired.flippedToRight).toEqual(["t8"]);
    expect(paired.pValue).toBeCloseTo(signTest(7, 1), 12);
    // 7 against 1 is not beyond chance at 5% (p = 0.070); 7 against 0 is.
    expect(renderComparison(paired, "notice").join("\n")).toContain(
      "no difference beyond chance on these tasks (p = 0.070; 7 right only with it, 1 only without)",
    );
    const clear = { ...paired, onlyWithout: 0, pValue: signTest(7, 0) };
    expect(renderComparison(clear, "notice").join("\n")).toContain(
      "notice pays: without it 7 more tasks are wrong than right (p = 0.016)",
    );
    const costs = { ...paired, onlyWith: 0, onlyWithout: 7, pValue: signTest(0, 7) };
    expect(renderComparison(costs, "notice").join("\n")).toContain(
      "notice costs: without it 7 more tasks are right than wrong (p = 0.016)",
    );
  });
});

describe("npm run eval:live:compare", () => {
  it("reads the default run's and the ablation's episodes of a seed and prints the paired table", async () => {
    const out = await tempDir("spillway-compare-");
    await mkdir(join(out, "ablate-notice"), { recursive: true });
    await writeFile(
      join(out, "episodes-5.jsonl"),
      episodeLines([liveEpisode("a", true), liveEpisode("b", true), liveEpisode("c", false)]),
    );
    await writeFile(
      join(out, "ablate-notice", "episodes-5.jsonl"),
      episodeLines([liveEpisode("a", false), liveEpisode("b", true), liveEpisode("c", false)]),
    );
    const cli = ["tsx", "eval/live-compare.ts", "--seed", "5", "--ablate", "notice", "--out", out];
    const { stdout } = await run("npx", [...cli, "--json"]);
    expect(stdout).toContain("seed 5, spillway, 3 tasks played with and without notice");
    expect(stdout).toContain("| right | 2 of 3 (66.7%) | 1 (33.3%) |");
    const last = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(last).toMatchObject({
      seed: 5,
      variant: "ablate:notice",
      onlyWith: 1,
      onlyWithout: 0,
      fewerTokensWith: 0,
      moreTokensWith: 0,
      tokensPValue: 1,
    });
    const missing = await run("npx", [...cli.slice(0, 3), "6", ...cli.slice(4)]).catch(
      (error: { stderr: string; code: number }) => error,
    );
    expect(missing).toMatchObject({ code: 2 });
    expect((missing as { stderr: string }).stderr).toContain(
      "no task of seed 6 was played by spillway in both",
    );
    const bad = await run("npx", [...cli.slice(0, 4), "--ablate", "nope", ...cli.slice(6)]).catch(
      (error: { stderr: string }) => error,
    );
    expect((bad as { stderr: string }).stderr).toContain("--ablate: unknown nope; valid: notice,");
    expect((bad as { stderr: string }).stderr).toContain(", or a run recorded for seed 5: notice");
    // A switch since removed is compared where its run is recorded: the figures behind a removal
    // stay reproducible.
    await mkdir(join(out, "ablate-retiredSwitch"), { recursive: true });
    await writeFile(
      join(out, "ablate-retiredSwitch", "episodes-5.jsonl"),
      episodeLines([liveEpisode("a", true), liveEpisode("b", false), liveEpisode("c", false)]),
    );
    const retired = await run("npx", [
      ...cli.slice(0, 4),
      "--ablate",
      "retiredSwitch",
      ...cli.slice(6),
    ]);
    expect(retired.stdout).toContain("3 tasks played with and without retiredSwitch");
    expect(retired.stdout).toContain("| right | 2 of 3 (66.7%) | 1 (33.3%) |");
  }, 120_000);
});

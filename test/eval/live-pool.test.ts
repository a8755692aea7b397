/**
 * The live runs pooled (eval/live/pool.ts): every default run kept in a report directory, one
 * policy, grouped by kind, shape and both, worst first, with how the wrong answers were wrong.
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadRunEpisodes, poolOf, renderPool } from "../../eval/live/pool.js";
import { peerPairings, renderPeerPairings } from "../../eval/live/pool-peers.js";
import { repeatedCalls, repeatsOf, repeatsSentence } from "../../eval/live/pool-repeats.js";
import { episodeLines, liveEpisode } from "../helpers/live-episode.js";
import { tempDir } from "../helpers/temp-store.js";

const run = promisify(execFile);

const played = [
  liveEpisode("5-01", true, { kind: "lookup", shape: "csv" }),
  liveEpisode("5-02", false, { kind: "ordinal", shape: "csv", answerShown: true }),
  liveEpisode("5-03", false, { kind: "ordinal", shape: "app-log", answerShown: false }),
  liveEpisode("9-01", true, { seed: 9, kind: "ordinal", shape: "app-log" }),
  liveEpisode("9-02", false, { seed: 9, kind: "lookup", shape: "app-log" }),
  // Neither is a default run of spillway: both stay out of its pool.
  liveEpisode("9-03", false, { seed: 9, policy: "codex" }),
  liveEpisode("9-04", false, { seed: 9, variant: "ablate:notice" }),
];

describe("poolOf", () => {
  it("pools one policy's default runs, worst group first, splitting the wrong by what was shown", () => {
    const pool = poolOf(played, "spillway");
    expect(pool.seeds).toEqual([5, 9]);
    expect(pool.total).toEqual({
      key: "all",
      episodes: 5,
      right: 2,
      wrongShown: 1,
      wrongNotShown: 1,
      wrongUnknown: 1,
    });
    expect(pool.byKind.map((g) => [g.key, g.right, g.episodes])).toEqual([
      ["ordinal", 1, 3],
      ["lookup", 1, 2],
    ]);
    expect(pool.byShape.map((g) => g.key)).toEqual(["app-log", "csv"]);
    // Equal recall (0 of 1): ordered by key; the larger group would come first.
    expect(pool.cells.map((g) => `${g.key} ${g.right}/${g.episodes}`)).toEqual([
      "app-log · lookup 0/1",
      "csv · ordinal 0/1",
      "app-log · ordinal 1/2",
      "csv · lookup 1/1",
    ]);
    expect(poolOf(played, "codex").total).toMatchObject({ episodes: 1, right: 0 });
  });

  it("renders the total, the tables and only the lowest cells asked for", () => {
    const text = renderPool(poolOf(played, "spillway"), 2).join("\n");
    expect(text).toContain("2 of 5 right (40%) over 2 seeds (5, 9)");
    expect(text).toContain("| ordinal | 1 of 3 | 33% | 1 | 1 | 0 |");
    expect(text).toContain("## The 2 lowest of shape and kind together");
    expect(text).toContain("| csv · ordinal | 0 of 1 | 0% | 1 | 0 | 0 |");
    expect(text).not.toContain("| csv · lookup |");
  });
});

describe("peerPairings", () => {
  const theirs = [
    liveEpisode("5-01", false, { policy: "codex" }),
    liveEpisode("5-02", true, { policy: "codex" }),
    liveEpisode("9-01", true, { seed: 9, policy: "codex" }),
    // A task spillway never played, and an ablation: neither is paired.
    liveEpisode("7-01", true, { seed: 7, policy: "codex" }),
    liveEpisode("5-03", true, { policy: "codex", variant: "ablate:notice" }),
    liveEpisode("5-01", false, { policy: "claude-code" }),
  ];

  it("pairs each peer's tasks with the policy's own, counting who alone was right", () => {
    const pairings = peerPairings([...played, ...theirs], "spillway");
    expect(pairings.map((x) => x.peer)).toEqual(["claude-code", "codex"]);
    expect(pairings[1]).toEqual({
      peer: "codex",
      seeds: [5, 9],
      tasks: 3,
      onlyPolicy: 1,
      onlyPeer: 1,
      both: 1,
      p: 1,
    });
    expect(pairings[0]).toMatchObject({ tasks: 1, onlyPolicy: 1, onlyPeer: 0, both: 0 });
  });

  it("renders a row a peer, and nothing when no peer played the tasks", () => {
    const text = renderPeerPairings("spillway", peerPairings([...played, ...theirs], "spillway"));
    expect(text).toContain("| codex | 2 | 3 | 1 | 1 | 1 | p = 1.000 |");
    expect(renderPeerPairings("spillway", peerPairings(played.slice(0, 5), "spillway"))).toEqual(
      [],
    );
  });
});

describe("npm run eval:live:pool", () => {
  it("reads the runs kept in the directory, not the arms below it, and ends with JSON", async () => {
    const out = await tempDir("spillway-pool-");
    await writeFile(join(out, "episodes-5.jsonl"), episodeLines(played.slice(0, 3)));
    await writeFile(join(out, "episodes-9.jsonl"), episodeLines(played.slice(3)));
    await mkdir(join(out, "ablate-notice"));
    await writeFile(
      join(out, "ablate-notice", "episodes-5.jsonl"),
      episodeLines([liveEpisode("5-01", false)]),
    );
    expect((await loadRunEpisodes(out)).length).toBe(7);
    const cli = ["tsx", "eval/live-pool.ts", "--out", out];
    const { stdout } = await run("npx", [...cli, "--json"]);
    expect(stdout).toContain("2 of 5 right (40%) over 2 seeds (5, 9)");
    // The directory's codex session is of a task spillway did not play: nothing to pair.
    expect(stdout).not.toContain("Against the peers");
    const last = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(last.total).toMatchObject({ episodes: 5, right: 2 });
    expect(last.peers).toMatchObject([{ peer: "codex", tasks: 0, onlyPolicy: 0, onlyPeer: 0 }]);
    const none = await run("npx", [...cli, "--policy", "paging"]).catch(
      (error: { stderr: string; code: number }) => error,
    );
    expect(none).toMatchObject({ code: 2 });
    expect((none as { stderr: string }).stderr).toContain("no default run of paging is kept in");
    const bad = await run("npx", [...cli, "--policy", "gpt"]).catch(
      (error: { stderr: string }) => error,
    );
    expect((bad as { stderr: string }).stderr).toContain(
      "--policy: unknown gpt; valid: spillway, claude-code, codex, paging",
    );
  }, 120_000);
});

describe("repeated calls in the pool", () => {
  const turn = (did: string) => ({ did, shown: "" });
  const grep = 'get_tool_output({"id":"out_1","mode":"grep","pattern":"502"})';
  const report = 'agent__final_report({"report":"x"})';

  it("counts calls made before in the same session, the report left out", () => {
    expect(repeatedCalls({ transcript: [turn(grep), turn(grep), turn(grep), turn(report)] })).toBe(
      2,
    );
    expect(repeatedCalls({ transcript: [turn(report), turn(report)] })).toBe(0);
    expect(repeatedCalls({ transcript: [turn(grep), turn(grep.replace("502", "503"))] })).toBe(0);
  });

  it("splits the sessions' input tokens by whether they repeated a call", () => {
    const figures = repeatsOf([
      liveEpisode("5-01", true, { inputTokens: 30_000, transcript: [turn(grep), turn(grep)] }),
      liveEpisode("5-02", true, { inputTokens: 2_000, transcript: [turn(grep)] }),
      liveEpisode("5-03", false, { inputTokens: 4_000, transcript: [turn(report)] }),
    ]);
    expect(figures).toEqual({
      sessions: 3,
      withRepeat: 1,
      repeatedCalls: 1,
      medianTokensWithRepeat: 30_000,
      medianTokensWithout: 3_000,
    });
    expect(repeatsSentence(figures)).toBe(
      "Repeated calls: 1 of 3 sessions made a call they had made before, arguments and all (1 such call); median input tokens a session 30,000 with a repeat, 3,000 without.",
    );
  });
});

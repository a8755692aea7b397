/**
 * A live benchmark run: the tasks of a seed, each played by every policy with the same real
 * model, each episode kept as it finishes (a run continues where it stopped; a run can be split
 * across sessions with the same seed), progress with the time left.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { planRun } from "../../src/agent/run-settings.js";
import type { CliSettings } from "../../src/config/index.js";
import { loadTokenizer } from "../../src/core/tokens.js";
import { callModel } from "../../src/providers/model-caller.js";
import { languageModelFor } from "../../src/providers/models.js";
import { openSqliteStores } from "../../src/store/sqlite-history-store.js";
import { drawTasks } from "../tasks/draw.js";
import type { LiveTask, QuestionKind, ShapeName } from "../tasks/types.js";
import { AGENT_INSTRUCTIONS, LIVE_MAX_TURNS, PROJECT_DIR, writeAgentFile } from "./agent-file.js";
import {
  episodeKey,
  episodeOf,
  keepEpisode,
  type LiveEpisode,
  loadEpisodes,
  type PlayedSession,
} from "./episode.js";
import { connectFileServer } from "./file-server.js";
import { FINAL_REPORT, type PeerHarness, peerLoop } from "./peer-loop.js";
import { claudeCode } from "./peers/claude-code.js";
import { codex } from "./peers/codex.js";
import { paging } from "./peers/paging.js";
import { openReplyCache } from "./reply-cache.js";
import { playSpillway } from "./spillway-session.js";
import { taskIds } from "./task-ids.js";

/** Every policy the benchmark can play; the default run plays the first three. */
export const LIVE_POLICIES = ["spillway", "claude-code", "codex", "paging"] as const;
export type LivePolicy = (typeof LIVE_POLICIES)[number];
export const DEFAULT_LIVE_POLICIES: readonly LivePolicy[] = ["spillway", "claude-code", "codex"];

/** The window every policy plays in by default (tokens): what a small local model runs with. */
export const LIVE_CONTEXT_WINDOW = 8192;

/** The peers' system prompt: the agent file's instructions, and how to finish. */
export const PEER_SYSTEM = `${AGENT_INSTRUCTIONS}\n\nWhen your task is done, call ${FINAL_REPORT} with your complete answer.`;

export interface LiveRunOptions {
  /** The model ref every policy plays with. */
  readonly model: string;
  readonly seed: number;
  readonly count: number;
  readonly chars?: number;
  readonly policies?: readonly LivePolicy[];
  /** Guidance behaviours switched off for spillway (an ablation); the variant's name. */
  readonly ablate?: readonly string[];
  readonly window?: number;
  /** Where the episodes file goes (the report's directory). */
  readonly out: string;
  /** Where the task files, the agent file and spillway's store go. */
  readonly workDir: string;
  /** The tasks to play instead of drawing `count` from `seed` (the harness's tests). */
  readonly tasks?: readonly LiveTask[];
  /** Only the tasks with these 1-based indexes (a run split across sessions). */
  readonly only?: { readonly from: number; readonly to: number };
  /** Play only the tasks of these question kinds (the draw is the seed's, so they pair). */
  readonly kinds?: readonly QuestionKind[];
  /** Play only the tasks about files of these shapes (the draw is the seed's, so they pair). */
  readonly shapes?: readonly ShapeName[];
  /** A config file's text for the work directory (the scripted stand-in's provider, in tests). */
  readonly configText?: string;
  readonly log?: (line: string) => void;
  /**
   * Say in each progress line whether the answer was right, and quote a wrong one. Off by
   * default: a run of a fresh seed is played blind, its sessions read only once it is complete,
   * so that nothing is changed for its tasks while they are played (docs/evaluation.md).
   */
  readonly showOutcomes?: boolean;
  /**
   * Give spillway's sessions the kept reply to a request the model answered before, byte for
   * byte (reply-cache.ts; default on). Off, every request is computed again (and kept).
   */
  readonly replay?: boolean;
}

/**
 * Whether a task is of the question kinds and file shapes a run is aimed at (`--kind`,
 * `--shape`; every task when neither is given).
 */
export function aimedAt(options: {
  readonly kinds?: readonly QuestionKind[];
  readonly shapes?: readonly ShapeName[];
}): (task: LiveTask) => boolean {
  return (task) =>
    (!options.kinds || options.kinds.includes(task.kind)) &&
    (!options.shapes || options.shapes.includes(task.shape));
}

export interface LiveRun {
  readonly tasks: readonly LiveTask[];
  /** The tasks this run plays: those of `only`, `kinds` and `shapes`. */
  readonly selected: readonly LiveTask[];
  /** This run's episodes: those kept earlier for the same seed and variant, and the new ones. */
  readonly episodes: readonly LiveEpisode[];
  readonly seconds: number;
  readonly episodesFile: string;
}

/** Right or wrong, and invented, for a progress line. */
const outcomeOf = (episode: LiveEpisode) =>
  `${episode.correct ? "right" : "wrong"}${episode.invented ? " (invented)" : ""}`;

/** The variant an ablation plays as. */
export const variantOf = (ablate: readonly string[] = []) =>
  ablate.length === 0 ? "default" : `ablate:${[...ablate].sort().join(",")}`;

/** Where a variant's report and episodes go: `root` (eval/report-live/), an ablation's below it. */
export const liveReportDir = (
  variant: string,
  root = resolve(import.meta.dirname, "..", "report-live"),
) => (variant === "default" ? root : join(root, variant.replace(/[:,]/g, "-")));

/** The file a seed's episodes are kept in. */
export const episodesFileOf = (out: string, seed: number) => join(out, `episodes-${seed}.jsonl`);

function harnessOf(
  policy: Exclude<LivePolicy, "spillway">,
  project: string,
  spill: string,
  window: number,
  count: (t: string) => number,
): PeerHarness {
  if (policy === "claude-code") return claudeCode(project, spill, Math.floor(window / 4), count);
  // Codex estimates four bytes a token; a user whose window is 8K sets its tool output limit
  // so that a cut of dense text (about a token a byte) still leaves room for the history.
  if (policy === "codex") return codex(project, Math.floor(window / 8));
  return paging();
}

const duration = (seconds: number) => {
  const m = Math.round(seconds / 60);
  return m >= 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m} min`;
};

/**
 * Runs (or continues) a seed's tasks under every policy.
 *
 * @example
 * const run = await runLive({ model: "local/qwen2.5-coder-1.5b-instruct-q4_k_m", seed: 418263, count: 30, out: "eval/report-live", workDir: ".cache/eval-live/418263" });
 */
export async function runLive(options: LiveRunOptions): Promise<LiveRun> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const policies = options.policies ?? DEFAULT_LIVE_POLICIES;
  const window = options.window ?? LIVE_CONTEXT_WINDOW;
  const variant = variantOf(options.ablate);
  const tasks =
    options.tasks ??
    drawTasks({
      seed: options.seed,
      count: options.count,
      ...(options.chars ? { chars: options.chars } : {}),
    });
  const projectDir = join(options.workDir, PROJECT_DIR);
  await mkdir(join(projectDir, "data"), { recursive: true });
  for (const task of tasks) await writeFile(join(projectDir, task.fileName), task.text);
  if (options.configText)
    await writeFile(join(options.workDir, "spillway.config.json"), options.configText);
  const agentPath = await writeAgentFile(options.workDir);
  const episodesFile = episodesFileOf(options.out, options.seed);
  const kept = (await loadEpisodes(episodesFile)).filter((e) => e.variant === variant);
  const done = new Set(kept.map(episodeKey));
  const episodes: LiveEpisode[] = [...kept];
  const plan = await planRun({
    agent: agentPath,
    cli: { models: options.model, contextWindow: window },
    cwd: options.workDir,
  });
  const target = plan.settings.models[0]!;
  const model = languageModelFor(target);
  const replies = await openReplyCache(join(options.workDir, "replies.jsonl"), {
    replay: options.replay ?? true,
  });
  const cachedCall: typeof callModel = (targets, request) =>
    replies.reply(targets, request, () => callModel(targets, request));
  const tokenizer = await loadTokenizer("o200k_base");
  const countText = (text: string) => tokenizer.count(text);
  const settings: CliSettings = {
    contextWindow: window,
    maxTurns: LIVE_MAX_TURNS,
    ...(options.ablate && options.ablate.length > 0
      ? { guidance: Object.fromEntries(options.ablate.map((name) => [name, false])) }
      : {}),
  } as CliSettings;
  const selected = tasks.filter(
    (task, i) =>
      (!options.only || (i + 1 >= options.only.from && i + 1 <= options.only.to)) &&
      aimedAt(options)(task),
  );
  const todo = selected.flatMap((task) =>
    policies
      .filter((policy) => !done.has(episodeKey({ taskId: task.id, policy, variant })))
      .map((policy) => ({ task, policy })),
  );
  log(
    `eval:live seed ${options.seed}: ${tasks.length} tasks${selected.length < tasks.length ? ` (${selected.length} selected)` : ""}, ${policies.join(", ")}${variant === "default" ? "" : ` (${variant})`}; ${todo.length} episodes to play, ${selected.length * policies.length - todo.length} kept from before`,
  );
  let played = 0;
  let spent = 0;
  for (const { task, policy } of todo) {
    const t0 = performance.now();
    const onTurn = (turn: { inputTokens: number; outputTokens: number }) =>
      log(
        `    ${policy} call: ${turn.inputTokens} in, ${turn.outputTokens} out, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
    let session: PlayedSession;
    const before = { ...replies.counts };
    if (policy === "spillway") {
      // A store of its own for each play, its ids drawn from the task: the same task gets the
      // same output ids in every run, so two runs of it show the model the same text until a
      // behaviour makes them differ (random ids alone changed what a model did next).
      const home = join(options.workDir, "store", variant, task.id);
      await rm(home, { recursive: true, force: true });
      const stores = await openSqliteStores({ home, ids: taskIds(task.id) });
      try {
        session = await playSpillway({
          agentPath,
          cwd: options.workDir,
          stores,
          model: options.model,
          prompt: task.question,
          settings,
          onTurn,
          callModel: cachedCall,
        });
      } finally {
        await stores.close();
      }
    } else {
      const files = await connectFileServer(projectDir, options.workDir);
      const spill = join(options.workDir, "spill", `${task.id}-${policy}`);
      await mkdir(spill, { recursive: true });
      try {
        session = await peerLoop(
          model,
          harnessOf(policy, projectDir, spill, window, countText),
          files,
          {
            system: PEER_SYSTEM,
            prompt: task.question,
            maxTurns: LIVE_MAX_TURNS,
            window,
            maxOutputTokens: target.maxOutputTokens,
            requireToolCalls: plan.settings.textReplies === "none",
            countText,
            onTurn,
          },
        );
      } finally {
        await files.close();
      }
      if (session.failure?.includes("MODEL_UNAVAILABLE"))
        throw new Error(`eval:live: the model ${options.model} did not answer. ${session.failure}`);
    }
    // A replayed reply counts the seconds the model took to compute it, so a task's time does
    // not depend on what an earlier run already played.
    const replayed = replies.counts.replayed - before.replayed;
    const wall = (performance.now() - t0) / 1000;
    const seconds = wall + (replies.counts.replayedMs - before.replayedMs) / 1000;
    const episode = {
      ...episodeOf(task, session, { policy, variant, model: options.model, seconds }),
      ...(replayed > 0 ? { replayedRequests: replayed } : {}),
    };
    await keepEpisode(episodesFile, episode);
    episodes.push(episode);
    played++;
    spent += wall;
    const left = todo.length - played;
    log(
      `[${played}/${todo.length}] ${policy.padEnd(11)} ${task.id} ${task.shape}/${task.kind}: ${options.showOutcomes ? outcomeOf(episode) : "played"} · ${episode.requests} calls${replayed > 0 ? ` (${replayed} replayed)` : ""}, ${episode.inputTokens} tokens, ${wall.toFixed(0)} s` +
        (left > 0 ? ` · about ${duration((spent / played) * left)} left` : "") +
        (options.showOutcomes && !episode.correct
          ? ` · ${(episode.report ?? episode.failure ?? "").slice(0, 90).replace(/\s+/g, " ")}`
          : ""),
    );
  }
  return { tasks, selected, episodes, seconds: (performance.now() - started) / 1000, episodesFile };
}

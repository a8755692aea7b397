/**
 * Every live run kept in a report directory, pooled for one policy: where its right answers are
 * lost, by question kind, by shape, and by the two together, and whether a wrong answer's session
 * had been shown the expected value. The runs are of different seeds played by different commits,
 * so the pool says which questions hold recall back; it is not a figure of one product
 * (docs/evaluation.md, "Where recall is lost").
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type LiveEpisode, loadEpisodes } from "./episode.js";
import { groupBy } from "./figures.js";
import { type FirstResultPlace, firstResultLines } from "./first-result.js";
import { type RepeatFigures, repeatsOf, repeatsSentence } from "./pool-repeats.js";

/** One group of the pool: its episodes, the right ones, and how the wrong ones were wrong. */
export interface PoolGroup {
  /** `lookup`, `csv`, or `csv · ordinal` for a cell. */
  readonly key: string;
  readonly episodes: number;
  readonly right: number;
  /** Wrong answers whose session had been shown the expected value in a tool result. */
  readonly wrongShown: number;
  /** Wrong answers whose session was never shown it. */
  readonly wrongNotShown: number;
  /** Wrong answers of episodes that do not record it (older ones, or a value the file repeats). */
  readonly wrongUnknown: number;
}

export interface LivePool {
  readonly policy: string;
  /** The seeds pooled, in ascending order. */
  readonly seeds: readonly number[];
  readonly total: PoolGroup;
  readonly byKind: readonly PoolGroup[];
  readonly byShape: readonly PoolGroup[];
  /** Shape and kind together, lowest recall first (more episodes first among equals). */
  readonly cells: readonly PoolGroup[];
  /** How many sessions repeated a call word for word, and what they sent. */
  readonly repeats: RepeatFigures;
  /** The episodes that record where their first result put the answer (first-result.ts). */
  readonly placed: readonly {
    readonly seed: number;
    readonly policy: string;
    readonly correct: boolean;
    readonly firstResult: FirstResultPlace | null;
  }[];
}

const EPISODES_FILE = /^episodes-(\d+)\.jsonl$/;

/**
 * The episodes of every run kept directly in `dir` (`episodes-SEED.jsonl`; the ablations' and
 * paired arms' directories below it are left out: they are not default runs).
 *
 * @example
 * const episodes = await loadRunEpisodes("eval/report-live");
 */
export async function loadRunEpisodes(dir: string): Promise<LiveEpisode[]> {
  const files = readdirSync(dir)
    .filter((name) => EPISODES_FILE.test(name))
    .sort();
  const runs = await Promise.all(files.map((name) => loadEpisodes(join(dir, name))));
  return runs.flat();
}

function groupOf(key: string, episodes: readonly LiveEpisode[]): PoolGroup {
  const wrong = episodes.filter((e) => !e.correct);
  return {
    key,
    episodes: episodes.length,
    right: episodes.length - wrong.length,
    wrongShown: wrong.filter((e) => e.answerShown === true).length,
    wrongNotShown: wrong.filter((e) => e.answerShown === false).length,
    wrongUnknown: wrong.filter((e) => e.answerShown !== true && e.answerShown !== false).length,
  };
}

const recallOf = (g: PoolGroup) => (g.episodes === 0 ? 0 : g.right / g.episodes);

/** Lowest recall first; among equal ones the larger group, then by key. */
const worstFirst = (a: PoolGroup, b: PoolGroup) =>
  recallOf(a) - recallOf(b) || b.episodes - a.episodes || a.key.localeCompare(b.key);

function groupsBy(episodes: readonly LiveEpisode[], key: (e: LiveEpisode) => string): PoolGroup[] {
  return [...groupBy(episodes, key)].map(([k, list]) => groupOf(k, list)).sort(worstFirst);
}

/**
 * The pool of `policy`'s default runs (no guidance switched off) among `episodes`.
 *
 * @example
 * const pool = poolOf(await loadRunEpisodes("eval/report-live"), "spillway");
 * pool.cells[0]; // { key: "test-output · cross-field", episodes: 9, right: 0, … }
 */
export function poolOf(episodes: readonly LiveEpisode[], policy: string): LivePool {
  const played = episodes.filter((e) => e.policy === policy && e.variant === "default");
  return {
    policy,
    seeds: [...new Set(played.map((e) => e.seed))].sort((a, b) => a - b),
    total: groupOf("all", played),
    byKind: groupsBy(played, (e) => e.kind),
    byShape: groupsBy(played, (e) => e.shape),
    cells: groupsBy(played, (e) => `${e.shape} · ${e.kind}`),
    repeats: repeatsOf(played),
    placed: played
      .filter((e) => typeof e.firstResult === "string")
      .map((e) => ({
        seed: e.seed,
        policy: e.policy,
        correct: e.correct,
        firstResult: e.firstResult ?? null,
      })),
  };
}

const percent = (g: PoolGroup) => `${Math.round(recallOf(g) * 100)}%`;

function tableRows(groups: readonly PoolGroup[]): string[] {
  return [
    "| | right | recall | wrong, value shown | wrong, never shown | wrong, not recorded |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...groups.map(
      (g) =>
        `| ${g.key} | ${g.right} of ${g.episodes} | ${percent(g)} | ${g.wrongShown} | ${g.wrongNotShown} | ${g.wrongUnknown} |`,
    ),
  ];
}

/**
 * The pool as Markdown: the total, then the tables by kind, by shape, and the `worstCells`
 * lowest cells of shape and kind together.
 */
export function renderPool(pool: LivePool, worstCells = 12): string[] {
  const { total } = pool;
  return [
    `# Where ${pool.policy}'s live answers are lost, pooled`,
    "",
    `${total.right} of ${total.episodes} right (${percent(total)}) over ${pool.seeds.length} seeds (${pool.seeds.join(", ")}), each played by the commit of its run: the pool locates the losses, it does not measure one product. Of the ${total.episodes - total.right} wrong, ${total.wrongShown} had been shown the expected value, ${total.wrongNotShown} never were, ${total.wrongUnknown} do not record it.`,
    "",
    repeatsSentence(pool.repeats),
    "",
    "## By question kind",
    "",
    ...tableRows(pool.byKind),
    "",
    "## By shape",
    "",
    ...tableRows(pool.byShape),
    "",
    `## The ${Math.min(worstCells, pool.cells.length)} lowest of shape and kind together`,
    "",
    ...tableRows(pool.cells.slice(0, worstCells)),
    ...placeRows(pool),
  ];
}

/** The pooled right answers by where the first result put the answer, where episodes record it. */
function placeRows(pool: LivePool): string[] {
  const table = firstResultLines(pool.placed);
  if (table.length === 0) return [];
  return [
    "",
    "## Where the first result put the answer",
    "",
    `Runs that record it (${[...new Set(pool.placed.map((e) => e.seed))].join(", ")}); only answers the file holds once.`,
    "",
    ...table,
  ];
}

/**
 * An ablation against the default, task by task: the same seed's tasks played by one policy with
 * and without a behaviour. Two runs on the same tasks differ mostly where single tasks flip, so
 * the comparison is paired: the tasks right in one run and wrong in the other (the discordant
 * pairs) decide, through an exact two-sided sign test on them (McNemar's exact test). A behaviour
 * pays when switching it off loses right answers (or adds invented ones) beyond what that test
 * calls chance. Tokens are paired the same way: the tasks that sent fewer tokens with the
 * behaviour against those that sent more, by the same sign test, so a behaviour that leaves
 * something out is judged on what it saves as well. Two sessions that made the same calls and
 * were shown the same texts, the stored outputs' ids aside, are a tie whatever their counts:
 * each run draws new random ids, which alone move a session's count by a few tokens.
 */
import { findOutputIds } from "../../src/testing/index.js";
import type { LiveEpisode } from "./episode.js";
import { median } from "./figures.js";

export interface PairedComparison {
  /** Tasks both runs played. */
  readonly tasks: number;
  /** Right with the behaviour (the default run), and without it (the ablation). */
  readonly rightWith: number;
  readonly rightWithout: number;
  /** Right only with the behaviour; right only without it. */
  readonly onlyWith: number;
  readonly onlyWithout: number;
  /** Exact two-sided p-value of the discordant pairs (1 when there are none). */
  readonly pValue: number;
  readonly inventedWith: number;
  readonly inventedWithout: number;
  /** Exact two-sided p-value of the tasks invented in one run only. */
  readonly inventedPValue: number;
  /** Median input tokens per task, every request counted whole. */
  readonly medianTokensWith: number | null;
  readonly medianTokensWithout: number | null;
  /**
   * Tasks that sent fewer input tokens with the behaviour, and more (sessions the same but for
   * the outputs' ids are neither); the sign test's p-value.
   */
  readonly fewerTokensWith: number;
  readonly moreTokensWith: number;
  readonly tokensPValue: number;
  /** The tasks that flipped, by id: right with the behaviour only, and without it only. */
  readonly flippedToWrong: readonly string[];
  readonly flippedToRight: readonly string[];
  /**
   * The tasks whose two sessions differ (a call made or a text shown, the outputs' ids aside),
   * and how many of those compacted their history in either run. Only these can flip: in an A/A
   * run of a deterministic model every task should be the same session.
   */
  readonly differingSessions: readonly string[];
  readonly differingCompacted: number;
}

/** ln C(n, k). */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/**
 * The exact two-sided p-value of a sign test: `a` against `b` outcomes, each 1/2 by chance.
 *
 * @example
 * signTest(7, 0); // 0.0156
 */
export function signTest(a: number, b: number): number {
  const n = a + b;
  if (n === 0) return 1;
  const low = Math.min(a, b);
  let tail = 0;
  for (let k = 0; k <= low; k++) tail += Math.exp(logChoose(n, k) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** The text with every stored output's id (random in every run) written alike. */
const withoutIds = (text: string | undefined) =>
  findOutputIds(text ?? "").reduce((t, id) => t.replaceAll(id, "out_…"), text ?? "");

/**
 * The two sessions made the same calls and were shown the same texts, the outputs' ids aside.
 *
 * @example
 * sameSession(a, b); // true when only the random ids differ
 */
export function sameSession(x: LiveEpisode, y: LiveEpisode): boolean {
  if (x.transcript.length !== y.transcript.length) return false;
  return x.transcript.every((turn, i) => {
    const other = y.transcript[i]!;
    return (
      withoutIds(turn.did) === withoutIds(other.did) &&
      withoutIds(turn.shown) === withoutIds(other.shown)
    );
  });
}

/** One policy's episodes by task id. */
export const byTask = (episodes: readonly LiveEpisode[], policy: string) =>
  new Map(episodes.filter((e) => e.policy === policy).map((e) => [e.taskId, e]));

/**
 * Pairs the default run's episodes with an ablation's, task by task, for one policy.
 *
 * @example
 * const paired = compareRuns(defaults, ablated, "spillway");
 * paired.onlyWith; // tasks right only with the behaviour
 */
export function compareRuns(
  withBehaviour: readonly LiveEpisode[],
  withoutBehaviour: readonly LiveEpisode[],
  policy: string,
): PairedComparison {
  const a = byTask(withBehaviour, policy);
  const b = byTask(withoutBehaviour, policy);
  const pairs = [...a.keys()].filter((id) => b.has(id)).map((id) => [a.get(id)!, b.get(id)!]);
  const count = (test: (x: LiveEpisode, y: LiveEpisode) => boolean) =>
    pairs.filter(([x, y]) => test(x!, y!)).length;
  const flippedToWrong = pairs
    .filter(([x, y]) => x!.correct && !y!.correct)
    .map(([x]) => x!.taskId);
  const flippedToRight = pairs
    .filter(([x, y]) => !x!.correct && y!.correct)
    .map(([x]) => x!.taskId);
  const inventedOnlyWith = count((x, y) => x.invented && !y.invented);
  // Sessions the same but for their ids are neither fewer nor more.
  const differing = pairs.filter(([x, y]) => !sameSession(x!, y!));
  const fewerTokensWith = differing.filter(([x, y]) => x!.inputTokens < y!.inputTokens).length;
  const moreTokensWith = differing.filter(([x, y]) => x!.inputTokens > y!.inputTokens).length;
  const inventedOnlyWithout = count((x, y) => !x.invented && y.invented);
  return {
    tasks: pairs.length,
    rightWith: count((x) => x.correct),
    rightWithout: count((_, y) => y.correct),
    onlyWith: flippedToWrong.length,
    onlyWithout: flippedToRight.length,
    pValue: signTest(flippedToWrong.length, flippedToRight.length),
    inventedWith: count((x) => x.invented),
    inventedWithout: count((_, y) => y.invented),
    inventedPValue: signTest(inventedOnlyWith, inventedOnlyWithout),
    medianTokensWith: median(pairs.map(([x]) => x!.inputTokens)),
    medianTokensWithout: median(pairs.map(([, y]) => y!.inputTokens)),
    fewerTokensWith,
    moreTokensWith,
    tokensPValue: signTest(fewerTokensWith, moreTokensWith),
    flippedToWrong,
    flippedToRight,
    differingSessions: differing.map(([x]) => x!.taskId),
    differingCompacted: differing.filter(
      ([x, y]) => (x!.compactions ?? 0) > 0 || (y!.compactions ?? 0) > 0,
    ).length,
  };
}

/** A p-value to three decimals, or as a bound below that. */
export const formatP = (p: number) => (p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`);

const tasks = (n: number) => `${n} task${n === 1 ? "" : "s"}`;

const pct = (n: number, of: number) => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}%`);

/**
 * The comparison as Markdown lines, for a report or a terminal.
 *
 * @example
 * console.log(renderComparison(paired, "taskFocus").join("\n"));
 */
export function renderComparison(paired: PairedComparison, behaviour: string): string[] {
  const verdict =
    paired.tasks === 0
      ? "no task was played by both runs"
      : paired.pValue < 0.05
        ? paired.onlyWith > paired.onlyWithout
          ? `${behaviour} pays: without it ${paired.onlyWith - paired.onlyWithout} more tasks are wrong than right (${formatP(paired.pValue)})`
          : `${behaviour} costs: without it ${paired.onlyWithout - paired.onlyWith} more tasks are right than wrong (${formatP(paired.pValue)})`
        : `no difference beyond chance on these tasks (${formatP(paired.pValue)}; ${paired.onlyWith} right only with it, ${paired.onlyWithout} only without)`;
  const tokens = (n: number | null) => (n === null ? "–" : Math.round(n).toLocaleString("en-US"));
  return [
    `| | with ${behaviour} | without |`,
    "| --- | --- | --- |",
    `| right | ${paired.rightWith} of ${paired.tasks} (${pct(paired.rightWith, paired.tasks)}) | ${paired.rightWithout} (${pct(paired.rightWithout, paired.tasks)}) |`,
    `| right in this run only | ${paired.onlyWith} | ${paired.onlyWithout} |`,
    `| invented | ${paired.inventedWith} | ${paired.inventedWithout} |`,
    `| median tokens a task | ${tokens(paired.medianTokensWith)} | ${tokens(paired.medianTokensWithout)} |`,
    "",
    `Paired on the same tasks (exact sign test on the tasks that flipped): ${verdict}. Invented: ${formatP(paired.inventedPValue)}.`,
    `Sessions: the same in both runs on ${tasks(paired.tasks - paired.differingSessions.length)}, different on ${paired.differingSessions.length} (${paired.differingCompacted} of them compacted in either run)${paired.differingSessions.length > 0 ? `: ${paired.differingSessions.join(", ")}` : ""}. Only a task whose sessions differ can flip.`,
    `Input tokens: fewer with ${behaviour} on ${tasks(paired.fewerTokensWith)}, more on ${paired.moreTokensWith}, the same on ${paired.tasks - paired.fewerTokensWith - paired.moreTokensWith} (sign test, ${formatP(paired.tokensPValue)}; the same: equal counts, or the same session but for the outputs' ids).`,
  ];
}

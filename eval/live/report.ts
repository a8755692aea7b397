/**
 * The live benchmark's report (`README.md` beside the episodes): the fresh-seed table per policy
 * first, then per shape and per question kind, then the worst sessions quoted turn by turn.
 */
import { writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { clipText } from "../../src/core/clip-text.js";
import { SHAPES } from "../tasks/types.js";
import type { LiveEpisode } from "./episode.js";
import { figuresOf, groupBy, type PolicyFigures, policyFigures } from "./figures.js";
import { firstResultLines } from "./first-result.js";

/** docs/evaluation.md, whose link a report writes relative to its own folder. */
const EVALUATION_DOC = join(dirname(fileURLToPath(import.meta.url)), "../../docs/evaluation.md");

/** `1 policy`, `3 policies`. */
function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What a run aimed at one kind of question or file played, as its report says it. */
function aimedAtText(aimed: NonNullable<LiveReportOptions["aimedAt"]>): string {
  const questions = aimed.kinds ? `${aimed.kinds.join(" and ")} questions` : "questions";
  const files = aimed.shapes ? ` about ${aimed.shapes.join(" and ")} files` : "";
  const flags = [aimed.kinds ? "`--kind`" : "", aimed.shapes ? "`--shape`" : ""].filter(Boolean);
  return `Only the ${questions}${files} of the seed's first ${aimed.drawn} drawn tasks were played (${flags.join(", ")}): a run aimed at those, not a figure of every kind.`;
}

export interface LiveReportOptions {
  readonly episodes: readonly LiveEpisode[];
  readonly seed: number;
  readonly fresh: boolean;
  readonly tasks: number;
  /** The seed's task count (`--tasks`, those of `kinds`): a report of fewer says it is partial. */
  readonly seedTasks?: number;
  /**
   * The question kinds (`--kind`) and file shapes (`--shape`) played, when not every one was,
   * and the tasks drawn.
   */
  readonly aimedAt?: {
    readonly kinds?: readonly string[];
    readonly shapes?: readonly string[];
    readonly drawn: number;
  };
  /** Who played: a real model (name, size, quantization) or a scripted stand-in, said so. */
  readonly modelLabel: string;
  readonly scripted: boolean;
  readonly window: number;
  readonly machine: string;
  readonly seconds: number;
  readonly command: string;
  readonly variant: string;
  readonly out: string;
  /** Worst sessions quoted, per policy. */
  readonly worstPerPolicy?: number;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const cell = (f: PolicyFigures) =>
  `${f.right}/${f.episodes} (${pct(f.recall)}, ${pct(f.recallLow)}–${pct(f.recallHigh)})`;

function policyRows(figures: Record<string, PolicyFigures>): string[] {
  return [
    "| policy | recall (95% interval) | invented a value | read before answering | median tokens per right answer | median seconds per task |",
    "| --- | --- | --- | --- | --- | --- |",
    ...Object.entries(figures).map(
      ([p, f]) =>
        `| ${p} | ${cell(f)} | ${pct(f.inventedRate)} | ${f.retrievalBeforeAnswerRate === null ? "–" : pct(f.retrievalBeforeAnswerRate)} | ${f.medianTokensPerRightAnswer?.toLocaleString("en-US") ?? "–"} | ${f.medianSecondsPerTask ?? "–"} |`,
    ),
  ];
}

function splitRows(
  episodes: readonly LiveEpisode[],
  by: (e: LiveEpisode) => string,
  order: readonly string[],
  label: string,
): string[] {
  const policies = [...new Set(episodes.map((e) => e.policy))];
  const keys = order.filter((k) => episodes.some((e) => by(e) === k));
  return [
    `| ${label} | ${policies.join(" | ")} |`,
    `| --- | ${policies.map(() => "---").join(" | ")} |`,
    ...keys.map((k) => {
      const cells = policies.map((p) => {
        const list = episodes.filter((e) => by(e) === k && e.policy === p);
        const f = figuresOf(list);
        return list.length === 0 ? "–" : `${f.right}/${f.episodes}`;
      });
      return `| ${k} | ${cells.join(" | ")} |`;
    }),
  ];
}

/** How bad an episode is: invented beats wrong beats no report; more tokens is worse. */
const badness = (e: LiveEpisode) =>
  (e.correct ? 0 : 1) + (e.invented ? 2 : 0) + (e.decoysNamed.length > 0 ? 1 : 0);

function sessionQuote(e: LiveEpisode): string[] {
  const out = [
    `#### ${e.policy} · ${e.taskId} (${e.shape}, ${e.kind}): ${e.correct ? "right" : "wrong"}${e.invented ? `, invented ${e.inventedValues.map((v) => clipText(v, 80, { sayLength: true })).join(", ")}` : ""}`,
    "",
    `Question: ${e.question}`,
    `Expected: \`${e.expected}\`${e.decoysNamed.length > 0 ? `; the report named the decoy${e.decoysNamed.length > 1 ? "s" : ""} ${e.decoysNamed.map((d) => `\`${d}\``).join(", ")}` : ""}`,
    "",
  ];
  e.transcript.forEach((turn, i) => {
    out.push(`${i + 1}. **did:** \`${turn.did.replace(/`/g, "'").slice(0, 400)}\``);
    if (turn.shown.trim() !== "")
      out.push(
        "",
        "   ```text",
        ...turn.shown
          .split("\n")
          .slice(0, 25)
          .map((l) => `   ${l}`),
        "   ```",
      );
  });
  out.push(
    "",
    `Report: ${e.report === null ? `(none: ${e.failure ?? "no report"})` : `“${e.report.replace(/\s+/g, " ").slice(0, 500)}”`}`,
    "",
  );
  return out;
}

/**
 * Where each measured policy's time went: the model's seconds for the agent and for compaction
 * summaries (each breaks the local model's prefix reuse), from the episodes that measured them.
 *
 * @example
 * timeLines(episodes); // ["spillway: the model worked 331 minutes; 26 compactions in 17 of 30 sessions took 114 of them (35%).", ""]
 */
export function timeLines(episodes: readonly LiveEpisode[]): string[] {
  const lines: string[] = [];
  for (const [policy, list] of groupBy(episodes, (e) => e.policy)) {
    const timed = list.filter((e) => e.modelSeconds !== undefined);
    if (timed.length === 0) continue;
    const compactionSeconds = timed.reduce((sum, e) => sum + (e.compactionSeconds ?? 0), 0);
    const total = timed.reduce((sum, e) => sum + (e.modelSeconds ?? 0), 0) + compactionSeconds;
    const compactions = timed.reduce((sum, e) => sum + (e.compactions ?? 0), 0);
    const compacted = timed.filter((e) => (e.compactions ?? 0) > 0).length;
    const minutes = (s: number) => Math.round(s / 60).toLocaleString("en-US");
    const share = total > 0 ? Math.round((compactionSeconds / total) * 100) : 0;
    lines.push(
      `${policy}: the model worked ${minutes(total)} minutes over ${timed.length} sessions; ${compactions} compaction${compactions === 1 ? "" : "s"} in ${compacted} of them took ${minutes(compactionSeconds)} of those minutes (${share}%).`,
    );
  }
  return lines.length > 0 ? [...lines, ""] : [];
}

/**
 * Where the wrong answers were lost, per policy, for answers the file holds once: a tool result
 * showed the value (the model read past it) or none did (the reads never reached it). Answers
 * the file repeats cannot tell; older episodes did not record it.
 *
 * @example
 * missLines(episodes); // ["spillway: of 9 wrong answers to a value the file holds once, 6 had it shown, 3 never reached it.", ""]
 */
export function missLines(episodes: readonly LiveEpisode[]): string[] {
  const lines: string[] = [];
  for (const [policy, list] of groupBy(episodes, (e) => e.policy)) {
    const wrong = list.filter((e) => !e.correct && typeof e.answerShown === "boolean");
    if (wrong.length === 0) continue;
    const shown = wrong.filter((e) => e.answerShown).length;
    lines.push(
      `${policy}: of ${wrong.length} wrong answer${wrong.length === 1 ? "" : "s"} to a value the file holds once, ${shown} had it shown, ${wrong.length - shown} never reached it.`,
    );
  }
  return lines.length > 0 ? [...lines, ""] : [];
}

/**
 * Right answers by where the first tool result put the answer (first-result.ts), for answers the
 * file holds once; nothing for episodes that do not record it.
 */
function placeSection(episodes: readonly LiveEpisode[]): string[] {
  const table = firstResultLines(episodes);
  if (table.length === 0) return [];
  return [
    "## Where the first result put the answer (right / tasks)",
    "",
    "What the model had in front of it before it read anything on purpose: spillway's first result of a large file is its handle message, whose search for the task's words shows its best result first; a peer's is its preview or cut. Only answers the file holds once.",
    "",
    ...table,
    "",
  ];
}

/**
 * Writes the report and returns its path.
 *
 * @example
 * await writeLiveReport({ episodes, seed, fresh: true, tasks: 30, modelLabel, scripted: false, window: 8192, machine, seconds, command, variant: "default", out });
 */
export async function writeLiveReport(options: LiveReportOptions): Promise<string> {
  const { episodes } = options;
  const figures = policyFigures(episodes);
  const worst = options.worstPerPolicy ?? 2;
  const heading = options.scripted
    ? `# Live benchmark: scripted stand-in, not a real model (${options.modelLabel})`
    : `# Live benchmark: ${options.modelLabel}`;
  const sessionMinutes = Math.round(episodes.reduce((sum, e) => sum + e.seconds, 0) / 60);
  const partial =
    options.seedTasks !== undefined && options.tasks < options.seedTasks
      ? [
          `**Partial run: ${options.tasks} of the seed's ${options.seedTasks} tasks** (those every policy has played). The command below continues it: the episodes kept are not played again.`,
          "",
        ]
      : [];
  const aimed = options.aimedAt ? [aimedAtText(options.aimedAt), ""] : [];
  const lines = [
    heading,
    "",
    ...partial,
    ...aimed,
    `Seed **${options.seed}** (${options.fresh ? "fresh: drawn for this run, never iterated on" : "given with --seed"}), ${options.tasks} tasks, ${plural(Object.keys(figures).length, "policy", "policies")}, ${episodes.length} episodes; ` +
      `every policy in a ${options.window.toLocaleString("en-US")}-token window; ${options.variant === "default" ? "spillway's default settings" : `spillway with ${options.variant}`}. ` +
      `${sessionMinutes} minutes of sessions, summed, on ${options.machine}.`,
    "",
    `Reproduce: \`${options.command}\``,
    "",
    "Each task is a file of a common shape and a question a person would ask about it; the agent is a plain agent file reading the file through the real `@modelcontextprotocol/server-filesystem`. " +
      "A report is right when it names the expected value and none of the decoys; a value is invented when no tool result of the session showed it. " +
      `Method: [docs/evaluation.md](${relative(resolve(options.out), EVALUATION_DOC)}#the-live-benchmark).`,
    "",
    "## Per policy",
    "",
    ...policyRows(figures),
    "",
    ...timeLines(episodes),
    ...missLines(episodes),
    ...placeSection(episodes),
    "## Per shape (right / tasks)",
    "",
    ...splitRows(episodes, (e) => e.shape, SHAPES, "shape"),
    "",
    "## Per question kind (right / tasks)",
    "",
    ...splitRows(episodes, (e) => e.kind, ["lookup", "ordinal", "cross-field", "pattern"], "kind"),
    "",
    "## The worst sessions, turn by turn",
    "",
    "What the model did each turn and what it was shown next (results clipped).",
    "",
  ];
  for (const [, list] of groupBy(episodes, (e) => e.policy)) {
    const bad = [...list]
      .filter((e) => !e.correct)
      .sort((a, b) => badness(b) - badness(a) || b.inputTokens - a.inputTokens);
    for (const e of bad.slice(0, worst)) lines.push(...sessionQuote(e));
  }
  const path = join(options.out, "README.md");
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

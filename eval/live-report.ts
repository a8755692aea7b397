/**
 * The live report (eval/report-live/README.md) and its charts: per policy, real recall, how
 * often the model retrieved before answering, how often it invented a value, and tokens per
 * right answer (the model's own counts); per task, what each policy's run reported.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TopLevelSpec } from "vega-lite";
import { renderPng } from "./chart-render.js";
import { CONFIG, PLOT_WIDTH, policyColor } from "./chart-style.js";
import { type Episode, POLICIES, type PolicyName } from "./episode.js";
import { POLICY_INFO } from "./policy-info.js";
import { byPolicy, figuresOf, type PolicyFigures } from "./summary.js";

const pct = (x: number | null) =>
  x === null || Number.isNaN(x) ? "–" : `${Math.round(x * 1000) / 10}%`;
const int = (x: number | null) =>
  x === null || Number.isNaN(x) ? "–" : Math.round(x).toLocaleString("en-US");

export interface LiveReportInput {
  readonly episodes: readonly Episode[];
  readonly model: string;
  /** Name, size and quantization of the model, as the report's title gives it. */
  readonly modelLabel: string;
  readonly scripted: boolean;
  readonly seconds: number;
  readonly out: string;
  /** Machine notes for the method section (cores, load). */
  readonly machine: string;
  /** Settings spillway's sessions ran with, when not the defaults. */
  readonly spillwaySettings?: object;
  /** The context window every policy played in (tokens), when set for the run. */
  readonly contextWindow?: number;
  /** The seed the tasks were generated with. */
  readonly seed?: number;
}

export function livePolicies(episodes: readonly Episode[]): PolicyName[] {
  return POLICIES.filter((p) => episodes.some((e) => e.policy === p));
}

/** Per-policy figures of a live run (the `--json` line holds these). */
export function liveFigures(
  episodes: readonly Episode[],
  model: string,
): Partial<Record<PolicyName, PolicyFigures>> {
  return Object.fromEntries(
    livePolicies(episodes).map((p) => [p, figuresOf(byPolicy(episodes, p), p, model)]),
  );
}

function barChart(
  title: string,
  subtitle: string,
  rows: { policy: PolicyName; value: number }[],
  axis: { title: string; format: string },
): TopLevelSpec {
  const policies = rows.map((r) => r.policy);
  return {
    title: { text: title, subtitle },
    config: CONFIG,
    width: PLOT_WIDTH,
    height: 40 * Math.max(1, rows.length),
    data: { values: rows.map((r) => ({ ...r, label: POLICY_INFO[r.policy].label })) },
    mark: { type: "bar" },
    encoding: {
      y: { field: "label", type: "nominal", sort: null, axis: { title: null, labelLimit: 420 } },
      x: { field: "value", type: "quantitative", axis },
      color: policyColor(policies, false),
    },
  };
}

async function charts(input: LiveReportInput): Promise<{ file: string; title: string }[]> {
  const figures = liveFigures(input.episodes, input.model);
  const policies = livePolicies(input.episodes);
  const made = [
    {
      file: "live-recall.png",
      title: "Recall with one real model",
      spec: barChart(
        `Recall: ${input.modelLabel}`,
        "Share of tasks whose final report names the expected value (and no other); same model, same tasks, per policy.",
        policies.map((p) => ({ policy: p, value: figures[p]!.recall })),
        { title: "Recall", format: "~%" },
      ),
    },
    {
      file: "live-tokens-per-right-answer.png",
      title: "Tokens per right answer",
      spec: barChart(
        `Input tokens per right answer: ${input.modelLabel}`,
        "Median over the tasks answered right of every request's input tokens, as the model counted them.",
        policies
          .filter((p) => figures[p]!.medianTokensPerRightAnswer !== null)
          .map((p) => ({ policy: p, value: figures[p]!.medianTokensPerRightAnswer! })),
        { title: "Input tokens (median over right answers)", format: "~s" },
      ),
    },
  ];
  for (const chart of made)
    await writeFile(join(input.out, chart.file), await renderPng(chart.spec));
  return made.map(({ file, title }) => ({ file, title }));
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * Writes README.md and the charts into `input.out`; returns the README's path.
 *
 * @example
 * await writeLiveReport({ episodes, model, modelLabel: "Qwen2.5-Coder 1.5B Instruct, Q4_K_M", scripted: false, seconds, out, machine });
 */
export async function writeLiveReport(input: LiveReportInput): Promise<string> {
  const { episodes } = input;
  const figures = liveFigures(episodes, input.model);
  const policies = livePolicies(episodes);
  const tasks = [...new Set(episodes.map((e) => e.taskId))];
  const drawn = input.scripted ? [] : await charts(input);
  const summary = table(
    [
      "policy",
      "recall",
      "retrieved before answering",
      "invented a value",
      "median input tokens per right answer",
      "input tokens per right answer (all ÷ right)",
      "median model calls",
      "did not end in a report",
    ],
    policies.map((p) => {
      const f = figures[p]!;
      const list = byPolicy(episodes, p);
      return [
        POLICY_INFO[p].label,
        `${pct(f.recall)} (${list.filter((e) => e.correct).length}/${list.length})`,
        f.retrievalBeforeAnswerRate === null
          ? "– (no tool to read more)"
          : `${pct(f.retrievalBeforeAnswerRate)} (${list.filter((e) => e.retrieved).length}/${list.length})`,
        `${pct(f.inventedRate)} (${list.filter((e) => e.invented).length}/${list.length})`,
        int(f.medianTokensPerRightAnswer),
        int(f.tokensPerRightAnswer),
        int(f.medianRequests),
        `${list.filter((e) => e.report === null).length}/${list.length}`,
      ];
    }),
  );
  const cell = (e: Episode | undefined) =>
    !e
      ? "–"
      : `${e.correct ? "right" : e.invented ? "**invented**" : e.report === null ? "no report" : "wrong"}${e.retrieved ? ", read" : ""}`;
  const perTask = table(
    ["task", ...policies.map((p) => POLICY_INFO[p].label)],
    tasks.map((t) => [
      `\`${t}\``,
      ...policies.map((p) => cell(episodes.find((e) => e.taskId === t && e.policy === p))),
    ]),
  );
  const wrong = episodes
    .filter((e) => !e.correct)
    .map(
      (e) =>
        `- ${POLICY_INFO[e.policy].label}, \`${e.taskId}\`: ${e.report === null ? `no report (${e.failure ?? "ended"})` : JSON.stringify(e.report.replace(/\s+/g, " ").slice(0, 240))}`,
    );
  const parts = [
    `# Live evaluation: ${input.modelLabel}`,
    "",
    ...(input.scripted
      ? [
          "**Scripted stand-in, not a real model**: this report tests the harness; `npm run eval:live` runs a real model.",
          "",
        ]
      : []),
    `One real model, \`${input.model}\` (${input.modelLabel}), plays every policy on the same ${tasks.length} tasks: spillway through ` +
      "its runtime (`runAgent`, default settings" +
      (input.spillwaySettings ? ` with ${JSON.stringify(input.spillwaySettings)}` : "") +
      "), each peer through an AI SDK loop with that policy's tools really offered (Bash over the spilled file, get_continuation for paging). " +
      "Each task is scored from the run's final report. Generated by `npm run eval:live`; do not edit by hand.",
    "",
    summary,
    "",
    ...drawn.flatMap((c) => [`![${c.title}](${c.file})`, ""]),
    "## Per task",
    "",
    perTask,
    "",
    ...(wrong.length > 0 ? ["## What the wrong runs reported", "", ...wrong, ""] : []),
    "## Method",
    "",
    '- **Prompt** (every policy): `Call data__fetch with output="doc-…". <question> Answer with the exact value.` The id is opaque; the answer is never in the prompt.',
    "- **Right**: the final report names the expected value and no other answer-shaped value. **Retrieved before answering**: a call of a tool that reads more " +
      "(get_tool_output / wait_for_tool_output; Bash; get_continuation) came before the report. **Invented**: the report states a code-like value " +
      "(capitals and digits joined by dashes) that no tool result showed the model.",
    "- **Tokens**: the input tokens of every model call, as the model's own tokenizer counted them (the whole request each time: tool definitions, " +
      "instructions, history, spillway's notice). Per right answer: the median over the tasks answered right.",
    ...(input.contextWindow
      ? [
          `- **Context window**: ${input.contextWindow.toLocaleString("en-US")} tokens for every policy, replies up to 1,024. A session whose next request does not fit ends there without a report: the peers' loop does not compact or clear old results (Claude Code and Codex compact long sessions; this harness does not imitate it), while spillway's runtime fits every request to the window itself.`,
        ]
      : []),
    ...(input.seed !== undefined
      ? [`- **Tasks**: generated with seed ${input.seed} (\`--seed\`).`]
      : []),
    `- **Machine**: ${input.machine}. Ran in ${Math.round(input.seconds)} s.`,
    "- The policies' sources and parameters: [the scripted report's policy table](../report/README.md#policies).",
    "",
  ];
  const path = join(input.out, "README.md");
  await writeFile(path, parts.join("\n"));
  return path;
}

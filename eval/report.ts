/** Writes eval/report/README.md: tables, one paragraph per finding, the charts, the method. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChartFile } from "./charts.js";
import {
  type Episode,
  POLICIES,
  type PolicyName,
  REQUEST_TOKEN_LIMIT,
  TRUNCATION_POLICIES,
} from "./episode.js";
import { POLICY_INFO } from "./policy-info.js";
import { byPolicy, median, recall, type Summary } from "./summary.js";
import { type Kind, POSITIONS, type SizeLabel } from "./workload.js";

export interface ReportInput {
  readonly episodes: readonly Episode[];
  readonly summary: Summary;
  readonly charts: readonly ChartFile[];
  readonly out: string;
  readonly kinds: readonly Kind[];
  readonly sizes: readonly SizeLabel[];
  readonly seed: number;
  readonly seconds: number;
}

const pct = (x: number) => {
  if (Number.isNaN(x)) return "–";
  // Small shares keep two significant digits (spillway reads 0.0013% of a 50 MB output).
  if (x > 0 && x < 0.001) return `${(x * 100).toPrecision(2)}%`;
  return `${Math.round(x * 1000) / 10}%`;
};
const int = (x: number) => (Number.isNaN(x) ? "–" : Math.round(x).toLocaleString("en-US"));
const ms = (x: number) =>
  Number.isNaN(x) ? "–" : x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString("en-US");

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

function activePolicies(episodes: readonly Episode[]): PolicyName[] {
  return POLICIES.filter((p) => episodes.some((e) => e.policy === p));
}

function crossTable<K extends string>(
  episodes: readonly Episode[],
  keys: readonly K[],
  keyOf: (e: Episode) => string,
  cell: (list: Episode[]) => string,
): string {
  const policies = activePolicies(episodes);
  const present = keys.filter((k) => episodes.some((e) => keyOf(e) === k));
  return table(
    ["policy", ...present],
    policies.map((p) => [
      POLICY_INFO[p].label,
      ...present.map((k) => {
        const list = byPolicy(episodes, p).filter((e) => keyOf(e) === k);
        return list.length === 0 ? "–" : cell(list);
      }),
    ]),
  );
}

const rate = (x: number | null) => (x === null ? "–" : pct(x));

function headline(input: ReportInput): string {
  const largest = input.summary.largestSize;
  const rows = activePolicies(input.episodes).map((p) => {
    const list = byPolicy(input.episodes, p);
    const f = input.summary.policies[p]!;
    const atLargest = list.filter((e) => e.size === largest);
    const visible = list.filter((e) => e.visibleFraction !== null).map((e) => e.visibleFraction!);
    const keeps = p.startsWith("spillway")
      ? list.every((e) => e.lossless)
        ? "all SHA-256 identical"
        : "NOT lossless"
      : visible.length > 0
        ? `${pct(median(visible))} visible`
        : "whole file on disk";
    const extraction = list.filter((e) => e.extractionTokens !== undefined);
    return [
      POLICY_INFO[p].label,
      pct(f.recall),
      pct(recall(atLargest)),
      rate(f.retrievalBeforeAnswerRate),
      pct(f.inventedRate),
      int(f.medianTokensPerTask),
      int(f.medianTokensPerRightAnswer ?? Number.NaN),
      int(median(atLargest.map((e) => e.tokensSent))),
      int(f.medianRequests),
      ms(median(list.map((e) => e.wallMs))),
      extraction.length === 0 ? "–" : int(median(extraction.map((e) => e.extractionTokens!))),
      keeps,
    ];
  });
  return table(
    [
      "policy",
      "recall",
      `recall at ${largest}`,
      "retrieved before answering",
      "invented",
      "median tokens sent per task",
      "… per right answer",
      `… per task at ${largest}`,
      "median requests",
      "median ms (harness)",
      "extraction-model tokens (median)",
      "the output",
    ],
    rows,
  );
}

/** One paragraph per finding, with the figures that support it. */
function findings(input: ReportInput): string[] {
  const { episodes, summary } = input;
  const out: string[] = [];
  const spillway = byPolicy(episodes, "spillway");
  const largest = summary.largestSize;
  const f = summary.policies;
  if (spillway.length > 0)
    out.push(
      `**spillway's blind agent answered ${spillway.filter((e) => e.correct).length} of ${spillway.length} tasks (${pct(summary.spillwayRecall)})** ` +
        `across ${input.kinds.length} kinds, ${input.sizes.length} sizes and every needle position, sending a median of ` +
        `${int(f.spillway!.medianTokensPerTask)} tokens per task (every request whole: tool definitions, instructions, the per-turn notice, ` +
        `the calls and results); at ${largest} that is ${pct(summary.spillwayMedianShareOfOutputAtLargest)} of the output's tokens. ` +
        `Every stored copy was byte-identical to the output (SHA-256): ${summary.spillwayLossless ? "yes" : "NO"}.`,
    );
  const peers = activePolicies(episodes).filter((p) => !p.startsWith("spillway"));
  if (peers.length > 0 && spillway.length > 0) {
    const cheaper = peers.filter(
      (p) => f[p]!.medianTokensPerTask < f.spillway!.medianTokensPerTask,
    );
    out.push(
      `**The best peer, ${POLICY_INFO[summary.bestPeer.policy!].label}, answered ${pct(summary.bestPeer.recall)}.** ` +
        (cheaper.length > 0
          ? `Per task, ${cheaper.map((p) => `${POLICY_INFO[p].label} (${int(f[p]!.medianTokensPerTask)})`).join(", ")} sent fewer tokens than spillway ` +
            `(${int(f.spillway!.medianTokensPerTask)}): counted whole, spillway's requests carry its surface's tool definitions and the per-turn notice, ` +
            "which a cut view or a single shell tool do not."
          : "Every peer sent more tokens per task than spillway."),
    );
  }
  const truncation = TRUNCATION_POLICIES.filter((p) => f[p]).map((p) => {
    const list = byPolicy(episodes, p);
    const visible = median(
      list.filter((e) => e.visibleFraction !== null).map((e) => e.visibleFraction!),
    );
    return `${POLICY_INFO[p].label} ${pct(recall(list))} (median visible ${pct(visible)})`;
  });
  if (truncation.length > 0)
    out.push(
      `**Truncation answers only what it happens to show.** Recall: ${truncation.join("; ")}. ` +
        "The blind agents answer the needles a cut happens to keep and say they cannot find the rest.",
    );
  const raw = byPolicy(episodes, "raw");
  if (raw.length > 0) {
    const overflow = raw.filter((e) => e.failure?.startsWith("context overflow")).length;
    out.push(
      `**Raw passthrough works until it does not fit.** It answered ${pct(recall(raw))}; ${overflow} of ${raw.length} requests ` +
        `held more than one request may (${int(REQUEST_TOKEN_LIMIT)} tokens of a 128K window) and were refused, their tokens sent all the same.`,
    );
  }
  const paging = byPolicy(episodes, "paging-4000");
  if (paging.length > 0 && spillway.length > 0) {
    const full = paging.filter((e) => e.failure?.startsWith("context overflow")).length;
    const paired = summary.paired;
    out.push(
      `**Paging is lossless but resends every page.** Continuation paging answered ${pct(recall(paging))}; ` +
        `${full} of ${paging.length} tasks ran out of context window before reaching their page. Each request carries every page read so far, ` +
        `so its tokens grow with the square of the pages read. On the same tasks (the ${paired.tasks} both answered right), paging sent a median of ` +
        `${int(paired.pagingMedian)} tokens against spillway's ${int(paired.spillwayMedian)}; per task, paging's ÷ spillway's has a median of ` +
        `${paired.medianRatio.toFixed(2)}. Paging is cheap only where the answer sits on the first page it reads.`,
    );
  }
  const spill = byPolicy(episodes, "spill-to-file");
  const shell = byPolicy(episodes, "spill-to-file-shell");
  if (spill.length > 0 || shell.length > 0) {
    const minJson = spill.filter((e) => e.kind === "json-min");
    out.push(
      `**Spilling to a file keeps everything; what the model can do with the file decides the rest.** ` +
        (spill.length > 0
          ? `With Claude Code's Read and Grep and no shell it answered ${pct(recall(spill))} (${pct(recall(minJson))} on single-line JSON: ripgrep omits lines over ` +
            "500 columns and Read cuts lines at 2,000 characters). "
          : "") +
        (shell.length > 0
          ? `With a shell (grep -o, jq, tail, sed on the real file) it answered ${pct(recall(shell))}, at a median of ${int(f["spill-to-file-shell"]!.medianTokensPerTask)} tokens per task. ` +
            "A competent shell user is a strong baseline: what spillway adds over it is durability, provenance (offsets, SHA-256), async tools and one surface that works the same over MCP, HTTP and the CLI, not recall."
          : ""),
    );
  }
  const extract = byPolicy(episodes, "spillway-extract");
  if (extract.length > 0)
    out.push(
      `**Extraction** (a second model reads the output for the agent, quotes verified against the stored bytes) answered ` +
        `${pct(recall(extract))} at a median of ${int(f["spillway-extract"]!.medianTokensPerTask)} tokens sent by the agent per task. ` +
        `The extraction model's own tokens are a cost beside the agent's: a median of ${int(summary.extractMedianExtractionTokens)} per task.`,
    );
  return out;
}

function method(input: ReportInput): string {
  return [
    "## Method",
    "",
    `- **Workload**: ${input.kinds.length} kinds (${input.kinds.join(", ")}) × ${input.sizes.length} sizes (${input.sizes.join(", ")}), generated from seed ${input.seed} ` +
      "(`eval/workload.ts`). Needles at the start, 25%, the middle, 75% and the last line; a value inside a nested JSON field (JSON kinds); " +
      "a line only a regular expression finds (the others are near misses); and, in logs, the error just before `shutdown complete` at the very end. " +
      "Each answer is `ANS-` and six capitals/digits (or the one `TXN-dddd-LLLL`), which filler never contains.",
    '- **Agents are blind** (`eval/agents/`): each sees only the prompt (`Call data__fetch with output="doc-…". <question> Answer with the exact value.`, ' +
      "with an opaque id), the tool schemas and the tool results, never the task (its answer, kind, size, position or id). One generic strategy per policy " +
      "(the table below), from the question's words and the shown text; the same reader finds a value in what was shown (the record naming the question's id, " +
      "then the key or phrase matching its words). The modules under `eval/agents/` import nothing of the workload, and a test checks it.",
    "- **Scoring from the report**: a task is right when the final report names the expected value and no other answer-shaped value. " +
      "Invented: the report states a code-like value that no tool result showed. Nothing else of the run is read.",
    "- **spillway** runs for real: `runAgent` with default settings, the AI SDK's openai-compatible provider over HTTP against the scripted model server, " +
      "an MCP server over Streamable HTTP returning the output, the SQLite store. The peers are re-implementations of what each tool shows the model, " +
      "played through an in-process loop that builds each Chat Completions request as a chat loop sends it; the shell runs real commands on the real file.",
    "- **Tokens sent** (per task): exact `o200k_base` tokens (gpt-tokenizer) of every request whole: the tool definitions (their JSON), the system " +
      "instructions, the prompt, every call and result, spillway's per-turn notice, and 4 tokens of framing per message. A request that does not fit " +
      "the window counts too (it was sent, and refused). **Per right answer**: the median over the tasks answered right. **Paired**: spillway and paging on " +
      "the same tasks. The outputs' own token counts are exact up to 8 M characters and, above, the store's sampled estimate, within about 1%. " +
      "**Extraction-model tokens**: what the extraction model read and wrote for a task, beside (not inside) the agent's.",
    "- **Harness time**: storing, spilling or cutting the output, and serving every read or command; model time and the evaluation's own token counting are excluded.",
    `- Ran in ${input.seconds.toFixed(0)} s.`,
  ].join("\n");
}

function policies(): string {
  return [
    "## Policies",
    "",
    table(
      ["policy", "source", "parameters", "how the blind scripted agent plays it"],
      POLICIES.map((p) => [
        POLICY_INFO[p].label,
        POLICY_INFO[p].source,
        POLICY_INFO[p].parameters,
        POLICY_INFO[p].agent,
      ]),
    ),
  ].join("\n");
}

/** Writes README.md into `input.out`; returns its path. */
export async function writeReport(input: ReportInput): Promise<string> {
  const { episodes } = input;
  const kinds = [...input.kinds];
  const sizes = [...input.sizes];
  const parts = [
    "# What blind truncation loses, and what spillway costs: blind scripted agents",
    "",
    "**Scripted stand-ins, not a real model.** Every agent below is a deterministic script that sees only the prompt, the tool schemas and the tool results; " +
      "every task is scored from the run's final report. A real model's figures are in [`eval/report-live/`](../report-live/README.md).",
    "",
    "Generated by `npm run eval` (`eval/`); do not edit by hand. Every figure below is measured in this run.",
    "",
    "## Findings",
    "",
    ...findings(input).flatMap((p) => [p, ""]),
    "## Summary",
    "",
    headline(input),
    "",
    ...input.charts.flatMap((c) => [`### ${c.title}`, "", `![${c.alt}](${c.file})`, ""]),
    "## Recall by output size",
    "",
    crossTable(
      episodes,
      sizes,
      (e) => e.size,
      (l) => pct(recall(l)),
    ),
    "",
    "## Recall by kind",
    "",
    crossTable(
      episodes,
      kinds,
      (e) => e.kind,
      (l) => pct(recall(l)),
    ),
    "",
    "## Recall by needle position",
    "",
    crossTable(
      episodes,
      [...POSITIONS],
      (e) => e.position,
      (l) => pct(recall(l)),
    ),
    "",
    "## Median tokens sent per task, by output size",
    "",
    crossTable(
      episodes,
      sizes,
      (e) => e.size,
      (l) => int(median(l.map((e) => e.tokensSent))),
    ),
    "",
    "## Median fraction of the output ever shown, by output size (baselines)",
    "",
    crossTable(
      episodes.filter((e) => e.visibleFraction !== null),
      sizes,
      (e) => e.size,
      (l) => pct(median(l.map((e) => e.visibleFraction!))),
    ),
    "",
    policies(),
    "",
    method(input),
    "",
  ];
  const path = join(input.out, "README.md");
  await writeFile(path, parts.join("\n"));
  return path;
}

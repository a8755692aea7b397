/** Writes eval/report/README.md: tables, one paragraph per finding, the charts, the method. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChartFile } from "./charts.js";
import {
  type Episode,
  POLICIES,
  type PolicyName,
  TOOL_RESULT_BUDGET,
  TRUNCATION_POLICIES,
} from "./episode.js";
import { POLICY_INFO } from "./policy-info.js";
import { byPolicy, median, recall, type Summary, tokensPerCorrectAnswer } from "./summary.js";
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

function headline(input: ReportInput): string {
  const largest = input.summary.largestSize;
  const rows = activePolicies(input.episodes).map((p) => {
    const list = byPolicy(input.episodes, p);
    const atLargest = list.filter((e) => e.size === largest);
    const tokensLargest = median(atLargest.map((e) => e.tokensExposed));
    const outputLargest = median(atLargest.map((e) => e.outputTokens));
    const visible = list.filter((e) => e.visibleFraction !== null).map((e) => e.visibleFraction!);
    const keeps =
      p === "spillway" || p === "spillway-extract"
        ? list.every((e) => e.lossless)
          ? "all SHA-256 identical"
          : "NOT lossless"
        : `${pct(median(visible))} visible`;
    const extraction = list.filter((e) => e.extractionTokens !== undefined);
    return [
      POLICY_INFO[p].label,
      pct(recall(list)),
      pct(recall(atLargest)),
      int(median(list.map((e) => e.tokensExposed))),
      int(tokensLargest),
      int(tokensPerCorrectAnswer(atLargest)),
      Number.isNaN(tokensLargest) ? "–" : `${int(outputLargest / Math.max(1, tokensLargest))}x`,
      int(median(list.map((e) => e.toolCalls))),
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
      "median tokens per task",
      `… at ${largest}`,
      `tokens per right answer at ${largest}`,
      `compression at ${largest}`,
      "median tool calls",
      "median ms (harness)",
      "extraction-model tokens (median)",
      "the output (median)",
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
  out.push(
    `**spillway answered ${spillway.filter((e) => e.correct).length} of ${spillway.length} tasks (${pct(summary.spillwayRecall)})** ` +
      `across ${input.kinds.length} kinds, ${input.sizes.length} sizes and every needle position, reading a median of ` +
      `${int(summary.spillwayMedianTokensPerAnswer)} tokens per task; at ${largest} that is ${pct(summary.spillwayMedianShareOfOutputAtLargest)} ` +
      `of the output's tokens. Every stored copy was byte-identical to the output (SHA-256): ${summary.spillwayLossless ? "yes" : "NO"}.`,
  );
  const truncation = TRUNCATION_POLICIES.filter((p) => episodes.some((e) => e.policy === p)).map(
    (p) => {
      const list = byPolicy(episodes, p);
      const visible = median(
        list.filter((e) => e.visibleFraction !== null).map((e) => e.visibleFraction!),
      );
      return `${POLICY_INFO[p].label} ${pct(recall(list))} (median visible ${pct(visible)})`;
    },
  );
  if (truncation.length > 0)
    out.push(
      `**Truncation answers only what it happens to show.** Recall: ${truncation.join("; ")}. ` +
        "They find the needles at the start and, for head+tail, at the end; everything in the middle is gone, and at " +
        `${largest} what they show is a vanishing fraction of the output. The best of them, ${POLICY_INFO[summary.bestTruncationPolicy].label}, reached ${pct(summary.bestTruncationRecall)}.`,
    );
  const raw = byPolicy(episodes, "raw");
  if (raw.length > 0) {
    const fitting = (size: string) => {
      const list = raw.filter((e) => e.size === size);
      return list.filter((e) => !e.failure?.startsWith("context overflow")).length / list.length;
    };
    const sizes = input.sizes.filter((s) => raw.some((e) => e.size === s));
    const all = sizes.filter((s) => fitting(s) === 1);
    const some = sizes.filter((s) => fitting(s) > 0 && fitting(s) < 1);
    const none = sizes.filter((s) => fitting(s) === 0);
    out.push(
      `**Raw passthrough works until it does not fit.** It answered ${pct(recall(raw))}. Every output fit at ${all.join(", ") || "no size"}` +
        (some.length > 0
          ? `; some did at ${some.map((s) => `${s} (${pct(fitting(s))})`).join(", ")}`
          : "") +
        (none.length > 0 ? `; none did at ${none.join(", ")}` : "") +
        `. An output that does not fit makes a request over the ${int(TOOL_RESULT_BUDGET)}-token budget of a 128K window, and the turn fails.`,
    );
  }
  const paging = byPolicy(episodes, "paging-4000");
  if (paging.length > 0) {
    const full = paging.filter((e) => e.failure?.startsWith("context window full")).length;
    const paired = summary.pairedAtLargest;
    out.push(
      `**Paging is lossless but pays for every page.** Continuation paging answered ${pct(recall(paging))} with a median of ` +
        `${int(summary.pagingMedianTokensPerAnswer)} tokens per task (${int(summary.pagingMedianTokensAtLargest)} at ${largest}, where spillway needed ` +
        `${int(summary.spillwayMedianTokensAtLargest)}); ${full} of ${paging.length} tasks ran out of context window before reaching their page. ` +
        `Per right answer (all tokens ÷ right answers) at ${largest}: paging ${int(summary.pagingTokensPerCorrectAnswerAtLargest)}, spillway ` +
        `${int(summary.spillwayTokensPerCorrectAnswerAtLargest)}. On the ${paired.tasks} tasks at ${largest} paging did answer (needles on its first or last page), ` +
        `it needed a median of ${int(paired.pagingMedian)} tokens against spillway's ${int(paired.spillwayMedian)} (${(paired.pagingMedian / paired.spillwayMedian).toFixed(1)} times as many): ` +
        "paging is cheap only where the answer happens to sit on a page it reads first.",
    );
  }
  const spill = byPolicy(episodes, "spill-to-file");
  if (spill.length > 0) {
    const minJson = spill.filter((e) => e.kind === "json-min");
    out.push(
      `**Spilling to a file keeps everything, but line tools decide what the model can read.** Spill-to-file with Read and Grep (no shell) answered ` +
        `${pct(recall(spill))} at a median of ${int(median(spill.map((e) => e.tokensExposed)))} tokens per task; on single-line (minified) JSON it answered ` +
        `${pct(recall(minJson))}: ripgrep omits lines over 500 columns and Read cuts lines at 2,000 characters (and refuses more than 25,000 tokens), so ` +
        "only what the 2 KB preview shows is reachable. An agent with a shell could reach it with `jq` or `grep -o`; spillway's grep, slice and JSONPath work inside a line, with character offsets.",
    );
  }
  const extract = byPolicy(episodes, "spillway-extract");
  if (extract.length > 0) {
    const fellBack = extract.filter((e) => e.note?.includes("extraction")).length;
    out.push(
      `**Extraction** (a second model reads the output for the agent, quotes verified against the stored bytes) answered ` +
        `${pct(recall(extract))} at a median of ${int(median(extract.map((e) => e.tokensExposed)))} tokens exposed to the agent. ` +
        `It declined or failed on ${fellBack} of ${extract.length} tasks (outputs over its 20-chunk cost bound, e.g. large single-line JSON), ` +
        "where the agent fell back to JSONPath or grep. The extraction model's own tokens are not the agent's context but they are a cost: " +
        `a median of ${int(summary.extractMedianExtractionTokens)} per task (reading whole chunks), against ${int(summary.spillwayMedianTokensPerAnswer)} for the agent that greps itself.`,
    );
  }
  return out;
}

function method(input: ReportInput): string {
  return [
    "## Method",
    "",
    `- **Workload**: ${input.kinds.length} kinds (${input.kinds.join(", ")}) × ${input.sizes.length} sizes (${input.sizes.join(", ")}), generated from seed ${input.seed} ` +
      "(`eval/workload.ts`). Needles at the start, 25%, the middle, 75% and the last line; a value inside a nested JSON field (JSON kinds); " +
      "a line only a regular expression finds (the others are near misses); and, in logs, the error just before `shutdown complete` at the very end. " +
      "Each answer is `ANS-` and six capitals/digits (or the one `TXN-dddd-LLLL`), which filler never contains; the scorer compares exact strings.",
    "- **Agents**: scripted and deterministic, one per policy, playing it as a competent model would (the table below). They answer only from text " +
      "they were shown: an answer counts when the question's id and the answer appear together in a tool result (or the regex match does; " +
      "for a JSONPath selection or an extraction, the value it returns, which the query or question named by id). " +
      "Scripted behaviour is not a real model's; `npm run eval:live` measures a real model.",
    "- **spillway** runs for real: `runAgent` with default settings, the AI SDK's openai-compatible provider over HTTP against the scripted model server, " +
      "an MCP server over Streamable HTTP returning the output, the SQLite store. The baselines are re-implementations of what each tool shows the model.",
    "- **Tokens exposed** (per task): exact `o200k_base` tokens (gpt-tokenizer) of every tool result the model was shown until it answered or gave up " +
      "(the first result and every read), right or wrong. A request that does not fit counts what it sent (raw: the whole output). " +
      "**Per right answer**: all tokens ÷ right answers. **Compression**: output tokens / tokens exposed. The outputs' own token counts are exact up to 8 M " +
      "characters and, above (the 50 MB outputs), the store's sampled estimate, within about 1% (docs/token-estimation.md). " +
      "**Extraction-model tokens**: what the extraction model read and wrote for a task (as the model server counts them), reported beside, not inside, the agent's tokens.",
    "- **Harness time**: storing (spillway's interception point), spilling or cutting the output, and serving every read; model time (the extraction model's too), " +
      "the MCP transfer and the evaluation's own token counting are excluded.",
    "- **The output**: for spillway, whether the store's copy is byte-identical (SHA-256) after the run; for the others, the fraction of the output's characters ever shown.",
    `- Ran in ${input.seconds.toFixed(0)} s.`,
  ].join("\n");
}

function policies(): string {
  return [
    "## Policies",
    "",
    table(
      ["policy", "source", "parameters", "how the scripted agent plays it"],
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
    "# What blind truncation loses, and what spillway costs",
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
    "## Median tokens exposed per answer, by output size",
    "",
    crossTable(
      episodes,
      sizes,
      (e) => e.size,
      (l) => int(median(l.map((e) => e.tokensExposed))),
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

/**
 * The evaluation's charts: what each shows, built from the episodes as Vega-Lite specs, and
 * written as PNG files (chart-render.ts renders them headlessly; chart-style.ts holds the look).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TopLevelSpec } from "vega-lite";
import type { UnitSpec } from "vega-lite/types_unstable/spec/unit.js";
import { renderPng } from "./chart-render.js";
import {
  type Channels,
  CONFIG,
  emphasizedLines,
  isSpillway,
  noData,
  PLOT_HEIGHT,
  PLOT_WIDTH,
  policyColor,
  sizeAxis,
} from "./chart-style.js";
import {
  type Episode,
  POLICIES,
  type PolicyName,
  REQUEST_TOKEN_LIMIT,
  TRUNCATION_POLICIES,
} from "./episode.js";
import { median, recall } from "./summary.js";
import { POSITIONS, type Position, SIZES, type SizeLabel } from "./workload.js";

export interface ChartFile {
  readonly file: string;
  readonly title: string;
  readonly alt: string;
}

// ---------------------------------------------------------------------------------------------
// Aggregation

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;

/** The values present in `episodes`, in the order of `order`. */
function present<T extends string>(order: readonly T[], values: Iterable<string>): T[] {
  const seen = new Set(values);
  return order.filter((v) => seen.has(v));
}

const SIZE_ORDER: readonly SizeLabel[] = SIZES.map((s) => s.label);

interface Row {
  readonly policy: PolicyName;
  readonly spillway: boolean;
}
interface SizeRow extends Row {
  readonly size: SizeLabel;
  readonly value: number;
  readonly n: number;
}

/** One row per (policy, size): `value` is `measure` of that group's episodes. */
function bySize(
  episodes: readonly Episode[],
  measure: (group: readonly Episode[]) => number,
): SizeRow[] {
  const groups = groupBy(episodes, (e) => `${e.policy}\u0000${e.size}`);
  const rows: SizeRow[] = [];
  for (const policy of POLICIES) {
    for (const size of SIZE_ORDER) {
      const group = groups.get(`${policy}\u0000${size}`);
      if (!group) continue;
      const value = measure(group);
      if (Number.isNaN(value)) continue;
      rows.push({ policy, spillway: isSpillway(policy), size, value, n: group.length });
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The charts

interface Chart {
  readonly file: string;
  readonly title: string;
  readonly alt: string;
  readonly spec: TopLevelSpec;
}

/**
 * A line per policy against output size, spillway drawn thick over the baselines, with
 * `underlay` layers (reference marks) beneath the lines.
 */
function sizeLines(
  chart: Omit<Chart, "spec">,
  subtitle: string | string[],
  rows: readonly SizeRow[],
  y: Channels["y"],
  underlay: readonly UnitSpec<string>[] = [],
): Chart {
  const { title } = chart;
  if (rows.length === 0) return { ...chart, spec: noData(title, [subtitle].flat().join(" ")) };
  const policies = present(
    POLICIES,
    rows.map((r) => r.policy),
  );
  const sizes = present(
    SIZE_ORDER,
    rows.map((r) => r.size),
  );
  return {
    ...chart,
    spec: {
      title: { text: title, subtitle },
      config: CONFIG,
      width: PLOT_WIDTH,
      height: PLOT_HEIGHT,
      data: { values: [...rows] },
      layer: [...underlay, ...emphasizedLines(sizeAxis(sizes), y, policies)],
    },
  };
}

function recallBySize(episodes: readonly Episode[]): Chart {
  return sizeLines(
    {
      file: "recall-by-size.png",
      title: "Recall by tool output size",
      alt: "Line chart of recall (share of tasks answered exactly) against tool output size, one line per context policy, with the spillway policies drawn thick and lines that coincide with another dashed.",
    },
    "Share of tasks answered exactly, per policy and output size (all kinds and needle positions pooled).",
    bySize(episodes, recall),
    {
      field: "value",
      type: "quantitative",
      scale: { domain: [0, 1] },
      axis: { title: "Recall (tasks answered exactly)", format: "~%" },
    },
  );
}

function tokensPerAnswer(episodes: readonly Episode[]): Chart {
  return sizeLines(
    {
      file: "tokens-per-answer.png",
      title: "Tokens sent per task",
      alt: "Line chart on a log scale of the median number of tokens sent per task (every request whole: tool definitions, instructions, messages), against tool output size, one line per context policy, with one request's limit marked.",
    },
    [
      "Every token of every request (tool definitions, instructions, prompt, calls, results, notices), o200k_base;",
      `median over tasks, log scale. Dashed line: what ONE request may hold in a 128K window (${REQUEST_TOKEN_LIMIT.toLocaleString("en-US")}).`,
    ],
    bySize(episodes, (group) => median(group.map((e) => Math.max(1, e.tokensSent)))),
    {
      field: "value",
      type: "quantitative",
      scale: { type: "log" },
      axis: { title: "Tokens sent (median, log scale)", format: "~s", tickCount: 8 },
    },
    [
      {
        data: { values: [{ budget: REQUEST_TOKEN_LIMIT }] },
        mark: { type: "rule", strokeDash: [7, 5], color: "#555555", strokeWidth: 1.5 },
        encoding: { y: { field: "budget", type: "quantitative" } },
      },
      {
        data: {
          values: [{ budget: REQUEST_TOKEN_LIMIT, label: "one request's limit (128K window)" }],
        },
        mark: {
          type: "text",
          align: "left",
          baseline: "bottom",
          dx: 4,
          dy: -4,
          x: 0,
          fontSize: 12,
          color: "#555555",
        },
        encoding: {
          y: { field: "budget", type: "quantitative" },
          text: { field: "label", type: "nominal" },
        },
      },
    ],
  );
}

function recallByPosition(episodes: readonly Episode[]): Chart {
  const title = "Recall by needle position";
  const subtitle = [
    "Share of tasks answered exactly, per policy and where the needle sits in the output (all sizes pooled).",
    "Not every kind of output has every position; under each position, the number of tasks behind it.",
  ];
  const alt =
    "Grouped bar chart of recall (share of tasks answered exactly) for each needle position, one bar per context policy.";
  const file = "recall-by-position.png";
  const groups = groupBy(episodes, (e) => `${e.policy}\u0000${e.position}`);
  const rows: (Row & { position: Position; value: number; n: number })[] = [];
  for (const policy of POLICIES) {
    for (const position of POSITIONS) {
      const group = groups.get(`${policy}\u0000${position}`);
      if (!group) continue;
      const value = recall(group);
      rows.push({ policy, spillway: isSpillway(policy), position, value, n: group.length });
    }
  }
  if (rows.length === 0) return { file, title, alt, spec: noData(title, subtitle.join(" ")) };
  const policies = present(
    POLICIES,
    rows.map((r) => r.policy),
  );
  const positions = present(
    POSITIONS,
    rows.map((r) => r.position),
  );
  // Tasks per position: distinct task ids (every policy plays the same tasks).
  const tasks: Record<string, number> = {};
  for (const [position, group] of groupBy(episodes, (e) => e.position)) {
    tasks[position] = new Set(group.map((e) => e.taskId)).size;
  }
  const labelExpr = `[datum.value, ${JSON.stringify(tasks)}[datum.value] + ' tasks']`;
  return {
    file,
    title,
    alt,
    spec: {
      title: { text: title, subtitle },
      config: CONFIG,
      width: PLOT_WIDTH,
      height: PLOT_HEIGHT,
      data: { values: rows },
      mark: { type: "bar", cornerRadiusEnd: 1 },
      encoding: {
        x: {
          field: "position",
          type: "nominal",
          sort: positions,
          scale: { domain: positions, paddingInner: 0.25 },
          axis: { title: "Needle position", labelAngle: 0, labelExpr, labelLineHeight: 16 },
        },
        xOffset: { field: "policy", type: "nominal", sort: policies, scale: { domain: policies } },
        y: {
          field: "value",
          type: "quantitative",
          scale: { domain: [0, 1] },
          axis: { title: "Recall (tasks answered exactly)", format: "~%" },
        },
        color: policyColor(policies, true),
        stroke: {
          condition: { test: "datum.spillway", value: "#222222" },
          value: null,
        },
        strokeWidth: { condition: { test: "datum.spillway", value: 1 }, value: 0 },
      },
    },
  };
}

function visibleFraction(episodes: readonly Episode[]): Chart {
  const title = "Truncation: recall follows what is visible";
  const subtitle = [
    "For each truncating policy: mean share of the output's characters the model ever saw (solid)",
    "and recall, the share of tasks answered exactly (dashed), per output size.",
  ];
  const alt =
    "Small multiples, one per truncating policy, comparing the mean visible fraction of the output with recall at each output size.";
  const file = "visible-fraction.png";
  const truncating = episodes.filter(
    (e) => TRUNCATION_POLICIES.includes(e.policy) && e.visibleFraction !== null,
  );
  const VISIBLE = "Visible fraction (mean)";
  const RECALL = "Recall";
  const rows = [
    ...bySize(truncating, (group) => mean(group.map((e) => e.visibleFraction ?? 0))).map((r) => ({
      ...r,
      measure: VISIBLE,
    })),
    ...bySize(truncating, recall).map((r) => ({ ...r, measure: RECALL })),
  ];
  if (rows.length === 0) return { file, title, alt, spec: noData(title, subtitle.join(" ")) };
  const policies = present(
    POLICIES,
    rows.map((r) => r.policy),
  );
  const sizes = present(
    SIZE_ORDER,
    rows.map((r) => r.size),
  );
  const columns = Math.max(1, policies.length);
  const panelWidth = Math.max(150, Math.floor((PLOT_WIDTH + 60) / columns) - 40);
  return {
    file,
    title,
    alt,
    spec: {
      title: { text: title, subtitle },
      config: CONFIG,
      data: { values: rows },
      facet: {
        column: {
          field: "policy",
          type: "nominal",
          sort: policies,
          header: { title: null, labelFontSize: 14, labelFontWeight: "bold" },
        },
      },
      spacing: 24,
      spec: {
        width: panelWidth,
        height: 300,
        mark: { type: "line", point: { filled: true, size: 55 }, strokeWidth: 2.5 },
        encoding: {
          // Four size labels do not fit side by side in a narrow panel: slant them.
          x: { ...sizeAxis(sizes), axis: { title: "Tool output size", labelAngle: -40 } },
          y: {
            field: "value",
            type: "quantitative",
            scale: { domain: [0, 1] },
            axis: { title: "Share (0–100%)", format: "~%" },
          },
          color: policyColor(policies, false),
          strokeDash: {
            field: "measure",
            type: "nominal",
            sort: [VISIBLE, RECALL],
            scale: {
              domain: [VISIBLE, RECALL],
              range: [
                [1, 0],
                [7, 4],
              ],
            },
            // The subtitle says which is which: resvg draws no stroke legend symbols.
            legend: null,
          },
        },
      },
    },
  };
}

/** Renders the evaluation's charts as PNG files into `dir`, headlessly (Vega-Lite → Vega → SVG → PNG with resvg, fonts from dejavu-fonts-ttf so the output is the same on every machine). */
export async function renderCharts(
  episodes: readonly Episode[],
  dir: string,
): Promise<ChartFile[]> {
  await mkdir(dir, { recursive: true });
  const charts = [
    recallBySize(episodes),
    tokensPerAnswer(episodes),
    recallByPosition(episodes),
    visibleFraction(episodes),
  ];
  const files: ChartFile[] = [];
  for (const chart of charts) {
    await writeFile(join(dir, chart.file), await renderPng(chart.spec));
    files.push({ file: chart.file, title: chart.title, alt: chart.alt });
  }
  return files;
}

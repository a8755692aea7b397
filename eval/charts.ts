/**
 * The evaluation's charts, rendered headlessly to PNG: Vega-Lite → Vega → SVG → PNG (resvg).
 * Text is set in DejaVu Sans loaded from `dejavu-fonts-ttf`, never from the system, so the same
 * episodes give the same pixels on every machine.
 *
 * Every chart colors a policy the same way; the spillway policies get strong colors and thick
 * lines, the baselines muted colors and thin lines.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { Encoding } from "vega-lite/types_unstable/encoding.js";
import type { UnitSpec } from "vega-lite/types_unstable/spec/unit.js";
import {
  type Episode,
  POLICIES,
  type PolicyName,
  TOOL_RESULT_BUDGET,
  TRUNCATION_POLICIES,
} from "./episode.js";
import { POSITIONS, type Position, SIZES, type SizeLabel } from "./workload.js";

export interface ChartFile {
  readonly file: string;
  readonly title: string;
  readonly alt: string;
}

/** Width of every PNG, in pixels. */
export const CHART_WIDTH_PX = 1000;

const FONT = "DejaVu Sans";
const FONT_FILES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"];

/** Muted colors for the baselines, strong ones for spillway. */
const POLICY_COLORS: Readonly<Record<PolicyName, string>> = {
  raw: "#8c8c8c",
  "codex-head-tail": "#86b4d6",
  "openhands-head": "#b4a3d3",
  "seed-50-50": "#8fc58a",
  "claude-mcp-25k": "#e8b07c",
  "spill-to-file": "#d89bb0",
  "paging-4000": "#b9b56e",
  spillway: "#d62d20",
  "spillway-extract": "#0a3d91",
};

/**
 * Dashes for policies whose lines often coincide with another's (Codex and the seed 50/50 cut
 * show the same needles; both spillway policies answer everything), so the line beneath stays
 * visible through the gaps.
 */
const POLICY_DASHES: Readonly<Partial<Record<PolicyName, number[]>>> = {
  "seed-50-50": [6, 4],
  "spillway-extract": [10, 7],
};

const isSpillway = (policy: PolicyName): boolean => policy.startsWith("spillway");

const PLOT_WIDTH = 680;
const PLOT_HEIGHT = 380;

/** Shared look: one font for all text, a white background, readable sizes. */
const CONFIG = {
  font: FONT,
  background: "white",
  padding: 18,
  view: { stroke: null },
  title: {
    anchor: "start",
    fontSize: 20,
    fontWeight: "bold",
    subtitleFontSize: 13,
    subtitleColor: "#444444",
    subtitlePadding: 6,
    offset: 16,
  },
  axis: {
    labelFontSize: 13,
    titleFontSize: 14,
    titleFontWeight: "normal",
    titlePadding: 10,
    gridColor: "#e4e4e4",
    domainColor: "#888888",
    tickColor: "#888888",
  },
  legend: { labelFontSize: 13, titleFontSize: 14, symbolSize: 140, rowPadding: 6, labelLimit: 260 },
  header: { labelFontSize: 14, labelFontWeight: "bold", titleFontSize: 14 },
} as const;

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

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;

const recallOf = (episodes: readonly Episode[]): number =>
  mean(episodes.map((e) => (e.correct ? 1 : 0)));

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
// Encodings shared by the charts

type Channels = Required<Encoding<string>>;

/** Color by policy: the policies given, in POLICIES order, each with its fixed color. */
function policyColor(policies: readonly PolicyName[], legend: boolean): Channels["color"] {
  return {
    field: "policy",
    type: "nominal",
    sort: [...policies],
    scale: { domain: [...policies], range: policies.map((p) => POLICY_COLORS[p]) },
    legend: legend ? { title: "Policy", orient: "right" } : null,
  };
}

/** Dash pattern by policy (solid unless POLICY_DASHES says otherwise); it shares the color legend. */
function policyDash(policies: readonly PolicyName[]): Channels["strokeDash"] {
  return {
    field: "policy",
    type: "nominal",
    scale: { domain: [...policies], range: policies.map((p) => POLICY_DASHES[p] ?? [1, 0]) },
  };
}

function sizeAxis(sizes: readonly SizeLabel[]): Channels["x"] {
  return {
    field: "size",
    type: "ordinal",
    sort: [...sizes],
    scale: { domain: [...sizes] },
    axis: { title: "Tool output size", labelAngle: 0 },
  };
}

/** Thin muted lines for the baselines, thick lines over them for spillway. */
function emphasizedLines(
  x: Channels["x"],
  y: Channels["y"],
  policies: readonly PolicyName[],
): UnitSpec<string>[] {
  const color = policyColor(policies, true);
  const strokeDash = policyDash(policies);
  const layer = (spillway: boolean): UnitSpec<string> => ({
    transform: [{ filter: spillway ? "datum.spillway" : "!datum.spillway" }],
    mark: {
      type: "line",
      point: { filled: true, size: spillway ? 110 : 55 },
      strokeWidth: spillway ? 4.5 : 2,
      opacity: spillway ? 1 : 0.9,
    },
    encoding: { x, y, color, strokeDash },
  });
  return [layer(false), layer(true)];
}

function noData(title: string, subtitle: string): TopLevelSpec {
  return {
    title: { text: title, subtitle },
    config: CONFIG,
    width: PLOT_WIDTH,
    height: 120,
    data: { values: [{ text: "No episodes to plot." }] },
    mark: { type: "text", fontSize: 16, color: "#666666" },
    encoding: { text: { field: "text", type: "nominal" } },
  };
}

// ---------------------------------------------------------------------------------------------
// The charts

interface Chart {
  readonly file: string;
  readonly title: string;
  readonly alt: string;
  readonly spec: TopLevelSpec;
}

function recallBySize(episodes: readonly Episode[]): Chart {
  const title = "Recall by tool output size";
  const subtitle =
    "Share of tasks answered exactly, per policy and output size (all kinds and needle positions pooled).";
  const alt =
    "Line chart of recall (share of tasks answered exactly) against tool output size, one line per context policy, with the spillway policies drawn thick and lines that coincide with another dashed.";
  const file = "recall-by-size.png";
  const rows = bySize(episodes, recallOf);
  if (rows.length === 0) return { file, title, alt, spec: noData(title, subtitle) };
  const policies = present(
    POLICIES,
    rows.map((r) => r.policy),
  );
  const sizes = present(
    SIZE_ORDER,
    rows.map((r) => r.size),
  );
  const y: Channels["y"] = {
    field: "value",
    type: "quantitative",
    scale: { domain: [0, 1] },
    axis: { title: "Recall (tasks answered exactly)", format: "~%" },
  };
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
      layer: emphasizedLines(sizeAxis(sizes), y, policies),
    },
  };
}

function tokensPerAnswer(episodes: readonly Episode[]): Chart {
  const title = "Tokens exposed per answer";
  const subtitle = [
    "Tool-result tokens (o200k_base) the model was shown before answering; median over tasks, log scale.",
    `Dashed line: the tool-result budget of a 128K-token context (${TOOL_RESULT_BUDGET.toLocaleString("en-US")} tokens).`,
  ];
  const alt =
    "Line chart on a log scale of the median number of tool-result tokens the model was shown per task, against tool output size, one line per context policy, with the context budget marked.";
  const file = "tokens-per-answer.png";
  // A log scale has no zero: a task that exposed no tokens is drawn at 1.
  const rows = bySize(episodes, (group) => median(group.map((e) => Math.max(1, e.tokensExposed))));
  if (rows.length === 0) return { file, title, alt, spec: noData(title, subtitle.join(" ")) };
  const policies = present(
    POLICIES,
    rows.map((r) => r.policy),
  );
  const sizes = present(
    SIZE_ORDER,
    rows.map((r) => r.size),
  );
  const y: Channels["y"] = {
    field: "value",
    type: "quantitative",
    scale: { type: "log" },
    axis: { title: "Tokens exposed (median, log scale)", format: "~s", tickCount: 8 },
  };
  const lines = emphasizedLines(sizeAxis(sizes), y, policies);
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
      layer: [
        {
          data: { values: [{ budget: TOOL_RESULT_BUDGET }] },
          mark: { type: "rule", strokeDash: [7, 5], color: "#555555", strokeWidth: 1.5 },
          encoding: { y: { field: "budget", type: "quantitative" } },
        },
        {
          data: { values: [{ budget: TOOL_RESULT_BUDGET, label: "128K context budget" }] },
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
        ...lines,
      ],
    },
  };
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
      const value = recallOf(group);
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
    ...bySize(truncating, recallOf).map((r) => ({ ...r, measure: RECALL })),
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
          x: sizeAxis(sizes),
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
            legend: {
              title: null,
              orient: "bottom",
              symbolStrokeColor: "#444444",
              symbolSize: 400,
            },
          },
        },
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Rendering

let fontFiles: string[] | undefined;

/** The DejaVu font files: resolved inside the `dejavu-fonts-ttf` package (it has no exports map). */
function fonts(): string[] {
  if (!fontFiles) {
    const require = createRequire(import.meta.url);
    fontFiles = FONT_FILES.map((f) => require.resolve(`dejavu-fonts-ttf/ttf/${f}`));
  }
  return fontFiles;
}

/** Vega-Lite spec → PNG bytes, `CHART_WIDTH_PX` wide. */
export async function renderPng(spec: TopLevelSpec): Promise<Buffer> {
  const view = new View(parse(compile(spec).spec), { renderer: "none" });
  try {
    const svg = await view.toSVG();
    const resvg = new Resvg(svg, {
      font: {
        fontFiles: fonts(),
        loadSystemFonts: false,
        defaultFontFamily: FONT,
        sansSerifFamily: FONT,
      },
      fitTo: { mode: "width", value: CHART_WIDTH_PX },
      background: "white",
      logLevel: "off",
    });
    return resvg.render().asPng();
  } finally {
    view.finalize();
  }
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

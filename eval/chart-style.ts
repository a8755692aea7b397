/**
 * The charts' shared look: one color (and, where lines coincide, one dash) per policy in every
 * chart, spillway strong and thick, the baselines muted and thin; one font; shared encodings.
 */
import type { TopLevelSpec } from "vega-lite";
import type { Encoding } from "vega-lite/types_unstable/encoding.js";
import type { UnitSpec } from "vega-lite/types_unstable/spec/unit.js";
import type { PolicyName } from "./episode.js";
import type { SizeLabel } from "./workload.js";

/** The one font every chart is set in (loaded from dejavu-fonts-ttf by chart-render.ts). */
export const FONT = "DejaVu Sans";

/** Muted colors for the baselines, strong ones for spillway. */
export const POLICY_COLORS: Readonly<Record<PolicyName, string>> = {
  raw: "#8c8c8c",
  "codex-head-tail": "#86b4d6",
  "openhands-head": "#b4a3d3",
  "seed-50-50": "#8fc58a",
  "claude-mcp-25k": "#e8b07c",
  "spill-to-file": "#d89bb0",
  "spill-to-file-shell": "#a0522d",
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

export const isSpillway = (policy: PolicyName): boolean => policy.startsWith("spillway");

export const PLOT_WIDTH = 680;
export const PLOT_HEIGHT = 380;

/** Shared look: one font for all text, a white background, readable sizes. */
export const CONFIG = {
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

export type Channels = Required<Encoding<string>>;

/** Color by policy: the policies given, in POLICIES order, each with its fixed color. */
export function policyColor(policies: readonly PolicyName[], legend: boolean): Channels["color"] {
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

export function sizeAxis(sizes: readonly SizeLabel[]): Channels["x"] {
  return {
    field: "size",
    type: "ordinal",
    sort: [...sizes],
    scale: { domain: [...sizes] },
    axis: { title: "Tool output size", labelAngle: 0 },
  };
}

/** Thin muted lines for the baselines, thick lines over them for spillway. */
export function emphasizedLines(
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

export function noData(title: string, subtitle: string): TopLevelSpec {
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

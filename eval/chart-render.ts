/**
 * Headless rendering: Vega-Lite → Vega → SVG → PNG (resvg). Text is set in DejaVu Sans loaded
 * from `dejavu-fonts-ttf`, never from the system, so the same spec gives the same pixels on
 * every machine.
 */
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { FONT } from "./chart-style.js";

/** Width of every PNG, in pixels. */
export const CHART_WIDTH_PX = 1000;

const FONT_FILES = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"];

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

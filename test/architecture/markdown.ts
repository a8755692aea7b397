/**
 * Just enough Markdown for the documentation tests: what a reader sees as text (outside fenced
 * code), the figures in it (the rule is written out in docs/figures.md), links, and the anchors
 * GitHub gives headings.
 */

const FENCE = /^\s*(```|~~~)/;

/** The lines of a Markdown text outside fenced code blocks, with their 1-based numbers. */
export function linesOutsideCode(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  markdown.split("\n").forEach((text, index) => {
    const marker = FENCE.exec(text)?.[1];
    if (fence !== null) {
      if (marker === fence) fence = null;
      return;
    }
    if (marker) {
      fence = marker;
      return;
    }
    out.push({ line: index + 1, text });
  });
  return out;
}

/** A line as read for figures: no inline code, no link targets, no bold or italic markers. */
export function readableText(line: string): string {
  return line
    .replace(/(`+)[\s\S]*?\1/g, " ")
    .replace(/\]\([^)]*\)/g, "]")
    .replace(/\*\*|__/g, "");
}

const NUM = String.raw`\d(?:[\d,]*\d)?(?:\.\d+)?`;
/** A unit after a number: % and x stick to it; the others may follow one space. */
const UNIT = String.raw`(?:%|x(?![A-Za-z])|\s?(?:(?:KB|MB|GB|TB|KiB|MiB|GiB)(?:/s)?|requests/s|ms|s|seconds?|minutes?|hours?|tokens?)(?![A-Za-z]))`;
const WITH_UNIT = new RegExp(
  String.raw`(?<![\w.,/])(?:${NUM}${UNIT}?\s?(?:-|–|\sto\s)\s?)?${NUM}${UNIT}`,
  "g",
);
const COUNT = /(?<![\w.,/])\d(?:[\d,]*\d)?(?: of |\/)\d(?:[\d,]*\d)?(?![\w./]|,\d)/g;
const BARE_NUMBER = /^\d[\d,]*(?:\.\d+)?$/;

const normalize = (figure: string) => figure.replace(/\s+/g, " ").trim();

/** The figures of one line of readable text (see docs/figures.md, "What counts as a figure"). */
export function figuresOfLine(text: string): string[] {
  const found = [...text.matchAll(WITH_UNIT), ...text.matchAll(COUNT)].map((m) => m[0]);
  if (text.trimStart().startsWith("|")) {
    for (const cell of tableCells(text)) if (BARE_NUMBER.test(cell)) found.push(cell);
  }
  return found.map(normalize);
}

/** Every figure of a Markdown text, each with the first line it appears on. */
export function figuresOf(markdown: string): Map<string, number> {
  const figures = new Map<string, number>();
  const visible = markdown.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ""));
  for (const { line, text } of linesOutsideCode(visible)) {
    for (const figure of figuresOfLine(readableText(text))) {
      if (!figures.has(figure)) figures.set(figure, line);
    }
  }
  return figures;
}

/** The cells of a table row, trimmed (an escaped `\|` stays inside its cell). */
export function tableCells(row: string): string[] {
  const cells = row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/);
  return cells.map((cell) => cell.replace(/\*\*/g, "").trim());
}

/** The anchor GitHub gives a heading's text (github-slugger's rule). */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Every heading anchor of a Markdown text, duplicates numbered as GitHub numbers them. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of linesOutsideCode(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of a Markdown text's links and images, outside code, with their line numbers. */
export function linksOf(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const { line, text } of linesOutsideCode(markdown)) {
    const prose = text.replace(/(`+)[\s\S]*?\1/g, " ");
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ line, target: match[1]! });
    }
  }
  return links;
}

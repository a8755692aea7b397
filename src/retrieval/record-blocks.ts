/**
 * Records delimited by line shapes (records.ts): log entries (a line that starts like the
 * output's record lines, with the lines up to the next one: a stack trace, a wrapped message),
 * sections between rule lines (`=====`, `_____ name _____`) and paragraphs between blank lines.
 * Shapes are compared, never words: a timestamp and a bracketed field are recognised because
 * many lines start the same way, whatever they say.
 */
import { spanOf } from "./record-indent.js";
import { fieldShape, isBlank, type LineWindow } from "./record-lines.js";
import { withoutStamp } from "./record-stamps.js";
import type { FoundRecord } from "./record-types.js";

/** Lines of the head sample a record-line shape must start, at least. */
const MIN_SHAPE_LINES = 3;
/** Share of the unindented lines of the head sample that a record-line shape must start. */
const MIN_SHAPE_SHARE = 0.4;

/** Runs of a first field's shape that are compared: enough for `2026-`, `[main`, `I0314`, not the rest. */
const SHAPE_RUNS = 2;

/**
 * How an unindented line starts: the first SHAPE_RUNS runs of its first field's shape (a
 * thread name or an id further on varies from line to line; the start of a timestamp does
 * not). `null` for indented and blank lines, which continue a record.
 *
 * @example
 * lineShape("2026-03-14T09:26:41.118Z ERROR boom"); // "9-"
 * lineShape("[main] INFO started");                 // "[a"
 * lineShape("Caused by: java.io.IOException");      // "a"
 */
export function lineShape(text: string): string | null {
  if (text.length === 0 || /^\s/.test(text)) return null;
  const field = text.slice(0, 80).split(/\s/, 1)[0]!;
  return [...fieldShape(field)].slice(0, SHAPE_RUNS).join("");
}

/** A line drawn with one repeated punctuation character at both ends (`=====`, `___ x ___`). */
export function isRuleLine(text: string): boolean {
  const t = text.trim();
  const c = t[0];
  if (c === undefined || /[\p{L}\p{N}]/u.test(c)) return false;
  const run = c.repeat(3);
  return t.startsWith(run) && t.endsWith(run);
}

/**
 * The shape most unindented lines of a head sample start with, when it is frequent enough to
 * mark record starts and carries more than words (a digit or a punctuation mark: a timestamp,
 * a bracketed field); else the first line's shape, when it carries more than words and recurs
 * (a dump of entries that open with `Event[62]:` and whose sections start at column 0 too),
 * unless `fromOpening` is false. `null` otherwise: then no line is a log record start.
 *
 * @example
 * recordStartShape(["2026-03-14T08:00Z INFO a", "2026-03-14T08:01Z WARN b", "  at x", "2026-03-14T08:02Z INFO c"]); // "9-"
 */
export function recordStartShape(
  headLines: readonly string[],
  options: { readonly fromOpening?: boolean } = {},
): string | null {
  const counts = new Map<string, number>();
  let unindented = 0;
  for (const line of headLines) {
    if (isBlank(line) || isRuleLine(line)) continue;
    const shape = lineShape(line);
    if (shape === null) continue;
    unindented++;
    // A shape of letters only (a word) marks nothing: continuation lines start with words too.
    if (shape !== "a") counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [shape, count] of counts) {
    if (count > bestCount) {
      best = shape;
      bestCount = count;
    }
  }
  if (best !== null && bestCount >= MIN_SHAPE_LINES && bestCount >= unindented * MIN_SHAPE_SHARE)
    return best;
  if (options.fromOpening === false) return null;
  // A dump of records opens with its first record: the first line's shape, where it recurs.
  const first = headLines.find((line) => !isBlank(line) && !isRuleLine(line));
  const opening = first === undefined ? null : lineShape(first);
  return opening !== null && opening !== "a" && (counts.get(opening) ?? 0) >= MIN_SHAPE_LINES
    ? opening
    : null;
}

/**
 * The lines from the nearest line at or above `at` that `opens` a record, down to the line
 * before the next such line (or the output's end), trailing blank lines left out. `null`
 * above the first such line, or when the budget (or `maxLines` either way) ran out first.
 */
async function openedBy(
  window: LineWindow,
  at: number,
  opens: (text: string) => boolean,
  kind: FoundRecord["kind"],
  maxLines = Number.POSITIVE_INFINITY,
): Promise<FoundRecord | null> {
  let first = -1;
  for (let i = at; i >= 0 && at - i < maxLines; i--) {
    const line = await window.line(i);
    if (!line) return null;
    if (opens(line.text)) {
      first = i;
      break;
    }
  }
  if (first < 0) return null;
  let last = first;
  for (let i = first + 1; ; i++) {
    const line = i - first < maxLines ? await window.line(i) : null;
    if (!line) {
      if (i < window.totalLines) return null;
      break;
    }
    if (opens(line.text)) break;
    if (!isBlank(line.text)) last = i;
  }
  return spanOf(window, kind, first, last);
}

/**
 * The log entry holding line `at`: from a line that starts with `shape` to the next one; in a
 * stamped log (record-stamps.ts), judged on each line's text after its `stamp`.
 */
export function logEntry(
  window: LineWindow,
  at: number,
  shape: string,
  stamp: string | null = null,
): Promise<FoundRecord | null> {
  const own = stamp === null ? (text: string) => text : (text: string) => withoutStamp(text, stamp);
  return openedBy(window, at, (text) => lineShape(own(text)) === shape, "log-entry");
}

/**
 * Lines a section between rule lines may span: rule lines are rare in most text, so the walk
 * for one stops here instead of reading its whole budget for every match.
 */
const MAX_SECTION_LINES = 2_000;

/** The section holding line `at`: from a rule line at or above it to the next rule line. */
export function ruleSection(window: LineWindow, at: number): Promise<FoundRecord | null> {
  return openedBy(window, at, isRuleLine, "block", MAX_SECTION_LINES);
}

/**
 * The paragraph holding line `at`: the lines between the blank lines around it, when it has
 * more than one line, at most `maxLines`, and a blank line on at least one side (an output
 * without blank lines has no paragraphs).
 */
export async function paragraph(
  window: LineWindow,
  at: number,
  maxLines: number,
): Promise<FoundRecord | null> {
  let first = at;
  let last = at;
  let blankSide = false;
  for (;;) {
    const line = await window.line(first - 1);
    if (!line) break;
    if (isBlank(line.text)) {
      blankSide = true;
      break;
    }
    first--;
    if (last - first >= maxLines) return null;
  }
  for (;;) {
    const line = await window.line(last + 1);
    if (!line) break;
    if (isBlank(line.text)) {
      blankSide = true;
      break;
    }
    last++;
    if (last - first >= maxLines) return null;
  }
  if (!blankSide || first === last) return null;
  return spanOf(window, "block", first, last);
}

/** The shape `lineShape` gives a line that opens with a name and a colon (`Version: 1.2`). */
export const FIELD_NAME_SHAPE = "a:";

/** The name a line opens with (`Version` of `Version: 1.2`), or null. */
function openingName(text: string): string | null {
  if (lineShape(text) !== FIELD_NAME_SHAPE) return null;
  return text.slice(0, text.indexOf(":"));
}

/**
 * The paragraph holding line `at` when its lines are the fields of one record: unindented lines
 * that open with a name and a colon, each name once or nearly (`Package:`, `Version:`,
 * `Depends:`, a Debian control file's stanza; mail headers). A record names each field once, so
 * lines that open with the same name (`id: 1` on every line) are records of their own.
 *
 * @example
 * fieldParagraph(window, 7, 60); // lines 2-12, "Package: curl" to "Homepage: …", for a match on line 7
 */
export async function fieldParagraph(
  window: LineWindow,
  at: number,
  maxLines: number,
): Promise<FoundRecord | null> {
  const found = await paragraph(window, at, maxLines);
  if (!found) return null;
  const names: string[] = [];
  for (let i = found.first; i <= found.last; i++) {
    const name = openingName((await window.line(i))?.text ?? "");
    if (name !== null) names.push(name);
  }
  return names.length >= 2 && new Set(names).size * 2 > names.length ? found : null;
}

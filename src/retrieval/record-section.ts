/**
 * The Markdown heading a record sits under (records.ts): a line of a document says little of
 * where it is, and its section's heading is what a reader would cite ("the first section that
 * mentions X"), as a table row's header names its cells
 * ([SW-36](../../docs/architecture.md#spillways-own)). Found from the text's structure: the
 * nearest ATX heading (`#` to `######` and a space) above the record and outside fenced code,
 * where a `# comment` line of a shell snippet looks the same.
 */
import type { LineInfo, LineWindow } from "./record-lines.js";
import type { FoundRecord } from "./record-types.js";

/**
 * Characters before a record that are read to find its section, at most: the fences above it
 * decide which `#` lines are headings, so the walk must reach the output's first line.
 */
const SCAN_CHARS = 1024 * 1024;
/** An ATX heading: up to 3 spaces, 1 to 6 `#`, then a space and text (CommonMark). */
const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+\S/;
/** A code fence's opening or closing line: three backticks or tildes. */
const FENCE = /^ {0,3}(?:```|~~~)/;

/**
 * `found`, the record around line `at`, with the heading of the section that line is in, when
 * the line starts within the first SCAN_CHARS characters of the output (the fences above it
 * decide which `#` lines are headings) and a heading lies above it (inside the record or not);
 * otherwise `found` as it is. A heading line has none: it is one.
 *
 * @example
 * await withSection(window, paragraphBlock, 1008);
 * // { …paragraphBlock, section: { charStart: 40112, charEnd: 40140 } }
 */
export async function withSection(
  window: LineWindow,
  found: FoundRecord,
  at: number,
): Promise<FoundRecord> {
  const own = await window.line(at);
  if (!own || own.start > SCAN_CHARS || ATX_HEADING.test(own.text)) return found;
  // Walking up from the record: each heading with the number of fences between it and the
  // record; the fences above the record are known only once line 0 is reached.
  const headings: { line: LineInfo; fencesBelow: number }[] = [];
  let fences = 0;
  for (let i = at - 1; i >= 0; i--) {
    const line = await window.line(i);
    if (!line) return found; // past the window's budget: which lines are code is unknown
    if (FENCE.test(line.text)) fences++;
    else if (ATX_HEADING.test(line.text)) headings.push({ line, fencesBelow: fences });
  }
  // A line is outside code when an even number of fences lie above it.
  const heading = headings.find((h) => (fences - h.fencesBelow) % 2 === 0);
  if (!heading) return found;
  const { start, text } = heading.line;
  return { ...found, section: { charStart: start, charEnd: start + text.length } };
}

/** The level of an ATX heading line (1 to 6), or 0 when the line is not one. */
const headingLevel = (text: string) =>
  ATX_HEADING.test(text) ? /^ {0,3}(#+)/.exec(text)![1]!.length : 0;

/**
 * The section a Markdown heading on line `at` opens: the heading and the lines under it, up to
 * the next heading of the same or a higher level outside fenced code, at most `maxLines` lines
 * (blank lines at its end left out). A heading names what its section is about, as an INI
 * section header does its keys (SW-70): a search that finds "v1.30.0" in `## Version v1.30.0`
 * means the release date under it, which the heading's line alone does not show. `null` when
 * the line is no heading (or lies in fenced code, or past SCAN_CHARS, where that is unknown),
 * or when nothing but blank lines follows it before the next heading.
 *
 * @example
 * await headingSection(window, 736, 60); // `## Version v1.30.0` with its date and notes
 * // { kind: "block", first: 736, last: 743, … }
 */
export async function headingSection(
  window: LineWindow,
  at: number,
  maxLines: number,
): Promise<FoundRecord | null> {
  const own = await window.line(at);
  const level = own ? headingLevel(own.text) : 0;
  if (!own || level === 0 || own.start > SCAN_CHARS) return null;
  let fencesAbove = 0;
  for (let i = at - 1; i >= 0; i--) {
    const line = await window.line(i);
    if (!line) return null;
    if (FENCE.test(line.text)) fencesAbove++;
  }
  if (fencesAbove % 2 === 1) return null;
  let last = at;
  let inFence = false;
  for (let i = at + 1; i - at < maxLines; i++) {
    const line = await window.line(i);
    if (!line) break;
    const next = headingLevel(line.text);
    if (FENCE.test(line.text)) inFence = !inFence;
    else if (!inFence && next > 0 && next <= level) break;
    if (line.text.trim() !== "") last = i;
  }
  if (last === at) return null;
  const end = await window.end(last);
  return end === null
    ? null
    : { kind: "block", first: at, last, charStart: own.start, charEnd: end };
}

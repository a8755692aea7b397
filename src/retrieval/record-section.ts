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

/**
 * JSON records: the line's object in JSON lines; otherwise the innermost array element (or,
 * outside arrays, the innermost object) that encloses the match, found with a JSON-aware scan
 * of a window around it that widens while the answer is unsure (records.ts).
 */
import type { TextReader } from "../store/text-reader.js";
import {
  type EnclosingContainer,
  enclosingContainers,
  isWholeContainer,
  jsonReading,
} from "./json-scan.js";
import type { LineInfo, LineWindow } from "./record-lines.js";
import type { FoundRecord } from "./record-types.js";

/** Characters read on each side of the match: the first window, then wider ones. */
const WINDOWS = [4 * 1024, 32 * 1024, 256 * 1024, 1024 * 1024];
/** Violations a window may show and still read as JSON (tokens cut at its edges). */
const MAX_VIOLATIONS = 2;

/** The match line as one JSON-lines record, when it is a whole container of at most `maxChars`. */
export function jsonLineRecord(
  line: LineInfo,
  maxChars: number,
  ndjson: boolean,
): FoundRecord | null {
  if (!line.whole || line.text.length > maxChars || !isWholeContainer(line.text)) return null;
  return {
    kind: ndjson ? "json-line" : "json-object",
    first: line.line,
    last: line.line,
    charStart: line.start,
    charEnd: line.start + line.text.length,
  };
}

interface Choice {
  readonly container: EnclosingContainer;
  /** The window is wide enough: a wider one could not give another answer. */
  readonly settled: boolean;
}

/** The record among the enclosing containers: innermost element, else innermost object. */
function choose(enclosing: readonly EnclosingContainer[], windowAtStart: boolean): Choice | null {
  const inner = [...enclosing].reverse();
  const element = inner.find((c) => c.placement === "element");
  if (element) return { container: element, settled: element.close !== null };
  // An element may enclose these from further out, unless the window reaches the output start.
  const outerKnown = windowAtStart && enclosing[0]?.placement !== "unknown";
  const object = inner.find((c) => c.object && c.close !== null);
  const any = object ?? inner.find((c) => c.close !== null);
  return any ? { container: any, settled: outerKnown } : null;
}

/**
 * The JSON record around character `at`: read [at - W, at + W] for growing W, scan it, and
 * keep the first settled answer (or the last one found once the widest window is read).
 */
export async function jsonTreeRecord(
  reader: TextReader,
  window: LineWindow,
  at: number,
): Promise<FoundRecord | null> {
  let best: { start: number; end: number } | null = null;
  for (const size of WINDOWS) {
    const from = Math.max(0, at - size);
    const to = Math.min(reader.totalChars, at + size);
    const range = await reader.readChars(from, to);
    const text = range.text;
    const base = range.start.char;
    const offset = at - base;
    // Raw newlines never occur inside JSON strings: after the window's first one, the scan
    // starts outside a string; a window of one line starts in an unknown state.
    const newline = base === 0 ? -1 : text.indexOf("\n");
    const known = base === 0 || (newline >= 0 && newline < offset);
    const syncAt = base === 0 || !known ? 0 : newline + 1;
    const reading = jsonReading(text, syncAt, !known);
    // Brackets in text that is not JSON (a Markdown link, prose) make no JSON record.
    if (reading.violations > MAX_VIOLATIONS) return null;
    const enclosing = enclosingContainers(text, syncAt, reading.inString, offset, base === 0);
    const choice = choose(enclosing, base === 0 && syncAt === 0);
    if (choice?.container.close != null) {
      best = { start: base + choice.container.open, end: base + choice.container.close + 1 };
    }
    if (choice?.settled || (from === 0 && to === reader.totalChars)) break;
  }
  if (!best) return null;
  return spanOf(reader, window, best.start, best.end);
}

/** A record of characters [start, end): whole lines when it spans several, else the characters. */
async function spanOf(
  reader: TextReader,
  window: LineWindow,
  start: number,
  end: number,
): Promise<FoundRecord> {
  const first = (await reader.positionAtChar(start)).line;
  const last = (await reader.positionAtChar(end - 1)).line;
  if (first === last) return { kind: "json-object", first, last, charStart: start, charEnd: end };
  const firstLine = await window.line(first);
  return {
    kind: "json-object",
    first,
    last,
    charStart: firstLine?.start ?? start,
    charEnd: (await window.end(last)) ?? end,
  };
}

/**
 * Bounds a record to its limits (records.ts): a record over them shows the lines around the
 * match (or, on a line longer than the limit, the characters around it), and names every part
 * left out with the slice request that reads it.
 */
import type { LineWindow } from "./record-lines.js";
import type { FoundRecord, OmittedPart } from "./record-types.js";

/** What of a record is shown: characters [start, end), whole lines first..last or part of one line. */
export interface ShownPart {
  readonly start: number;
  readonly end: number;
  /** 0-based lines shown. */
  readonly first: number;
  readonly last: number;
  /** False when the part is characters of line `first` (= `last`) around the match. */
  readonly wholeLines: boolean;
}

interface Limits {
  readonly maxLines: number;
  readonly maxChars: number;
}

/**
 * The part of `record` to show around the match at line `line`, character `at`: the whole
 * record when it fits, else whole lines around the match line, taken one above and one below
 * in turn while they fit, else the characters around `at` on the match line.
 */
export async function shownPart(
  window: LineWindow,
  record: FoundRecord,
  line: number,
  at: number,
  limits: Limits,
): Promise<ShownPart> {
  const lines = record.last - record.first + 1;
  if (lines <= limits.maxLines && record.charEnd - record.charStart <= limits.maxChars) {
    const wholeLines = record.first !== record.last;
    return {
      start: record.charStart,
      end: record.charEnd,
      first: record.first,
      last: record.last,
      wholeLines,
    };
  }
  const aroundMatch = (from: number, to: number): ShownPart => {
    const half = Math.floor(limits.maxChars / 2);
    const end = Math.min(to, Math.max(from, at - half) + limits.maxChars);
    return {
      start: Math.max(from, end - limits.maxChars),
      end,
      first: line,
      last: line,
      wholeLines: false,
    };
  };
  // On one line (a minified element), the line's far ends are never needed.
  if (record.first === record.last) return aroundMatch(record.charStart, record.charEnd);
  const lineStart = Math.max(record.charStart, (await window.line(line))?.start ?? at);
  const lineEnd = Math.min(record.charEnd, (await window.end(line)) ?? at);
  if (lineEnd - lineStart > limits.maxChars) return aroundMatch(lineStart, lineEnd);
  let first = line;
  let last = line;
  let start = lineStart;
  let end = lineEnd;
  // Whole lines around the match, counted by their real extent (terminators, "\r\n" included).
  const widen = async (next: number): Promise<boolean> => {
    if (next < record.first || next > record.last || last - first + 1 >= limits.maxLines)
      return false;
    const info = await window.line(next);
    const nextEnd = await window.end(next);
    if (!info || nextEnd === null) return false;
    const from = next < first ? info.start : start;
    const to = next < first ? end : nextEnd;
    if (to - from > limits.maxChars) return false;
    start = from;
    end = to;
    if (next < first) first = next;
    else last = next;
    return true;
  };
  for (let growing = true; growing; ) {
    const up = await widen(first - 1);
    const down = await widen(last + 1);
    growing = up || down;
  }
  return { start, end, first, last, wholeLines: true };
}

/**
 * The parts of the record outside what is shown (`shown.start`/`end` as read, which a
 * surrogate pair may have widened): runs of whole lines, read by line numbers, and pieces of
 * the match line, read by characters.
 */
export async function omittedParts(
  window: LineWindow,
  record: FoundRecord,
  shown: ShownPart,
): Promise<OmittedPart[]> {
  const parts: OmittedPart[] = [];
  const startOf = async (line: number) => (await window.line(line))?.start ?? 0;
  const endOf = async (line: number) => (await window.end(line)) ?? 0;
  const linesPart = async (first: number, last: number): Promise<OmittedPart> => ({
    lineStart: first + 1,
    lineEnd: last + 1,
    charStart: Math.max(record.charStart, await startOf(first)),
    charEnd: Math.min(record.charEnd, await endOf(last)),
    slice: { lineStart: first + 1, lineEnd: last + 1 },
  });
  if (shown.first > record.first) parts.push(await linesPart(record.first, shown.first - 1));
  if (!shown.wholeLines) {
    // The match line's own characters before and after what is shown.
    const lineStart = shown.first > record.first ? await startOf(shown.first) : record.charStart;
    if (shown.start > lineStart) parts.push(charsPart(lineStart, shown.start, shown.first));
    const lineEnd = shown.last < record.last ? await endOf(shown.last) : record.charEnd;
    if (lineEnd > shown.end) parts.push(charsPart(shown.end, lineEnd, shown.last));
  }
  if (shown.last < record.last) parts.push(await linesPart(shown.last + 1, record.last));
  return parts;
}

function charsPart(from: number, to: number, line: number): OmittedPart {
  return {
    lineStart: line + 1,
    lineEnd: line + 1,
    charStart: from,
    charEnd: to,
    slice: { start: from, length: to - from },
  };
}

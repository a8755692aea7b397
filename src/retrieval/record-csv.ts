/**
 * CSV and TSV rows (records.ts): the delimiter is the one whose field count is the same on the
 * header row and the rows after it; a row is read with its quoted fields (delimiters, quotes
 * and newlines inside quotes), and named by the header row.
 */
import { lineShape } from "./record-blocks.js";
import type { LineWindow } from "./record-lines.js";
import type { FoundRecord } from "./record-types.js";

const DELIMITERS = [",", "\t", ";", "|"] as const;
/** Rows of the head sample that must share the header's field count. */
const CONSISTENT_SHARE = 0.9;
/** Lines a row may span (a quoted field with newlines). */
const MAX_ROW_LINES = 60;

/** The header row and the delimiter of a CSV output. */
export interface CsvProfile {
  readonly delimiter: string;
  readonly names: string[];
  /** Characters [0, headerEnd) hold the header row (without its terminator). */
  readonly headerEnd: number;
  /** 0-based last line of the header row. */
  readonly headerLastLine: number;
}

interface ParsedRow {
  readonly fields: string[];
  /** Index just past the row's terminator (or the text's end). */
  readonly next: number;
  /** Index where the row's text ends (before its terminator). */
  readonly end: number;
  /** False when a quote stands where a strict reading forbids it. */
  readonly strict: boolean;
  /** True when a quoted field runs to the text's end without closing. */
  readonly open: boolean;
}

/** Reads one row of `text` from `from`: fields split on `delimiter` outside quotes. */
export function parseRow(text: string, from: number, delimiter: string): ParsedRow {
  const fields: string[] = [];
  let strict = true;
  let i = from;
  for (;;) {
    let value = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) {
          return { fields: [...fields, value], next: i, end: i, strict: false, open: true };
        }
        const c = text[i]!;
        if (c === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += c;
        i++;
      }
      // After a closing quote: a delimiter or the row's end, nothing else.
      const after = text[i];
      if (after !== undefined && after !== delimiter && after !== "\n" && after !== "\r") {
        strict = false;
        while (i < text.length && text[i] !== delimiter && text[i] !== "\n") value += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== delimiter && text[i] !== "\n") {
        if (text[i] === '"') strict = false;
        value += text[i++];
      }
      if (value.endsWith("\r") && text[i] !== delimiter) value = value.slice(0, -1);
    }
    fields.push(value);
    if (text[i] === delimiter) {
      i++;
      continue;
    }
    const end = i > from && text[i - 1] === "\r" ? i - 1 : i;
    return { fields, next: text[i] === "\n" ? i + 1 : i, end, strict, open: false };
  }
}

/**
 * The delimiter and header of a CSV head sample: the delimiter whose field count (at least 2)
 * the header row shares with most rows after it, the one with most fields first. `null` when
 * no delimiter is consistent. `unsure` (the output was not detected as CSV) asks for more: at
 * least 3 distinct, non-empty names, on a row that does not start like the next one (a log's
 * lines, which may hold one comma each, all start alike).
 */
export function csvProfile(head: string, headIsWhole: boolean, unsure = false): CsvProfile | null {
  let best: CsvProfile | null = null;
  for (const delimiter of DELIMITERS) {
    const header = parseRow(head, 0, delimiter);
    if (header.fields.length < 2 || !header.strict || header.open) continue;
    if (unsure && !namesRow(head, header, delimiter)) continue;
    let rows = 0;
    let consistent = 0;
    for (let at = header.next; at < head.length && rows < 50; ) {
      const row = parseRow(head, at, delimiter);
      if (row.next >= head.length && !headIsWhole) break;
      rows++;
      if (row.strict && row.fields.length === header.fields.length) consistent++;
      at = row.next;
    }
    if (rows === 0 || consistent < rows * CONSISTENT_SHARE) continue;
    if (best && best.names.length >= header.fields.length) continue;
    best = {
      delimiter,
      names: header.fields,
      headerEnd: header.end,
      headerLastLine: countNewlines(head, header.end),
    };
  }
  return best;
}

/** A header row of at least 3 distinct non-empty names that starts unlike the row after it. */
function namesRow(head: string, header: ParsedRow, delimiter: string): boolean {
  const names = header.fields.map((f) => f.trim());
  if (names.length < 3 || names.some((n) => n === "") || new Set(names).size < names.length)
    return false;
  const next = parseRow(head, header.next, delimiter);
  const shape = (text: string) => lineShape(text.slice(0, 200).split(delimiter)[0] ?? "");
  return shape(head.slice(0, header.end)) !== shape(head.slice(header.next, next.end));
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** Lines first..last of the window joined with "\n", with where each line starts. */
async function joined(window: LineWindow, first: number, last: number) {
  const starts: number[] = [];
  const parts: string[] = [];
  let length = 0;
  for (let i = first; i <= last; i++) {
    const line = await window.line(i);
    if (!line?.whole) break;
    starts.push(length);
    parts.push(line.text);
    length += line.text.length + 1;
  }
  return { text: parts.join("\n"), starts };
}

/**
 * The row holding line `at`: the line itself when it reads as a whole row of the header's
 * field count, else the nearest start above from which the rows read strictly and one of them
 * spans line `at`.
 */
export async function csvRow(
  window: LineWindow,
  at: number,
  profile: CsvProfile,
): Promise<FoundRecord | null> {
  if (at <= profile.headerLastLine) {
    const header = { charStart: 0, charEnd: profile.headerEnd, names: profile.names };
    const last = profile.headerLastLine;
    return { kind: "csv-row", first: 0, last, charStart: 0, charEnd: profile.headerEnd, header };
  }
  const lowest = Math.max(profile.headerLastLine + 1, at - MAX_ROW_LINES);
  for (let start = at; start >= lowest; start--) {
    // Most rows are one line: read on past line `at` only when a quoted field runs on.
    for (const extra of [0, MAX_ROW_LINES]) {
      const found = await rowFrom(window, start, at, at + extra, profile);
      if (found === "invalid") break;
      if (found !== "short") return found;
    }
  }
  return null;
}

/**
 * Reads rows from line `start` over lines start..last: the row that spans line `at`, "short"
 * when a quoted field runs past `last`, "invalid" when a row does not read strictly.
 */
async function rowFrom(
  window: LineWindow,
  start: number,
  at: number,
  last: number,
  profile: CsvProfile,
): Promise<FoundRecord | "short" | "invalid" | null> {
  const { text, starts } = await joined(window, start, last);
  if (starts.length <= at - start) return null;
  const lineOf = (index: number) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1]! <= index) line++;
    return start + line;
  };
  for (let from = 0; from < text.length; ) {
    const row = parseRow(text, from, profile.delimiter);
    if (row.open) return "short";
    if (!row.strict || row.fields.length !== profile.names.length) return "invalid";
    const rowLast = lineOf(Math.max(from, row.end - 1));
    if (rowLast >= at) {
      const first = lineOf(from);
      const begin = await window.line(first);
      const end = await window.end(rowLast);
      if (!begin || end === null) return null;
      return {
        kind: "csv-row",
        first,
        last: rowLast,
        charStart: begin.start,
        charEnd: end,
        header: { charStart: 0, charEnd: profile.headerEnd, names: profile.names },
        fields: profile.names.map((name, i) => ({ name, value: row.fields[i] ?? "" })),
      };
    }
    from = row.next;
  }
  return "invalid";
}

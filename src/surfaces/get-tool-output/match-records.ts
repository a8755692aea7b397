/**
 * Matches shown inside their records (SW-11): the JSON object, YAML item, CSV row, log entry or
 * failure block around each match, each record once however many of its matches it holds, as
 * many as fit a read's budget. Grep and search both show their matches this way.
 */
import { clipText } from "../../core/clip-text.js";
import { fieldsLine, type MatchAt, recordShows } from "../../retrieval/record-matches.js";
import type { MatchRecord, OmittedPart } from "../../retrieval/record-types.js";
import { recordAround } from "../../retrieval/records.js";
import type { SearchMatch } from "../../retrieval/search.js";
import type { OpenedOutput } from "../../store/output-store.js";
import { getToolOutputCall } from "./schema.js";

const n = (value: number) => value.toLocaleString("en-US");

const KIND_NAMES: Record<MatchRecord["kind"], string> = {
  "json-object": "JSON object",
  "json-line": "JSON line",
  "yaml-item": "list item",
  "csv-row": "CSV row",
  "table-row": "table row",
  "log-entry": "log entry",
  block: "block",
  lines: "lines",
};

/** Characters one record may take, at most (the retrieval default). */
const RECORD_CHARS = 4_000;

/** Matches shown together: inside one record, or (record null) as the match's own lines. */
export interface RecordGroup<M> {
  readonly record: MatchRecord | null;
  readonly matches: M[];
}

function omittedText(id: string, part: OmittedPart): string {
  const where =
    "lineStart" in part.slice
      ? part.lineStart === part.lineEnd
        ? `line ${n(part.lineStart)}`
        : `lines ${n(part.lineStart)}-${n(part.lineEnd)}`
      : `chars ${n(part.charStart)}-${n(part.charEnd)} of line ${n(part.lineStart)}`;
  const slice =
    "lineStart" in part.slice
      ? { line_start: part.slice.lineStart, line_end: part.slice.lineEnd }
      : { start: part.slice.start, length: part.slice.length };
  return `${where} ${getToolOutputCall({ id, mode: "slice", slice })}`;
}

/** Characters of a section's heading shown in a record's header line. */
const SECTION_CHARS = 200;

/**
 * The line that introduces a record: its kind, its extent, the header or section heading that
 * says where it is, and what it left out.
 *
 * @example
 * recordHeader("out_1", record); // "[record: list item, lines 3-31]"
 */
export function recordHeader(id: string, record: MatchRecord): string {
  const lines =
    record.lineStart === record.lineEnd
      ? `line ${n(record.lineStart)}`
      : `lines ${n(record.lineStart)}-${n(record.lineEnd)}`;
  const p = record.provenance;
  const onOneLine =
    record.lineStart === record.lineEnd && !record.header
      ? `, chars ${n(record.charStart)}-${n(record.charEnd)}`
      : "";
  const where =
    (record.header
      ? `; names from the header, line ${n(record.header.provenance.lineStart)}`
      : "") +
    (record.section
      ? `; in the section under line ${n(record.section.provenance.lineStart)}: ${clipText(record.section.text.trim(), SECTION_CHARS, { sayLength: true })}`
      : "");
  if (!record.clipped) return `[record: ${KIND_NAMES[record.kind]}, ${lines}${onOneLine}${where}]`;
  const shown =
    p.lineStart === p.lineEnd && record.lineStart !== record.lineEnd
      ? `part of line ${n(p.lineStart)}`
      : p.lineStart === p.lineEnd
        ? `chars ${n(p.charStart)}-${n(p.charEnd)}`
        : `lines ${n(p.lineStart)}-${n(p.lineEnd)}`;
  const left = record.clipped.omitted.map((part) => omittedText(id, part)).join("; ");
  return `[record: ${KIND_NAMES[record.kind]}, ${lines}${onOneLine}${where}; too long to show whole, showing ${shown}; left out: ${left}]`;
}

/** One line of a record as shown: `column` is undefined around the matches, null on a matching line without one. */
export type RecordRow = (line: number, text: string, column: number | null | undefined) => string;

/** Grep's numbering: `LINE:COL: text` or `LINE: text` on a matching line, `LINE- text` around. */
const grepRow: RecordRow = (line, text, column) =>
  column === undefined
    ? `${line}- ${text}`
    : column === null
      ? `${line}: ${text}`
      : `${line}:${column}: ${text}`;

/**
 * A record's lines, numbered by `row` (grep's numbering unless given): the lines of `marks`
 * are matching lines (with their column, or null); a CSV row is its fields on one line.
 *
 * @example
 * recordBody(record, new Map([[12, 5]])); // "11-   - name: web-1\n12:5:     image: nginx:1.27\n…"
 */
export function recordBody(
  record: MatchRecord,
  marks: ReadonlyMap<number, number | null>,
  row: RecordRow = grepRow,
): string {
  if (record.fields) return row(record.lineStart, fieldsLine(record.fields), null);
  const first = record.provenance.lineStart;
  return record.text
    .split("\n")
    .map((text, i) => row(first + i, text.replace(/\r$/, ""), marks.get(first + i)))
    .join("\n");
}

/** How grouping places and shows each match. */
export interface GroupingOptions<M> {
  /** Where the match is: its line and the character its record is found around. */
  readonly at: (match: M) => MatchAt;
  /** True when a record says no more than the match's own lines would. */
  readonly bare: (record: MatchRecord, match: M) => boolean;
  /** The text a group is shown as (its size counts against the budget). */
  readonly text: (group: RecordGroup<M>) => string;
  /** Characters for every group together (the first is shown whatever its size). */
  readonly maxChars: number;
}

/**
 * Groups matches, in order, into the records that hold them, while they fit `maxChars`: a
 * match inside a record already shown joins it; a record that adds nothing to the match's own
 * lines is left out (record null). Returns the groups and how many matches they show.
 *
 * @example
 * const { groups, shown } = await groupInRecords(opened, matches, { at, bare, text, maxChars: 8_000 });
 */
export async function groupInRecords<M>(
  opened: OpenedOutput,
  matches: readonly M[],
  options: GroupingOptions<M>,
): Promise<{ groups: RecordGroup<M>[]; shown: number }> {
  const groups: RecordGroup<M>[] = [];
  let used = 0;
  let shown = 0;
  for (const match of matches) {
    const at = options.at(match);
    const holder = groups.find((g) => g.record && recordShows(g.record, at));
    if (holder) {
      holder.matches.push(match);
      shown++;
      continue;
    }
    const room = options.maxChars - used;
    const record = await recordAround(
      opened,
      { line: at.line, charOffset: at.matchCharStart },
      { maxChars: Math.max(200, Math.min(RECORD_CHARS, room - 300)) },
    );
    const group: RecordGroup<M> = {
      record: options.bare(record, match) ? null : record,
      matches: [match],
    };
    const size = options.text(group).length + 8;
    if (groups.length > 0 && used + size > options.maxChars) break;
    groups.push(group);
    used += size;
    shown++;
  }
  return { groups, shown };
}

/**
 * Where a search line's record is looked for: the line's first non-blank character, or, in an
 * excerpt of a long line, the matched word the excerpt is centred on.
 *
 * @example
 * searchMatchAt(match); // { line: 1, matchCharStart: 6141 }
 */
export function searchMatchAt(match: SearchMatch): MatchAt {
  if (match.clipped) return { line: match.line, matchCharStart: match.focusChar };
  const lead = match.text.length - match.text.trimStart().length;
  return { line: match.line, matchCharStart: match.provenance.charStart + lead };
}

/**
 * True when a record adds nothing to a search line: no structure was found, the record is the
 * line itself, or the line is an excerpt whose record is too long to show whole too.
 *
 * @example
 * isBareSearchRecord(record, match); // true for a log line that is its own record
 */
export function isBareSearchRecord(record: MatchRecord, match: SearchMatch): boolean {
  if (record.section) return false;
  if (record.kind === "lines") return true;
  if (match.clipped) return record.clipped !== undefined;
  return !record.fields && !record.clipped && record.text === match.text;
}

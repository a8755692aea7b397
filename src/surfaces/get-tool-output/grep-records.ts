/**
 * A grep's matches shown inside their records (SW-11): the JSON object, YAML item, CSV row, log
 * entry or failure block around each match, each record once however many of its lines
 * matched, as many as fit the read's budget; the rest is one continuation call away, and a
 * record over its limits names the exact slices of what it left out.
 */
import type { GrepMatch, GrepResult } from "../../retrieval/grep.js";
import { fieldsLine, recordShows } from "../../retrieval/record-matches.js";
import type { MatchRecord, OmittedPart } from "../../retrieval/record-types.js";
import { recordAround } from "../../retrieval/records.js";
import type { OpenedOutput } from "../../store/output-store.js";
import { grepHeader, grepLines, grepWindowedNote, renderGrep } from "../render.js";
import type { SurfaceContext } from "../surface.js";
import { withOpened } from "./read.js";
import { getToolOutputCall } from "./schema.js";

const n = (value: number) => value.toLocaleString("en-US");

const KIND_NAMES: Record<MatchRecord["kind"], string> = {
  "json-object": "JSON object",
  "json-line": "JSON line",
  "yaml-item": "list item",
  "csv-row": "CSV row",
  "log-entry": "log entry",
  block: "block",
  lines: "lines",
};

/** Characters one record may take, at most (the retrieval default). */
const RECORD_CHARS = 4_000;

/** A group of matches shown together: inside one record, or as grep lines. */
interface Shown {
  readonly record: MatchRecord | null;
  readonly matches: GrepMatch[];
}

/** True when a record says no more than the match line (and its context) would. */
function isBare(record: MatchRecord, match: GrepMatch): boolean {
  return (
    record.kind === "lines" ||
    (!record.fields && !record.clipped && !match.clipped && record.text === match.text)
  );
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

/** The line that introduces a record: its kind, its extent, and what it left out. */
function recordHeader(id: string, record: MatchRecord): string {
  const lines =
    record.lineStart === record.lineEnd
      ? `line ${n(record.lineStart)}`
      : `lines ${n(record.lineStart)}-${n(record.lineEnd)}`;
  const p = record.provenance;
  const onOneLine =
    record.lineStart === record.lineEnd && record.kind !== "csv-row"
      ? `, chars ${n(record.charStart)}-${n(record.charEnd)}`
      : "";
  const header = record.header
    ? `; names from the header, line ${n(record.header.provenance.lineStart)}`
    : "";
  if (!record.clipped) return `[record: ${KIND_NAMES[record.kind]}, ${lines}${onOneLine}${header}]`;
  const shown =
    p.lineStart === p.lineEnd && record.lineStart !== record.lineEnd
      ? `part of line ${n(p.lineStart)}`
      : p.lineStart === p.lineEnd
        ? `chars ${n(p.charStart)}-${n(p.charEnd)}`
        : `lines ${n(p.lineStart)}-${n(p.lineEnd)}`;
  const left = record.clipped.omitted.map((part) => omittedText(id, part)).join("; ");
  return `[record: ${KIND_NAMES[record.kind]}, ${lines}${onOneLine}${header}; too long to show whole, showing ${shown}; left out: ${left}]`;
}

/** A record's lines, numbered like grep: `LINE:COL: text` on a matching line, `LINE- text` around. */
function recordBody(record: MatchRecord, matches: readonly GrepMatch[]): string {
  const first = record.provenance.lineStart;
  if (record.fields) return `${record.lineStart}: ${fieldsLine(record.fields)}`;
  const columns = new Map(matches.map((m) => [m.line, m.column]));
  return record.text
    .split("\n")
    .map((text, i) => {
      const line = first + i;
      const column = columns.get(line);
      const body = text.replace(/\r$/, "");
      return column === undefined ? `${line}- ${body}` : `${line}:${column}: ${body}`;
    })
    .join("\n");
}

function blockOf(id: string, group: Shown): string {
  if (group.record)
    return `${recordHeader(id, group.record)}\n${recordBody(group.record, group.matches)}`;
  return grepLines(group.matches[0]!);
}

/**
 * Renders a grep result with each match inside its record, as many as fit `maxChars` (at
 * least one); `continueCall` gives the call that goes on from a cursor.
 *
 * @example
 * await renderGrepRecords(result, opened, 8_000, (cursor) => getToolOutputCall({ id, mode: "grep", pattern, cursor }));
 * // '[out_1 grep "web-1": 1 matching line; showing 1 in 1 record · …]\n[record: list item, lines 3-31]\n3- - apiVersion: v1\n…'
 */
export async function renderGrepRecords(
  result: GrepResult,
  opened: OpenedOutput,
  maxChars: number,
  continueCall: (cursor: number) => string,
): Promise<string> {
  const id = result.outputId;
  const groups: Shown[] = [];
  let used = 0;
  let shownMatches = 0;
  for (const match of result.matches) {
    const holder = groups.find((g) => g.record && recordShows(g.record, match));
    if (holder) {
      holder.matches.push(match);
      shownMatches++;
      continue;
    }
    const room = maxChars - used;
    const record = await recordAround(
      opened,
      { line: match.line, charOffset: match.matchCharStart },
      { maxChars: Math.max(200, Math.min(RECORD_CHARS, room - 300)) },
    );
    const group: Shown = { record: isBare(record, match) ? null : record, matches: [match] };
    const size = blockOf(id, group).length + 8;
    if (groups.length > 0 && used + size > maxChars) break;
    groups.push(group);
    used += size;
    shownMatches++;
  }
  const records = groups.filter((g) => g.record).length;
  const header = grepHeader(result, shownMatches, records);
  // Records open with their own header line; grep lines with context are set apart by "--".
  const hasContext = result.matches.some((m) => m.before.length > 0 || m.after.length > 0);
  const body = groups
    .map((g, i) => {
      const apart = i > 0 && hasContext && !g.record && !groups[i - 1]!.record;
      return `${apart ? "--\n" : ""}${blockOf(id, g)}`;
    })
    .join("\n");
  let footer = "";
  const last = groups.at(-1);
  const lastMatch = last?.matches.at(-1);
  if (last && lastMatch && (shownMatches < result.matches.length || result.nextCursor !== null)) {
    // Go on after what was shown: the last record's end, or the line of the last match.
    const shownEnd = Math.max(
      last.record ? last.record.provenance.charEnd : lastMatch.provenance.charEnd,
      shownMatches === result.matches.length ? (result.nextCursor ?? 0) : 0,
    );
    footer = `\n[more matching lines: ${continueCall(shownEnd)}]`;
  }
  return `${header}${body ? `\n${body}` : ""}${footer}${grepWindowedNote(result)}`;
}

/**
 * A grep result as the model sees it: each match inside its record, as many as fit the
 * budget; seed-exact sessions and empty results keep the plain grep lines.
 *
 * @example
 * await grepText("out_1", result, context, (cursor) => getToolOutputCall({ id: "out_1", mode: "grep", pattern, cursor }));
 */
export async function grepText(
  id: string,
  result: GrepResult,
  context: SurfaceContext,
  continueCall: (cursor: number) => string,
): Promise<string> {
  if (context.seedTexts || result.matches.length === 0)
    return renderGrep(result, context.maxChars, continueCall);
  return withOpened(id, context, (opened) =>
    renderGrepRecords(result, opened, context.maxChars, continueCall),
  );
}

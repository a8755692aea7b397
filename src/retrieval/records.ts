/**
 * Every match inside its record: the unit a line belongs to in structured output, found from
 * the structure of the text (brackets and strings, indentation, a header row, rule and blank
 * lines, the shape lines start with), never from the words of a format. Bounded: a record
 * over the limits shows the part around the match and names what it left out. Streaming: only
 * a window around the match is read, through the output's line index (SW-11).
 */
import { InvalidRangeError } from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import type { TextReader } from "../store/text-reader.js";
import { intArg, textReaderOf } from "./common.js";
import { provenanceOf } from "./provenance.js";
import {
  FIELD_NAME_SHAPE,
  fieldParagraph,
  logEntry,
  paragraph,
  recordStartShape,
  ruleSection,
} from "./record-blocks.js";
import { omittedParts, shownPart } from "./record-clip.js";
import { type CsvProfile, csvProfile, csvRow } from "./record-csv.js";
import { withTableHeader } from "./record-html-table.js";
import { indentedBlock, listItem, outerListItem, spanOf } from "./record-indent.js";
import { jsonLineRecord, jsonTreeRecord } from "./record-json.js";
import { isBlank, LineWindow } from "./record-lines.js";
import { headingSection, withSection } from "./record-section.js";
import { lineStamp, stampedEntry, withoutStamp } from "./record-stamps.js";
import { tableRow } from "./record-table.js";
import {
  DEFAULT_RECORD_LIMITS,
  type FoundRecord,
  type MatchRecord,
  type RecordLimits,
} from "./record-types.js";

/** Characters of lines a record search may read around one match. */
const SCAN_CHARS = 1024 * 1024;
/** Characters of the output's head that set its record-line shape and CSV header. */
const HEAD_CHARS = 64 * 1024;

/** What the head of an output says about its records, computed once per opened output. */
interface Profile {
  /** The field every line starts with (a CI runner's timestamp), or null (record-stamps.ts). */
  readonly stamp: string | null;
  /** The shape lines opening a record start with, after the stamp. */
  readonly startShape: string | null;
  readonly csv: CsvProfile | null;
}

const profiles = new WeakMap<OpenedOutput, Promise<Profile>>();

function profileOf(output: OpenedOutput, reader: TextReader): Promise<Profile> {
  let profile = profiles.get(output);
  if (!profile) {
    profile = (async () => {
      const end = Math.min(reader.totalChars, HEAD_CHARS);
      const head = (await reader.readChars(0, end)).text;
      const whole = end === reader.totalChars;
      const lines = head.split("\n");
      if (!whole) lines.pop();
      const plain = lines.map((l) => l.replace(/\r$/, ""));
      const stamp = lineStamp(plain);
      return {
        stamp,
        // After a stamp, only a shape most lines start with marks records: the runner's own
        // lines (`##[group]`) open the log but mark no entry of the program's.
        startShape:
          stamp === null
            ? recordStartShape(plain)
            : recordStartShape(
                plain.map((l) => withoutStamp(l, stamp)),
                { fromOpening: false },
              ),
        csv: csvProfile(head, whole, output.record.kind !== "csv"),
      };
    })();
    profiles.set(output, profile);
  }
  return profile;
}

/** The first finder that recognises the structure around line `at` decides the record. */
async function findRecord(
  output: OpenedOutput,
  reader: TextReader,
  window: LineWindow,
  at: number,
  char: number,
  limits: Required<RecordLimits>,
): Promise<FoundRecord | null> {
  const line = await window.line(at);
  if (!line || isBlank(line.text)) return null;
  const kind = output.record.kind;
  const profile = await profileOf(output, reader);
  const fits = { maxLines: limits.maxLines, maxChars: limits.maxChars };
  // A JSON document's record is the element around the match, on one line or many.
  if (kind === "json") return jsonTreeRecord(reader, window, char);
  if (kind === "ndjson") {
    return (
      jsonLineRecord(line, limits.maxChars, true) ?? (await jsonTreeRecord(reader, window, char))
    );
  }
  if (kind === "csv") return profile.csv ? csvRow(window, at, profile.csv) : null;
  // Markup's record is the element its indentation delimits (a table row with its cells), else
  // the paragraph: minified markup has no indentation to go by.
  if (kind === "html" || kind === "xml") {
    const element = await indentedBlock(window, at, fits);
    if (element) return kind === "html" ? withTableHeader(window, element) : element;
    return paragraph(window, at, limits.maxLines);
  }
  if (kind === "markdown") {
    return (
      (await headingSection(window, at, limits.maxLines)) ??
      (await tableRow(window, at)) ??
      (await listItem(window, at)) ??
      (await paragraph(window, at, limits.maxLines))
    );
  }
  const finders = [
    // Lines opening with different field names (`Version: 1.2`, `Maintainer: x`) are the fields
    // of one record, not records: their record is the paragraph (a Debian control file).
    async () =>
      profile.startShape === FIELD_NAME_SHAPE ? fieldParagraph(window, at, fits.maxLines) : null,
    async () => jsonLineRecord(line, limits.maxChars, true),
    async () => (profile.csv ? csvRow(window, at, profile.csv) : null),
    () => tableRow(window, at),
    () => listItem(window, at),
    async () =>
      profile.startShape
        ? logEntry(window, at, profile.startShape, profile.stamp)
        : profile.stamp
          ? stampedEntry(window, at, profile.stamp)
          : null,
    () => ruleSection(window, at),
    async () =>
      largest(await indentedBlock(window, at, fits), await paragraph(window, at, fits.maxLines)),
  ];
  for (const find of finders) {
    const found = await find();
    if (found) return found;
  }
  return null;
}

/** Of two records around the same line, the one that holds more lines. */
function largest(a: FoundRecord | null, b: FoundRecord | null): FoundRecord | null {
  if (!a || !b) return a ?? b;
  return b.last - b.first > a.last - a.first ? b : a;
}

/**
 * The record that holds line `line` (1-based) of an output, and the match at character
 * `charOffset` in it (default: the line's first non-blank character): the enclosing JSON
 * object (array element first) in pretty or minified JSON, the line's object in JSON lines,
 * the innermost list item in YAML, the row with its header's names in CSV and TSV, a log entry
 * with its continuation lines (stack traces), a test runner's failure block, a paragraph; when
 * no structure is found, the line with `context` lines each side (kind `lines`). In Markdown
 * the record also names the heading of the match line's section (`section`).
 *
 * Bounded: at most `maxLines` lines (60) and `maxChars` characters (4,000) are shown; a larger
 * record shows the part around the match and lists the parts left out, each with the slice
 * request that reads it. Only a window around the match is read (at most about 1 MiB of lines
 * and 2 MiB of JSON text), however large the output.
 *
 * @example
 * const hits = await grepOutput(opened, { pattern: "web-1" });
 * const m = hits.matches[0]!;
 * const record = await recordAround(opened, { line: m.line, charOffset: m.matchCharStart });
 * // { kind: "yaml-item", lineStart: 3, lineEnd: 24, text: "- apiVersion: v1\n  kind: Pod\n…", provenance: {…} }
 * if (record.clipped) for (const part of record.clipped.omitted) await readSlice(opened, part.slice);
 */
export async function recordAround(
  output: OpenedOutput,
  at: { readonly line: number; readonly charOffset?: number },
  limits: RecordLimits = {},
): Promise<MatchRecord> {
  const { reader, window, line, char, bounds } = await located(output, at, limits);
  const found =
    (await findRecord(output, reader, window, line, char, bounds)) ??
    (await linesAround(window, line, bounds.context));
  return present(output, reader, window, found, line, char, bounds);
}

/**
 * The record one level out from `inner` (a record `recordAround` gave for the match `at`), of
 * the same structure: the array element (else object) around a JSON element, the list item
 * around a nested list item. `null` when `inner` is outermost or its structure does not nest
 * (a CSV row, a log entry, a JSON line). Shown by the same bounds, around the same match.
 *
 * @example
 * const container = await recordAround(opened, { line: 1146 });       // a pod's container item
 * const pod = await outerRecord(opened, container, { line: 1146 });  // the pod item around it
 */
export async function outerRecord(
  output: OpenedOutput,
  inner: MatchRecord,
  at: { readonly line: number; readonly charOffset?: number },
  limits: RecordLimits = {},
): Promise<MatchRecord | null> {
  const { reader, window, line, char, bounds } = await located(output, at, limits);
  let found: FoundRecord | null = null;
  if (inner.kind === "json-object" && output.record.kind === "json" && inner.charStart > 0)
    found = await jsonTreeRecord(reader, window, inner.charStart - 1);
  else if (inner.kind === "yaml-item") found = await outerListItem(window, inner.lineStart - 1);
  const encloses =
    found !== null &&
    found.charStart <= inner.charStart &&
    found.charEnd >= inner.charEnd &&
    found.charEnd - found.charStart > inner.charEnd - inner.charStart;
  return encloses ? present(output, reader, window, found!, line, char, bounds) : null;
}

/** The reader, the line window and the checked match position and bounds of a record request. */
async function located(
  output: OpenedOutput,
  at: { readonly line: number; readonly charOffset?: number },
  limits: RecordLimits,
) {
  const reader = textReaderOf(output, "grep");
  const id = output.record.id;
  if (reader.totalLines === 0)
    throw new InvalidRangeError("line", at.line, "none: the output is empty", id);
  const line = intArg("line", at.line, 1, 1, reader.totalLines, id) - 1;
  const bounds = {
    maxLines: intArg("maxLines", limits.maxLines, DEFAULT_RECORD_LIMITS.maxLines, 1, 100_000),
    maxChars: intArg("maxChars", limits.maxChars, DEFAULT_RECORD_LIMITS.maxChars, 20, 10_000_000),
    context: intArg("context", limits.context, DEFAULT_RECORD_LIMITS.context, 0, 20),
  };
  const window = new LineWindow(output, reader, SCAN_CHARS);
  const info = await window.line(line);
  if (!info) throw new InvalidRangeError("line", at.line, `1..${reader.totalLines}`, id);
  const lead = info.text.length - info.text.trimStart().length;
  const char = intArg(
    "charOffset",
    at.charOffset,
    info.start + lead,
    info.start,
    reader.totalChars,
    id,
  );
  // Checked through the index: a line of 50 MB is not read to its end for this.
  if ((await reader.positionAtChar(char)).line !== line) {
    throw new InvalidRangeError("charOffset", at.charOffset, `an offset on line ${at.line}`, id);
  }
  return { reader, window, line, char, bounds };
}

/** The fallback record: the match line with `context` lines each side. */
async function linesAround(
  window: LineWindow,
  line: number,
  context: number,
): Promise<FoundRecord> {
  const first = Math.max(0, line - context);
  const last = Math.min(window.totalLines - 1, line + context);
  const found = await spanOf(window, "lines", first, last);
  if (found) return found;
  return (await spanOf(window, "lines", line, line))!;
}

/**
 * Reads the part of the record to show, with provenance, what was left out, CSV names, and in
 * Markdown the heading of the match line's section.
 */
async function present(
  output: OpenedOutput,
  reader: TextReader,
  window: LineWindow,
  record: FoundRecord,
  line: number,
  char: number,
  limits: Required<RecordLimits>,
): Promise<MatchRecord> {
  const found =
    output.record.kind === "markdown" ? await withSection(window, record, line) : record;
  const shown = await shownPart(window, found, line, char, limits);
  const range = await reader.readChars(shown.start, shown.end);
  const omitted = await omittedParts(window, found, {
    ...shown,
    start: range.start.char,
    end: range.end.char,
  });
  const clipped = omitted.length > 0;
  // A part outside the shown range (a header row, a section heading), with its provenance.
  const part = async (span: { readonly charStart: number; readonly charEnd: number }) => {
    const read = await reader.readChars(span.charStart, span.charEnd);
    return { text: read.text, provenance: provenanceOf(output, read) };
  };
  const header = found.header
    ? { ...(await part(found.header)), names: found.header.names }
    : undefined;
  const section = found.section ? await part(found.section) : undefined;
  return {
    kind: found.kind,
    lineStart: found.first + 1,
    lineEnd: found.last + 1,
    charStart: found.charStart,
    charEnd: found.charEnd,
    text: range.text,
    provenance: provenanceOf(output, range),
    ...(clipped ? { clipped: { omitted } } : {}),
    ...(header ? { header } : {}),
    ...(section ? { section } : {}),
    ...(found.fields && !clipped ? { fields: found.fields } : {}),
  };
}

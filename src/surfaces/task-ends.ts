/**
 * The ends of the lines alike to the task search's best (SW-44 in docs/architecture.md). The
 * search ranks lines by their words and their length; lines holding the same words of the task
 * differ, for the task, only in where they stand in the output. A question about place (the
 * first, the last, the latest, in any language) is not answered by the few best-scored of many
 * such lines, so the handle message says how many lines hold the best line's words and shows the
 * first and the last of them in the output's order.
 */
import { clipText } from "../core/clip-text.js";
import type { MatchRecord } from "../retrieval/record-types.js";
import { recordAround } from "../retrieval/records.js";
import { type SearchMatch, searchOutput } from "../retrieval/search.js";
import type { OpenedOutput, OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { isBareSearchRecord, searchMatchAt } from "./get-tool-output/match-records.js";

/** Alike lines counted, at most: past it the message says "at least". */
const COUNTED = 100;
/**
 * An end is shown inside its record when the record fits these bounds (a table row with its
 * column names, a short log entry); a larger one would cost more than the line it explains.
 */
const END_RECORD = { maxLines: 12, maxChars: 600 } as const;
/** Characters of a section title named beside an end. */
const SECTION_CHARS = 120;

/** One end: its line, and its record when that is small enough to show whole. */
export interface AlikeEnd {
  readonly match: SearchMatch;
  readonly record?: MatchRecord;
}

/** The lines holding every task word the best line holds: how many, the first and the last. */
export interface AlikeEnds {
  /** The best line, whose words the others hold. */
  readonly bestLine: number;
  /** Lines holding all of them (at least this many when `more`). */
  readonly count: number;
  readonly more: boolean;
  readonly first: AlikeEnd;
  readonly last: AlikeEnd;
}

/** An end with its record, when that adds to the line and is small enough to show whole. */
async function endOf(opened: OpenedOutput, match: SearchMatch): Promise<AlikeEnd> {
  const at = searchMatchAt(match);
  const record = await recordAround(
    opened,
    { line: at.line, charOffset: at.matchCharStart },
    END_RECORD,
  ).catch(() => undefined);
  if (!record || isBareSearchRecord(record, match)) return { match };
  return { match, record };
}

/**
 * The first and the last line, in the output's order, holding every task word `best` holds
 * (the search's `coverage` ranking: lines holding the same words tie, and keep the output's
 * order). None when `best` holds no word, when no other line holds them all, or when the search
 * stopped short of the whole output (its ends would not be the output's).
 *
 * @example
 * await alikeEnds(outputs, record, scope, best, 500);
 * // { bestLine: 160, count: 9, more: false, first: { match: { line: 42, … }, record: { kind: "csv-row", … } }, last: { match: { line: 517, … } } }
 */
export async function alikeEnds(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  best: SearchMatch,
  maxLineChars: number,
): Promise<AlikeEnds | undefined> {
  const words = [...new Set(best.terms)];
  if (words.length === 0) return undefined;
  const opened = await outputs.open(record.id, scope);
  try {
    const request = { query: words.join(" "), ranking: "coverage" as const, maxLineChars };
    const found = await searchOutput(opened, { ...request, maxResults: COUNTED });
    const top = found.matches[0];
    if (!top || found.stopped || found.candidatesDropped > 0) return undefined;
    if (new Set(top.terms).size < words.length) return undefined;
    const alike = found.matches.filter((m) => m.score === top.score);
    if (alike.length < 2) return undefined;
    const more = alike.length === COUNTED;
    const last = more
      ? (await searchOutput(opened, { ...request, maxResults: 1, latestFirst: true })).matches[0]
      : alike.at(-1);
    if (!last) return undefined;
    return {
      bestLine: best.line,
      count: alike.length,
      more,
      first: await endOf(opened, top),
      last: await endOf(opened, last),
    };
  } finally {
    await opened.close();
  }
}

/** How the message renders a line, and a record with the line found in it. */
export interface EndRows {
  readonly line: (match: SearchMatch) => string;
  readonly record: (record: MatchRecord, foundLine: number) => string[];
}

/**
 * An end as the message shows it: inside its record when that is whole; else its line, and the
 * section it is in when the output has sections (a document's heading names what a line is part of).
 */
function endRows(end: AlikeEnd, rows: EndRows): string[] {
  const { match, record } = end;
  if (record && !record.clipped) return rows.record(record, match.line);
  const section = record?.section;
  const under = section
    ? [
        `    (in the section under line ${section.provenance.lineStart}: ${clipText(section.text.trim(), SECTION_CHARS, { sayLength: true })})`,
      ]
    : [];
  return [rows.line(match), ...under];
}

/**
 * The message lines naming the alike lines' ends, with those ends not already shown (`shown`
 * holds the lines the message shows); none when both are shown.
 *
 * @example
 * endsLines(ends, new Set([160]), rows);
 * // ["9 lines hold the words of your task that line 160 holds; in the output's order the first of them is line 42, the last line 517:", "  42| …", "  517| …"]
 */
export function endsLines(ends: AlikeEnds, shown: ReadonlySet<number>, rows: EndRows): string[] {
  const unseen = [ends.first, ends.last].filter((end) => !shown.has(end.match.line));
  if (unseen.length === 0) return [];
  const count = `${ends.more ? "At least " : ""}${ends.count.toLocaleString("en-US")}`;
  return [
    `${count} lines hold the words of your task that line ${ends.bestLine} holds; in the output's order the first of them is line ${ends.first.match.line}, the last line ${ends.last.match.line}:`,
    ...unseen.flatMap((end) => endRows(end, rows)),
  ];
}

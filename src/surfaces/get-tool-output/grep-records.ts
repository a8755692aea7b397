/**
 * A grep's matches shown inside their records (SW-11): the JSON object, YAML item, CSV row, log
 * entry or failure block around each match, each record once however many of its lines
 * matched, as many as fit the read's budget; the rest is one continuation call away, and a
 * record over its limits names the exact slices of what it left out.
 */
import type { GrepMatch, GrepResult } from "../../retrieval/grep.js";
import type { MatchRecord } from "../../retrieval/record-types.js";
import type { OpenedOutput } from "../../store/output-store.js";
import {
  grepHeader,
  grepLines,
  grepStoppedFooter,
  grepWindowedNote,
  renderGrep,
} from "../render.js";
import type { SurfaceContext } from "../surface.js";
import { groupInRecords, type RecordGroup, recordBody, recordHeader } from "./match-records.js";
import { withOpened } from "./read.js";

/** True when a record says no more than the match line (and its context) would. */
function isBare(record: MatchRecord, match: GrepMatch): boolean {
  return (
    record.kind === "lines" ||
    (!record.fields && !record.clipped && !match.clipped && record.text === match.text)
  );
}

function blockOf(id: string, group: RecordGroup<GrepMatch>): string {
  if (!group.record) return grepLines(group.matches[0]!);
  const marks = new Map(group.matches.map((m) => [m.line, m.column]));
  return `${recordHeader(id, group.record)}\n${recordBody(group.record, marks)}`;
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
  const { groups, shown: shownMatches } = await groupInRecords(opened, result.matches, {
    at: (m) => m,
    bare: isBare,
    text: (group) => blockOf(id, group),
    maxChars,
  });
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
  if (shownMatches === result.matches.length && result.stoppedAtLine !== null) {
    footer = grepStoppedFooter(result, continueCall);
  } else if (
    last &&
    lastMatch &&
    (shownMatches < result.matches.length || result.nextCursor !== null)
  ) {
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
 * budget; sessions with the compatibility texts and empty results keep the plain grep lines.
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
  if (context.compatibilityTexts || result.matches.length === 0)
    return renderGrep(result, context.maxChars, continueCall);
  return withOpened(id, context, (opened) =>
    renderGrepRecords(result, opened, context.maxChars, continueCall),
  );
}

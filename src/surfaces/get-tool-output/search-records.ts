/**
 * A search's lines shown inside their records, as grep shows its matches (SW-11): the JSON
 * object, YAML item, CSV row with its header's names, log entry or failure block a ranked line
 * belongs to, best first, each record once, as many as fit the read's budget.
 */
import type { SearchMatch, SearchResult } from "../../retrieval/search.js";
import type { OpenedOutput } from "../../store/output-store.js";
import { leftNote, matching, matchRow, notes } from "../render-search.js";
import {
  groupInRecords,
  isBareSearchRecord,
  type RecordGroup,
  recordBody,
  recordHeader,
  searchMatchAt,
} from "./match-records.js";

const n = (value: number) => value.toLocaleString("en-US");

function blockOf(id: string, group: RecordGroup<SearchMatch>): string {
  if (!group.record) return matchRow(group.matches[0]!);
  const marks = new Map<number, null>(group.matches.map((m) => [m.line, null]));
  return `${recordHeader(id, group.record)}\n${recordBody(group.record, marks)}`;
}

/**
 * One output's search with each ranked line inside its record, as many as fit `maxChars` (at
 * least one): a line of a record already shown is marked in it, not shown again.
 *
 * @example
 * await renderSearchRecords(result, opened, 8_000);
 * // '[out_1 search "web-1 image": 3 matching lines (…); showing the best 3 in 1 record · LINE: text]\n[record: list item, lines 3-31]\n3- - apiVersion: v1\n…'
 */
export async function renderSearchRecords(
  result: SearchResult,
  opened: OpenedOutput,
  maxChars: number,
): Promise<string> {
  const id = result.outputId;
  const head = `[${id} search ${JSON.stringify(result.query)}: `;
  const searched = `lines 1-${n(result.searchedLines)} of ${n(result.totalLines)}`;
  if (result.matches.length === 0) {
    const words = result.terms.map((t) => t.term).join(", ");
    return [`${head}no line holds these words: ${words}]`, ...notes(result, searched)].join("\n");
  }
  const { groups, shown } = await groupInRecords(opened, result.matches, {
    at: searchMatchAt,
    bare: isBareSearchRecord,
    text: (group) => blockOf(id, group),
    maxChars,
  });
  const records = groups.filter((g) => g.record).length;
  const inRecords = records > 0 ? ` in ${n(records)} record${records === 1 ? "" : "s"}` : "";
  const header = `${head}${matching(result)}; showing the best ${n(shown)}${inRecords} · LINE: text]`;
  return [
    header,
    ...groups.map((g) => blockOf(id, g)),
    ...leftNote(result.matches.length - shown),
    ...notes(result, searched),
  ].join("\n");
}

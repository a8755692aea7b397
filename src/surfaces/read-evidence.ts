import { taskTerms } from "./task-terms.js";

/** Characters of evidence the final turn's notice restates, all lines together. */
export const MAX_EVIDENCE_CHARS = 1_500;
/** Lines kept on each side of a line that names a task term (a grep's usual context). */
const NEIGHBOURS = 2;
/** A longer line is cut: evidence points at a place, the tool result holds the whole line. */
const MAX_LINE_CHARS = 300;

/** A numbered line of a read: `158:14: text` (a grep match), `157- text` (context), `158: text`. */
const NUMBERED = /^\s*(\d+)(?::\d+:|[-:])\s/;

/** Read evidence: the task's terms that the lines name, and the lines. */
export interface ReadEvidence {
  readonly terms: readonly string[];
  readonly lines: readonly string[];
}

/**
 * The lines of the session's reads that name one of the task's identifiers (`evt_ntngab003`, a
 * quoted phrase), each with its neighbours (inside a JSON object a grep showed whole, the whole
 * object), most recent read first, deduplicated, cut at
 * MAX_EVIDENCE_CHARS. The final turn's notice restates them under the task: the 1.5B local
 * model grepped the event's line, was shown `refund_ref=ANS-R8P71E` three times, and then
 * reported a decoy from the first lines of the output's handle message.
 *
 * @example
 * readEvidence("Which refund has evt_1?", ['[out_1 grep "evt_1": 1 matching line]\n158:22: event=evt_1 refund_ref=ANS-7']);
 * // { terms: ["evt_1"], lines: ["158:22: event=evt_1 refund_ref=ANS-7"] }
 */
export function readEvidence(taskText: string, reads: readonly string[]): ReadEvidence {
  const terms = taskTerms(taskText);
  const kept: string[] = [];
  // The same line read twice (a grep match, then a slice's line) is kept once.
  const seen = new Set<string>();
  const named = new Set<string>();
  let used = 0;
  const result = () => ({ terms: terms.filter((t) => named.has(t)), lines: kept });
  if (terms.length === 0) return result();
  for (const read of [...reads].reverse()) {
    const lines = read.split("\n");
    const blocks = recordBlocks(lines);
    const picked = new Set<number>();
    lines.forEach((line, i) => {
      if (!NUMBERED.test(line)) return;
      const hit = terms.filter((t) => line.includes(t));
      if (hit.length === 0) return;
      for (const t of hit) named.add(t);
      // A line inside a JSON object shown whole brings the whole object (the field asked about
      // may be 20 lines below the id); any other line, its neighbours.
      const [from, to] = blocks.get(i) ?? [
        Math.max(0, i - NEIGHBOURS),
        Math.min(lines.length - 1, i + NEIGHBOURS),
      ];
      for (let j = from; j <= to; j++) if (NUMBERED.test(lines[j]!)) picked.add(j);
    });
    for (const i of [...picked].sort((a, b) => a - b)) {
      const line = lines[i]!;
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
      const key = `${NUMBERED.exec(line)![1]} ${line.replace(NUMBERED, "")}`;
      if (seen.has(key)) continue;
      if (used + shown.length > MAX_EVIDENCE_CHARS) return result();
      seen.add(key);
      kept.push(shown);
      used += shown.length + 1;
    }
  }
  return result();
}

/** The header of the record a grep shows a match inside (get_tool_output/grep-records.ts). */
const RECORD_HEADER = /^\[record: .*\]$/;

/** For each line inside a shown JSON object, the first and last index of the object's lines. */
function recordBlocks(lines: readonly string[]): Map<number, readonly [number, number]> {
  const blocks = new Map<number, readonly [number, number]>();
  for (let i = 0; i < lines.length; i++) {
    if (!RECORD_HEADER.test(lines[i]!)) continue;
    let end = i + 1;
    while (end < lines.length && NUMBERED.test(lines[end]!)) end++;
    const range = [i + 1, end - 1] as const;
    for (let j = i + 1; j < end; j++) blocks.set(j, range);
    i = end - 1;
  }
  return blocks;
}

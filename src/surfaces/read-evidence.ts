import { MAX_QUERY_TERMS } from "../retrieval/search.js";
import { queryTerms, termsOf } from "../retrieval/search-terms.js";

/** Characters of evidence the final turn's notice restates, all lines together. */
export const MAX_EVIDENCE_CHARS = 1_500;
/** Lines kept on each side of a line that names a task term (a grep's usual context). */
const NEIGHBOURS = 2;
/** A longer line is cut: evidence points at a place, the tool result holds the whole line. */
const MAX_LINE_CHARS = 300;

/**
 * A numbered line of a read: `158:14: text` (a grep match), `157- text` (context), `158: text`,
 * or of a handle message: `158| text`.
 */
const NUMBERED = /^\s*(\d+)(?::\d+:|[-:|])\s/;

/** Read evidence: the task's terms that the lines name, and the lines. */
export interface ReadEvidence {
  readonly terms: readonly string[];
  readonly lines: readonly string[];
}

/**
 * The lines of the session's reads, and of its handle messages, that hold the task's words (as
 * `mode="search"` cuts words: any script, case and separators aside, common words left out),
 * best first: a line's score is the sum of its task words' rarity among the lines found, so the
 * line that holds the rare word the task named comes before the many that hold a common one. A
 * read's line comes with its neighbours (inside a JSON object a grep showed whole, the whole
 * object); a handle message's line alone. Deduplicated, cut at MAX_EVIDENCE_CHARS. The final
 * turn's notice restates them under the task, so the report is written next to what the session
 * showed, compacted turns included (SW-27).
 *
 * @example
 * readEvidence("Which refund has evt_1?", ['[out_1 grep "evt_1": 1 matching line]\n158:22: event=evt_1 refund_ref=ANS-7']);
 * // { terms: ["evt", "1"], lines: ["158:22: event=evt_1 refund_ref=ANS-7"] }
 */
export function readEvidence(
  taskText: string,
  reads: readonly string[],
  handleMessages: readonly string[] = [],
): ReadEvidence {
  const taskTerms = queryTerms(taskText, MAX_QUERY_TERMS).terms;
  const empty = { terms: [], lines: [] };
  if (taskTerms.length === 0) return empty;
  // Every numbered line of every read (latest read first), then of every handle message, with
  // the task words it holds. A handle message's lines are the output's lines one by one (the
  // line above another may be a thousand lines away): each stands alone, without neighbours.
  const rows: { index: number; lines: string[]; hit: string[]; alone: boolean }[] = [];
  const counts = new Map<string, number>();
  const texts = [
    ...[...reads].reverse().map((text) => ({ text, alone: false })),
    ...[...handleMessages].reverse().map((text) => ({ text, alone: true })),
  ];
  for (const { text, alone } of texts) {
    const lines = text.split("\n");
    lines.forEach((line, index) => {
      if (!NUMBERED.test(line)) return;
      const held = new Set(termsOf(line.replace(NUMBERED, "")));
      const hit = taskTerms.filter((t) => held.has(t));
      for (const t of hit) counts.set(t, (counts.get(t) ?? 0) + 1);
      if (hit.length > 0) rows.push({ index, lines, hit, alone });
    });
  }
  if (rows.length === 0) return empty;
  const total = rows.length;
  const weight = (t: string) => Math.log(1 + total / (counts.get(t) ?? 1));
  const score = (hit: string[]) => hit.reduce((sum, t) => sum + weight(t), 0);
  const ranked = rows
    .map((row, order) => ({ ...row, order, score: score(row.hit) }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const kept: string[] = [];
  const seen = new Set<string>();
  const named = new Set<string>();
  let used = 0;
  for (const row of ranked) {
    const blocks = recordBlocks(row.lines);
    const [from, to] = row.alone
      ? [row.index, row.index]
      : (blocks.get(row.index) ?? [
          Math.max(0, row.index - NEIGHBOURS),
          Math.min(row.lines.length - 1, row.index + NEIGHBOURS),
        ]);
    const block: string[] = [];
    for (let j = from; j <= to; j++) {
      const line = row.lines[j]!;
      if (!NUMBERED.test(line)) continue;
      const key = `${NUMBERED.exec(line)![1]} ${line.replace(NUMBERED, "")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const text = line.trimStart();
      block.push(text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text);
    }
    const size = block.reduce((sum, line) => sum + line.length + 1, 0);
    if (block.length === 0) continue;
    if (used + size > MAX_EVIDENCE_CHARS) break;
    for (const t of row.hit) named.add(t);
    kept.push(...block);
    used += size;
  }
  return { terms: taskTerms.filter((t) => named.has(t)), lines: kept };
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

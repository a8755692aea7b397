/**
 * Spill to file + preview, as Claude Code does today (Goose and deepagents alike): a large
 * result is written to a file, the model gets its path and the first 2 KB, and reads the file
 * with Read (offset/limit) and Grep (ripgrep). Re-implemented from Claude Code's
 * src/utils/toolResultStorage.ts and its Read and Grep tools.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Episode } from "./episode.js";
import {
  baselineEpisode,
  harnessClock,
  type Prepared,
  prefixBytes,
  type Range,
  utf8,
} from "./prepared.js";
import { answerFrom, type Task } from "./workload.js";

/** Claude Code's tool-result spilling (src/utils/toolResultStorage.ts), and its Read and Grep. */
const SPILL_THRESHOLD_CHARS = 50_000;
const PREVIEW_BYTES = 2_000;
const READ_MAX_TOKENS = 25_000;
const READ_MAX_LINE_CHARS = 2_000;
const GREP_MAX_COLUMNS = 500;
const GREP_HEAD_LIMIT = 250;

function sizeLabel(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)}KB`
    : `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** The 2,000-byte preview, cut at the last newline when that keeps more than half. */
function preview(text: string): string {
  const head = prefixBytes(text, PREVIEW_BYTES);
  const newline = head.lastIndexOf("\n");
  return newline > head.length / 2 ? head.slice(0, newline) : head;
}

function lineText(p: Prepared, line: number): { text: string; start: number; end: number } {
  const starts = p.lineStarts;
  const start = starts[line - 1]!;
  const next = line < starts.length ? starts[line]! - 1 : p.workload.text.length;
  return { text: p.workload.text.slice(start, next), start, end: next };
}

/** ripgrep in content mode with -n and --max-columns 500, as Claude Code's Grep runs it. */
function grep(
  p: Prepared,
  pattern: RegExp,
  before: number,
  after: number,
): { text: string; ranges: Range[]; firstLine: number | null } {
  const lines = p.lineStarts.length;
  const hits: number[] = [];
  const text = p.workload.text;
  const global = new RegExp(pattern.source, "g");
  for (let m = global.exec(text); m; m = global.exec(text)) {
    // The 1-based line of the match, by binary search over line starts.
    let lo = 0;
    let hi = lines - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (p.lineStarts[mid]! <= m.index) lo = mid;
      else hi = mid - 1;
    }
    if (hits.at(-1) !== lo + 1) hits.push(lo + 1);
    global.lastIndex = p.lineStarts[lo + 1] ?? text.length;
  }
  if (hits.length === 0) return { text: "No matches found", ranges: [], firstLine: null };
  const out: string[] = [];
  const ranges: Range[] = [];
  let lastPrinted = 0;
  for (const hit of hits) {
    const from = Math.max(1, hit - before, lastPrinted + 1);
    const to = Math.min(lines, hit + after);
    if (lastPrinted > 0 && from > lastPrinted + 1) out.push("--");
    for (let n = from; n <= to; n++) {
      const line = lineText(p, n);
      const isHit = hits.includes(n);
      if (utf8(line.text) > GREP_MAX_COLUMNS) {
        out.push(
          isHit ? `${n}:[Omitted long line with 1 matches]` : `${n}-[Omitted long context line]`,
        );
      } else {
        out.push(`${n}${isHit ? ":" : "-"}${line.text}`);
        ranges.push([line.start, line.end]);
      }
    }
    lastPrinted = to;
    if (out.length >= GREP_HEAD_LIMIT) break;
  }
  const shown = out.slice(0, GREP_HEAD_LIMIT);
  const footer =
    out.length > GREP_HEAD_LIMIT
      ? `\n\n[Showing results with pagination = limit: ${GREP_HEAD_LIMIT}]`
      : "";
  return { text: shown.join("\n") + footer, ranges, firstLine: hits[0]! };
}

/** Claude Code's Read: `N\tline` for lines offset..offset+limit-1; over 25,000 tokens an error. */
function readLines(
  p: Prepared,
  offset: number,
  limit: number,
  count: (text: string) => number,
): { text: string; ranges: Range[] } {
  const from = Math.max(1, offset);
  const to = Math.min(p.lineStarts.length, from + limit - 1);
  const out: string[] = [];
  const ranges: Range[] = [];
  for (let n = from; n <= to; n++) {
    const line = lineText(p, n);
    // Read's documented rule: "Any lines longer than 2000 characters will be truncated".
    const shown = line.text.slice(0, READ_MAX_LINE_CHARS);
    ranges.push([line.start, line.start + shown.length]);
    out.push(`${n}\t${shown}`);
  }
  const text = out.join("\n");
  // A read far over the cap is refused without counting it exactly (the output's own
  // characters-per-token gives the figure the error names).
  const rate = p.outputTokens / Math.max(1, p.workload.text.length);
  const tokens = text.length > READ_MAX_TOKENS * 8 ? Math.round(text.length * rate) : count(text);
  if (tokens > READ_MAX_TOKENS) {
    return {
      text: `File content (${tokens} tokens) exceeds maximum allowed tokens (${READ_MAX_TOKENS}). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.`,
      ranges: [],
    };
  }
  return { text, ranges };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Lines of context a competent model asks grep for, by where the answer sits near the cue. */
function grepContext(task: Task): { before: number; after: number } {
  if (task.position === "end-error") return { before: 3, after: 0 };
  if (task.kind === "json-pretty") return { before: 0, after: 30 };
  return { before: 1, after: 1 };
}

/**
 * Spill to file + 2 KB preview (Claude Code today; Goose and deepagents alike): a result over
 * 50,000 characters is written to a file and the model gets the preview; it then greps the file
 * and reads the lines around the match.
 */
export async function runSpillPolicy(p: Prepared, dir: string): Promise<Episode[]> {
  const text = p.workload.text;
  const episodes: Episode[] = [];
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${p.workload.id.replace("/", "-")}.txt`);
  for (const task of p.workload.tasks) {
    const clock = harnessClock(p);
    if (text.length <= SPILL_THRESHOLD_CHARS) {
      episodes.push(
        baselineEpisode("spill-to-file", task, p, {
          answer: answerFrom(task, text),
          tokens: clock.count(text),
          calls: 0,
          wallMs: clock.elapsed(),
          ranges: [[0, text.length]],
          failure: null,
        }),
      );
      continue;
    }
    await writeFile(path, text);
    const shownPreview = preview(text);
    const message = `<persisted-output>\nOutput too large (${sizeLabel(p.workload.bytes)}). Full output saved to: ${path}\n\nPreview (first 2KB):\n${shownPreview}\n...\n</persisted-output>`;
    let tokens = clock.count(message);
    const ranges: Range[] = [[0, shownPreview.length]];
    let calls = 0;
    let answer = answerFrom(task, message);
    let spillFailure = "the answer was never visible";
    if (!answer) {
      calls++;
      const pattern =
        task.search.regex && !task.search.literal
          ? new RegExp(task.search.regex)
          : new RegExp(escapeRegex(task.search.literal!));
      const context = grepContext(task);
      const found = grep(p, pattern, context.before, context.after);
      tokens += clock.count(found.text);
      ranges.push(...found.ranges);
      answer = answerFrom(task, found.text);
      if (found.text.includes("[Omitted long line"))
        spillFailure = "grep omits lines over 500 columns";
      if (!answer && found.firstLine !== null) {
        calls++;
        const read = readLines(p, found.firstLine - context.before, 40, clock.count);
        tokens += clock.count(read.text);
        ranges.push(...read.ranges);
        answer = answerFrom(task, read.text);
        if (read.text.startsWith("File content ("))
          spillFailure = `${spillFailure}; Read refuses more than ${READ_MAX_TOKENS.toLocaleString("en-US")} tokens`;
        else if (read.ranges.some(([a, b]) => b - a === READ_MAX_LINE_CHARS))
          spillFailure = `${spillFailure}; Read cuts lines at ${READ_MAX_LINE_CHARS.toLocaleString("en-US")} characters`;
      }
    }
    episodes.push(
      baselineEpisode("spill-to-file", task, p, {
        answer,
        tokens,
        calls,
        wallMs: clock.elapsed(),
        ranges,
        failure: answer ? null : spillFailure,
      }),
    );
  }
  await rm(path, { force: true });
  return episodes;
}

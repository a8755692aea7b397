/**
 * What peers show the model, re-implemented from their sources (see eval/POLICIES.md), and a
 * competent scripted agent for each: it answers from what it saw, greps when it has grep, reads
 * lines when it has a reader, pages forward when it only has paging.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { estimateTokens } from "../src/core/tokens.js";
import { continuationMarker } from "../src/surfaces/get-continuation.js";
import { coveredFraction, type Episode, type PolicyName, TOOL_RESULT_BUDGET } from "./episode.js";
import { answerFrom, type Task, type Workload } from "./workload.js";

type Range = readonly [number, number];

/** A workload prepared once for every baseline: exact token counts, line starts. */
export interface Prepared {
  readonly workload: Workload;
  readonly outputTokens: number;
  /** Character offset where each line starts. */
  readonly lineStarts: readonly number[];
  readonly count: (text: string) => number;
}

/** Outputs longer than this are measured by the store's sampled estimate (within about 1%). */
export const EXACT_OUTPUT_TOKENS_MAX_CHARS = 8_000_000;

/**
 * Prepares a workload for the baselines. The output's own token count is exact up to 8 M
 * characters and the store's sampled estimate above (exact counting of 50 MB takes about a
 * minute per output; every 50 MB output is far over every cap either way). Tokens exposed are
 * always exact.
 */
export async function prepare(
  workload: Workload,
  count: (text: string) => number,
): Promise<Prepared> {
  const starts = [0];
  const text = workload.text;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  if (starts.at(-1) === text.length && text.length > 0) starts.pop();
  const outputTokens =
    text.length <= EXACT_OUTPUT_TOKENS_MAX_CHARS
      ? count(text)
      : (await estimateTokens(text)).tokens;
  return { workload, outputTokens, lineStarts: starts, count };
}

const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

/** The longest prefix of `text` of at most `bytes` UTF-8 bytes, on a character boundary. */
function prefixBytes(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  const head = Buffer.from(text.slice(0, bytes), "utf8").subarray(0, bytes).toString("utf8");
  return head.endsWith("\uFFFD") ? head.slice(0, -1) : head;
}

/** The longest suffix of `text` of at most `bytes` UTF-8 bytes, on a character boundary. */
function suffixBytes(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  const buffer = Buffer.from(text.slice(-bytes), "utf8");
  const tail = buffer.subarray(Math.max(0, buffer.length - bytes)).toString("utf8");
  return tail.startsWith("\uFFFD") ? tail.slice(1) : tail;
}

/** A single-view policy: what the model sees in place of the output, and what of it is visible. */
interface View {
  readonly text: string;
  readonly ranges: readonly Range[];
  readonly failure: string | null;
}

const CODEX_MAX_BYTES = 10 * 1024;
const CODEX_MAX_LINES = 256;

/**
 * Codex CLI (openai/codex, codex-rs/core/src/truncate.rs @02080945): over 10 KiB or 256 lines,
 * `Total output lines: N`, the first 128 and last 128 lines around an omission marker, the head
 * clipped to 5 KiB and the tail filling the rest of 10 KiB, on character boundaries.
 */
function codexView(p: Prepared): View {
  const text = p.workload.text;
  const total = text.length;
  const lines = p.lineStarts.length;
  if (utf8(text) <= CODEX_MAX_BYTES && lines <= CODEX_MAX_LINES)
    return { text, ranges: [[0, total]], failure: null };
  const half = CODEX_MAX_LINES / 2;
  const manyLines = lines > CODEX_MAX_LINES;
  const headEnd = manyLines ? p.lineStarts[half]! : total;
  const tailStart = manyLines ? p.lineStarts[lines - half]! : 0;
  const marker = manyLines
    ? `\n[... omitted ${lines - CODEX_MAX_LINES} of ${lines} lines ...]\n\n`
    : `\n[... output truncated to fit ${CODEX_MAX_BYTES} bytes ...]\n\n`;
  const head = prefixBytes(text.slice(0, headEnd), CODEX_MAX_BYTES / 2 - utf8(marker));
  const tail = suffixBytes(text.slice(tailStart), CODEX_MAX_BYTES - utf8(head) - utf8(marker));
  return {
    text: `Total output lines: ${lines}\n\n${head}${marker}${tail}`,
    ranges: [
      [0, head.length],
      [total - tail.length, total],
    ],
    failure: null,
  };
}

const OPENHANDS_MAX_CHARS = 16_000;
const OPENHANDS_NOTICE =
  "<response clipped><NOTE>To save on context only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>";

/** OpenHands (openhands-aci editor/results.py maybe_truncate): the first 16,000 characters + notice. */
function openhandsView(p: Prepared): View {
  const text = p.workload.text;
  if (text.length <= OPENHANDS_MAX_CHARS)
    return { text, ranges: [[0, text.length]], failure: null };
  return {
    text: `${text.slice(0, OPENHANDS_MAX_CHARS)}${OPENHANDS_NOTICE}`,
    ranges: [[0, OPENHANDS_MAX_CHARS]],
    failure: null,
  };
}

const SEED_MAX_BYTES = 12_288;

/** The seed framework's legacy cap (seed 003, "Current behavior"): a 50/50 byte split at 12,288 bytes. */
function seedView(p: Prepared): View {
  const text = p.workload.text;
  const bytes = utf8(text);
  if (bytes <= SEED_MAX_BYTES) return { text, ranges: [[0, text.length]], failure: null };
  const head = prefixBytes(text, SEED_MAX_BYTES / 2);
  const tail = suffixBytes(text, SEED_MAX_BYTES / 2);
  return {
    text: `${head}\n[... ${bytes - utf8(head) - utf8(tail)} bytes truncated ...]\n${tail}`,
    ranges: [
      [0, head.length],
      [text.length - tail.length, text.length],
    ],
    failure: null,
  };
}

const CLAUDE_MCP_MAX_TOKENS = 25_000;

/** Claude Code before result spilling: an MCP result over 25,000 tokens is an error, nothing else. */
function claudeMcpView(p: Prepared): View {
  const text = p.workload.text;
  if (p.outputTokens <= CLAUDE_MCP_MAX_TOKENS)
    return { text, ranges: [[0, text.length]], failure: null };
  return {
    text: `MCP tool "data__fetch" response (${p.outputTokens} tokens) exceeds maximum allowed tokens (${CLAUDE_MCP_MAX_TOKENS}). Please use pagination, filtering, or limit parameters to reduce the response size.`,
    ranges: [],
    failure: `error instead of the output (over ${CLAUDE_MCP_MAX_TOKENS.toLocaleString("en-US")} tokens)`,
  };
}

/** Raw passthrough: the whole output, or a request that cannot fit the context window. */
function rawView(p: Prepared): View {
  const text = p.workload.text;
  if (p.outputTokens <= TOOL_RESULT_BUDGET)
    return { text, ranges: [[0, text.length]], failure: null };
  return { text: "", ranges: [], failure: "context overflow: the request does not fit the window" };
}

const VIEWS: Partial<Record<PolicyName, (p: Prepared) => View>> = {
  raw: rawView,
  "codex-head-tail": codexView,
  "openhands-head": openhandsView,
  "seed-50-50": seedView,
  "claude-mcp-25k": claudeMcpView,
};

function episode(
  policy: PolicyName,
  task: Task,
  p: Prepared,
  result: {
    answer: string | undefined;
    tokens: number;
    calls: number;
    wallMs: number;
    ranges: readonly Range[];
    failure: string | null;
  },
): Episode {
  const answer = result.answer ?? null;
  return {
    policy,
    taskId: task.id,
    kind: task.kind,
    size: task.size,
    position: task.position,
    correct: answer === task.expected,
    answer,
    tokensExposed: result.tokens,
    outputTokens: p.outputTokens,
    toolCalls: result.calls,
    wallMs: result.wallMs,
    visibleFraction: coveredFraction(result.ranges, p.workload.text.length),
    lossless: null,
    failure: answer === task.expected ? null : (result.failure ?? "the answer was never visible"),
  };
}

/**
 * Plays every task of a workload with a single-view policy: the view is made once (timed), the
 * agent answers from it or not at all.
 */
export function runViewPolicy(policy: PolicyName, p: Prepared): Episode[] {
  const make = VIEWS[policy];
  if (!make) throw new Error(`${policy} is not a single-view policy`);
  const started = performance.now();
  const view = make(p);
  const wallMs = performance.now() - started;
  // A request that does not fit was never seen: it exposes the whole output and answers nothing.
  const tokens = view.failure && policy === "raw" ? p.outputTokens : p.count(view.text);
  return p.workload.tasks.map((task) =>
    episode(policy, task, p, {
      answer: view.text ? answerFrom(task, view.text) : undefined,
      tokens,
      calls: 0,
      wallMs,
      ranges: view.ranges,
      failure: view.failure,
    }),
  );
}

const PAGE_CHARS = 4_000;

/**
 * Seed 002's continuation paging: the first 4,000 characters with the exact marker, then
 * get_continuation(offset) page by page. The agent jumps to the last page when the question is
 * about the end (the marker gives the total), else pages forward until it sees the answer or
 * its context window is full.
 */
export function runPagingPolicy(p: Prepared): Episode[] {
  const text = p.workload.text;
  const total = text.length;
  const page = (offset: number) => {
    const end = Math.min(total, offset + PAGE_CHARS);
    const body = text.slice(offset, end);
    if (end >= total) return { body, shown: body, end };
    return {
      body,
      shown: `${body}\n${continuationMarker("call_1", end, total, offset === 0)}`,
      end,
    };
  };
  return p.workload.tasks.map((task) => {
    const started = performance.now();
    let tokens = 0;
    let calls = 0;
    const ranges: Range[] = [];
    let previous = "";
    let answer: string | undefined;
    let failure: string | null = null;
    const read = (offset: number) => {
      const { body, shown, end } = page(offset);
      tokens += p.count(shown);
      ranges.push([offset, end]);
      // A cue and its answer can straddle two pages: read them as the model would, in order.
      answer = answerFrom(task, previous + body);
      previous = body;
      return end;
    };
    let next = read(0);
    const aboutTheEnd = task.position === "last" || task.position === "end-error";
    if (!answer && aboutTheEnd && next < total) {
      previous = "";
      calls++;
      next = read(Math.max(next, total - PAGE_CHARS));
    }
    while (!answer && next < total) {
      if (tokens >= TOOL_RESULT_BUDGET) {
        failure = "context window full before the answer's page";
        break;
      }
      calls++;
      next = read(next);
    }
    return episode("paging-4000", task, p, {
      answer,
      tokens,
      calls,
      wallMs: performance.now() - started,
      ranges,
      failure,
    });
  });
}

/** Claude Code's tool-result spilling (src/utils/toolResultStorage.ts), and its Read and Grep. */
const SPILL_THRESHOLD_CHARS = 50_000;
const PREVIEW_BYTES = 2_000;
const READ_MAX_TOKENS = 25_000;
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
function readLines(p: Prepared, offset: number, limit: number): { text: string; ranges: Range[] } {
  const from = Math.max(1, offset);
  const to = Math.min(p.lineStarts.length, from + limit - 1);
  const out: string[] = [];
  let start = -1;
  let end = -1;
  for (let n = from; n <= to; n++) {
    const line = lineText(p, n);
    if (start < 0) start = line.start;
    end = line.end;
    out.push(`${n}\t${line.text}`);
  }
  const text = out.join("\n");
  // A read far over the cap is refused without counting it exactly (the output's own
  // characters-per-token gives the figure the error names).
  const rate = p.outputTokens / Math.max(1, p.workload.text.length);
  const tokens = text.length > READ_MAX_TOKENS * 8 ? Math.round(text.length * rate) : p.count(text);
  if (tokens > READ_MAX_TOKENS) {
    return {
      text: `File content (${tokens} tokens) exceeds maximum allowed tokens (${READ_MAX_TOKENS}). Please use offset and limit parameters to read specific portions of the file, or use the GrepTool to search for specific content.`,
      ranges: [],
    };
  }
  return { text, ranges: start < 0 ? [] : [[start, end]] };
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
    const started = performance.now();
    if (text.length <= SPILL_THRESHOLD_CHARS) {
      episodes.push(
        episode("spill-to-file", task, p, {
          answer: answerFrom(task, text),
          tokens: p.count(text),
          calls: 0,
          wallMs: performance.now() - started,
          ranges: [[0, text.length]],
          failure: null,
        }),
      );
      continue;
    }
    await writeFile(path, text);
    const shownPreview = preview(text);
    const message = `<persisted-output>\nOutput too large (${sizeLabel(p.workload.bytes)}). Full output saved to: ${path}\n\nPreview (first 2KB):\n${shownPreview}\n...\n</persisted-output>`;
    let tokens = p.count(message);
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
      tokens += p.count(found.text);
      ranges.push(...found.ranges);
      answer = answerFrom(task, found.text);
      if (found.text.includes("[Omitted long line"))
        spillFailure = "grep omits lines over 500 columns";
      if (!answer && found.firstLine !== null) {
        calls++;
        const read = readLines(p, found.firstLine - context.before, 40);
        tokens += p.count(read.text);
        ranges.push(...read.ranges);
        answer = answerFrom(task, read.text);
        if (read.text.startsWith("File content ("))
          spillFailure = `${spillFailure}; Read refuses more than ${READ_MAX_TOKENS.toLocaleString("en-US")} tokens`;
      }
    }
    episodes.push(
      episode("spill-to-file", task, p, {
        answer,
        tokens,
        calls,
        wallMs: performance.now() - started,
        ranges,
        failure: answer ? null : spillFailure,
      }),
    );
  }
  await rm(path, { force: true });
  return episodes;
}

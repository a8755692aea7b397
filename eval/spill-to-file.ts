/**
 * Spill to file + preview, as Claude Code does today (Goose and deepagents alike): a large
 * result is written to a file, the model gets its path and the first 2 KB, and reads the file
 * with Read (offset/limit) and Grep (ripgrep). Re-implemented from Claude Code's
 * src/utils/toolResultStorage.ts and its Read and Grep tools. This is the "no shell" variant;
 * spill-shell.ts gives the model a shell over the same file.
 */
import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolSpec } from "./agents/conversation.js";
import type { PolicyEnv } from "./drive.js";
import { type Prepared, prefixBytes, type Range, utf8 } from "./prepared.js";

/** Claude Code's tool-result spilling (src/utils/toolResultStorage.ts), and its Read and Grep. */
const SPILL_THRESHOLD_CHARS = 50_000;
const PREVIEW_BYTES = 2_000;
const READ_MAX_TOKENS = 25_000;
const READ_MAX_LINE_CHARS = 2_000;
const GREP_MAX_COLUMNS = 500;
const GREP_HEAD_LIMIT = 250;

/** Claude Code's size label: KB under a MB, MB above, one decimal. */
export function sizeLabel(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)}KB`
    : `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/**
 * Claude Code's message for a result saved to a file: its size, the path and the preview.
 *
 * @example
 * persistedOutputMessage("/tmp/spill/t1.txt", sizeLabel(120_000), "first lines…");
 */
export function persistedOutputMessage(path: string, size: string, shownPreview: string): string {
  return `<persisted-output>\nOutput too large (${size}). Full output saved to: ${path}\n\nPreview (first 2KB):\n${shownPreview}\n...\n</persisted-output>`;
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

/** What a spilling policy shows in place of the output, and the file it wrote. */
export interface Spilled {
  /** The `<persisted-output>` message, or the whole output when it is under the threshold. */
  readonly message: string;
  /** The spilled file (absent when nothing was spilled). */
  readonly path?: string;
  /** The part of the output the message shows. */
  readonly ranges: Range[];
}

/**
 * Spills an output as Claude Code's toolResultStorage.ts does: over 50,000 characters it is
 * written to a file and the model gets `<persisted-output>` with the path and a 2 KB preview.
 */
export async function spillOutput(p: Prepared, dir: string): Promise<Spilled> {
  const text = p.workload.text;
  if (text.length <= SPILL_THRESHOLD_CHARS) return { message: text, ranges: [[0, text.length]] };
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${p.docId}.txt`);
  // Several tasks (and both spilling policies) share one output: write it once.
  const existing = await stat(path).catch(() => undefined);
  if (existing?.size !== p.workload.bytes) await writeFile(path, text);
  const shownPreview = preview(text);
  return {
    message: persistedOutputMessage(path, sizeLabel(p.workload.bytes), shownPreview),
    path,
    ranges: [[0, shownPreview.length]],
  };
}

/** Claude Code's Read and Grep, as the model is offered them (parameters as in their schemas). */
export const READ_GREP_TOOLS: readonly ToolSpec[] = [
  {
    name: "Read",
    description:
      "Reads a file from the local filesystem. Give file_path (absolute); optionally offset (line to start from, 1-based) and limit (number of lines; default 2000). Lines longer than 2000 characters are truncated. Results are returned as `N\\tline`. Reads over 25,000 tokens are refused: use offset and limit, or Grep.",
    parameters: {
      type: "object",
      additionalProperties: false,
      required: ["file_path"],
      properties: {
        file_path: { type: "string", description: "The absolute path to the file to read" },
        offset: { type: "number", description: "The line number to start reading from" },
        limit: { type: "number", description: "The number of lines to read" },
      },
    },
  },
  {
    name: "Grep",
    description:
      'A search tool built on ripgrep. Supports full regex syntax. output_mode "content" shows matching lines (with -n line numbers, -A/-B/-C context); "files_with_matches" (default) shows file paths; "count" shows match counts. head_limit limits the output lines.',
    parameters: {
      type: "object",
      additionalProperties: false,
      required: ["pattern"],
      properties: {
        pattern: { type: "string", description: "The regular expression to search for" },
        path: { type: "string", description: "File or directory to search in" },
        output_mode: { type: "string", enum: ["content", "files_with_matches", "count"] },
        "-B": { type: "number", description: "Lines to show before each match" },
        "-A": { type: "number", description: "Lines to show after each match" },
        "-C": { type: "number", description: "Lines to show before and after each match" },
        "-n": { type: "boolean", description: "Show line numbers" },
        "-i": { type: "boolean", description: "Case insensitive search" },
        head_limit: { type: "number", description: "Limit output to the first N lines" },
      },
    },
  },
];

const int = (value: unknown, fallback: number) =>
  typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.floor(value)) : fallback;

/**
 * Spill to file with Read and Grep over it (no shell), as an environment: the tools run on the
 * spilled text as Claude Code's do (ripgrep -n --max-columns 500, head_limit 250; Read's 2,000
 * character line cut and 25,000-token cap).
 */
export async function spillEnv(
  p: Prepared,
  dir: string,
): Promise<PolicyEnv & { ranges(): Range[] }> {
  const spilled = await spillOutput(p, dir);
  const ranges: Range[] = [...spilled.ranges];
  const wrongFile = (path: unknown) =>
    spilled.path === undefined || (path !== undefined && path !== spilled.path)
      ? `<tool_use_error>File does not exist: ${String(path)}</tool_use_error>`
      : undefined;
  return {
    tools: spilled.path ? READ_GREP_TOOLS : [],
    fetch: async () => spilled.message,
    run: async (tool, args) => {
      if (tool === "Grep") {
        const bad = wrongFile(args.path);
        if (bad) return bad;
        let pattern: RegExp;
        try {
          pattern = new RegExp(String(args.pattern ?? ""), args["-i"] === true ? "i" : "");
        } catch (error) {
          return `<tool_use_error>regex parse error: ${(error as Error).message}</tool_use_error>`;
        }
        if (args.output_mode !== "content") return spilled.path!;
        const context = int(args["-C"], 0);
        const found = grep(p, pattern, int(args["-B"], context), int(args["-A"], context));
        ranges.push(...found.ranges);
        return found.text;
      }
      if (tool === "Read") {
        const bad = wrongFile(args.file_path);
        if (bad) return bad;
        const read = readLines(p, int(args.offset, 1), int(args.limit, 2000), p.count);
        ranges.push(...read.ranges);
        return read.text;
      }
      return `<tool_use_error>No such tool available: ${tool}</tool_use_error>`;
    },
    ranges: () => [...ranges],
  };
}

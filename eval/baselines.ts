/**
 * What peers show the model in place of a large output, re-implemented from their sources (see
 * eval/policy-info.ts), and a competent scripted agent for each: it answers from what it saw,
 * or pages forward when it only has paging. Spill-to-file, with its Read and Grep, is in
 * spill-to-file.ts.
 */
import { continuationMarker } from "../src/surfaces/get-continuation.js";
import { type Episode, type PolicyName, TOOL_RESULT_BUDGET } from "./episode.js";
import {
  baselineEpisode,
  harnessClock,
  type Prepared,
  prefixBytes,
  type Range,
  suffixBytes,
  utf8,
} from "./prepared.js";
import { answerFrom } from "./workload.js";

/** A single-view policy: what the model sees in place of the output, and what of it is visible. */
export interface View {
  readonly text: string;
  readonly ranges: readonly Range[];
  readonly failure: string | null;
}

const CODEX_MAX_BYTES = 10 * 1024;
const CODEX_MAX_LINES = 256;

/**
 * Codex CLI (openai/codex, codex-rs/core/src/truncate.rs @02080945,
 * `format_output_for_model_body`): over 10 KiB or 256 lines, `Total output lines: N`, then the
 * first 128 lines clipped to 5 KiB, a marker (`[... omitted X of N lines ...]`, or `[... output
 * truncated to fit 10240 bytes ...]` when no line was dropped), and the last 128 lines clipped
 * to the rest of 10 KiB, on character boundaries. An output of one long line keeps only its head:
 * its one line is the head, and no line is left for the tail.
 */
function codexView(p: Prepared): View {
  const text = p.workload.text;
  const total = text.length;
  // split_inclusive('\n') segments; equal to lines().count() for these outputs.
  const lines = p.lineStarts.length;
  if (utf8(text) <= CODEX_MAX_BYTES && lines <= CODEX_MAX_LINES)
    return { text, ranges: [[0, total]], failure: null };
  const headTake = Math.min(CODEX_MAX_LINES / 2, lines);
  const tailTake = Math.min(CODEX_MAX_LINES - CODEX_MAX_LINES / 2, lines - headTake);
  const omitted = lines - headTake - tailTake;
  const headEnd = headTake < lines ? p.lineStarts[headTake]! : total;
  const tailStart = tailTake > 0 ? p.lineStarts[lines - tailTake]! : total;
  const marker =
    omitted > 0
      ? `\n[... omitted ${omitted} of ${lines} lines ...]\n\n`
      : `\n[... output truncated to fit ${CODEX_MAX_BYTES} bytes ...]\n\n`;
  const headBudget = Math.min(CODEX_MAX_BYTES / 2, CODEX_MAX_BYTES - utf8(marker));
  const head = prefixBytes(text.slice(0, headEnd), headBudget);
  const remaining = CODEX_MAX_BYTES - utf8(head) - utf8(marker);
  const tail = remaining > 0 ? suffixBytes(text.slice(tailStart), remaining) : "";
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

/**
 * What a single-view policy shows the model in place of the output.
 *
 * @example
 * viewOf("openhands-head", prepared).text.endsWith("</NOTE>"); // true for outputs over 16,000 chars
 */
export function viewOf(policy: PolicyName, p: Prepared): View {
  const make = VIEWS[policy];
  if (!make) throw new Error(`${policy} is not a single-view policy`);
  return make(p);
}

/**
 * Plays every task of a workload with a single-view policy: the view is made once (timed), the
 * agent answers from it or not at all.
 */
export function runViewPolicy(policy: PolicyName, p: Prepared): Episode[] {
  const started = performance.now();
  const view = viewOf(policy, p);
  const wallMs = performance.now() - started;
  // A request that does not fit was never seen: it exposes the whole output and answers nothing.
  const tokens = view.failure && policy === "raw" ? p.outputTokens : p.count(view.text);
  return p.workload.tasks.map((task) =>
    baselineEpisode(policy, task, p, {
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
    const clock = harnessClock(p);
    let tokens = 0;
    let calls = 0;
    const ranges: Range[] = [];
    let previous = "";
    let answer: string | undefined;
    let failure: string | null = null;
    /** Reads a page; false when the request holding it no longer fits the window. */
    const read = (offset: number): boolean => {
      const { body, shown, end } = page(offset);
      tokens += clock.count(shown);
      if (tokens > TOOL_RESULT_BUDGET) {
        failure = "context window full before the answer's page";
        return false;
      }
      ranges.push([offset, end]);
      // A cue and its answer can straddle two pages: read them as the model would, in order.
      answer = answerFrom(task, previous + body);
      previous = body;
      next = end;
      return true;
    };
    let next = 0;
    let fits = read(0);
    const aboutTheEnd = task.position === "last" || task.position === "end-error";
    if (fits && !answer && aboutTheEnd && next < total) {
      previous = "";
      calls++;
      fits = read(Math.max(next, total - PAGE_CHARS));
    }
    while (fits && !answer && next < total) {
      calls++;
      fits = read(next);
    }
    return baselineEpisode("paging-4000", task, p, {
      answer,
      tokens,
      calls,
      wallMs: clock.elapsed(),
      ranges,
      failure,
    });
  });
}

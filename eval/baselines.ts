/**
 * What peers show the model in place of a large output, re-implemented from their sources (see
 * eval/policy-info.ts): the single views (raw, Codex head+tail, OpenHands head, seed 50/50,
 * Claude Code's MCP cap) and continuation paging, each as a policy environment the
 * blind agents (eval/agents/peer-agents.ts) and real models (eval/live.ts) play. Spill-to-file
 * is in spill-to-file.ts (Read/Grep) and spill-shell.ts (a shell).
 */

import { toolInputSchema } from "../src/core/tool-input-schema.js";
import {
  continuationMarker,
  GET_CONTINUATION,
  getContinuationArgs,
} from "../src/surfaces/get-continuation.js";
import type { PolicyEnv } from "./drive.js";
import { type PolicyName, REQUEST_TOKEN_LIMIT } from "./episode.js";
import { type Prepared, prefixBytes, type Range, suffixBytes, utf8 } from "./prepared.js";

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

/** spillway's old byte cap: a 50/50 byte split at 12,288 bytes. */
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

/** Raw passthrough: the whole output, in a request that may not fit the context window. */
function rawView(p: Prepared): View {
  const text = p.workload.text;
  if (p.outputTokens <= REQUEST_TOKEN_LIMIT)
    return { text, ranges: [[0, text.length]], failure: null };
  return { text, ranges: [], failure: "context overflow: the request does not fit the window" };
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

/** A single-view policy as an environment: fetch shows the view; there is nothing else. */
export function viewEnv(policy: PolicyName, p: Prepared): PolicyEnv & { ranges(): Range[] } {
  const view = viewOf(policy, p);
  return {
    tools: [],
    fetch: async () => view.text,
    run: async (tool) => `Error: there is no tool ${tool}.`,
    ranges: () => [...view.ranges],
  };
}

export const PAGE_CHARS = 4_000;

/**
 * Continuation paging as an environment: fetch shows the first 4,000 characters and
 * the exact marker; get_continuation(tool_call_id, offset) shows the next 4,000 from `offset`.
 */
export function pagingEnv(p: Prepared): PolicyEnv & { ranges(): Range[] } {
  const text = p.workload.text;
  const total = text.length;
  const ranges: Range[] = [];
  let fetchId = "";
  const page = (offset: number, first: boolean) => {
    const end = Math.min(total, offset + PAGE_CHARS);
    ranges.push([offset, end]);
    const body = text.slice(offset, end);
    return end >= total ? body : `${body}\n${continuationMarker(fetchId, end, total, first)}`;
  };
  return {
    tools: [
      {
        name: GET_CONTINUATION,
        description:
          "Retrieve the next chunk of a truncated tool result. Use when a previous tool result shows [truncated].",
        parameters: toolInputSchema(getContinuationArgs),
      },
    ],
    fetch: async (callId) => {
      fetchId = callId;
      return page(0, true);
    },
    run: async (tool, args) => {
      if (tool !== GET_CONTINUATION) return `Error: there is no tool ${tool}.`;
      const parsed = getContinuationArgs.safeParse(args);
      if (!parsed.success || parsed.data.tool_call_id !== fetchId)
        return JSON.stringify({ error: `Unknown tool_call_id: ${String(args.tool_call_id)}` });
      const offset = parsed.data.offset ?? PAGE_CHARS;
      if (offset < 0 || offset > total)
        return JSON.stringify({
          error: `offset ${offset} is past the end of the result (${total} chars)`,
        });
      return page(offset, false);
    },
    ranges: () => [...ranges],
  };
}

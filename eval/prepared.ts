/**
 * A workload prepared once for every baseline (token count, line starts), the byte-exact cuts
 * peers make, and the episode record every baseline writes.
 */
import { createHash } from "node:crypto";
import { estimateTokens } from "../src/core/tokens.js";
import type { DriveResult } from "./drive.js";
import { coveredFraction, type Episode, type PolicyName, scoredEpisode } from "./episode.js";
import { memoCounter } from "./request-tokens.js";
import type { Task, Workload } from "./workload.js";

/** A character range [start, end) of the output the model was shown. */
export type Range = readonly [number, number];

/** A workload prepared once for every baseline: exact token counts, line starts. */
export interface Prepared {
  readonly workload: Workload;
  readonly outputTokens: number;
  /** Character offset where each line starts. */
  readonly lineStarts: readonly number[];
  readonly count: (text: string) => number;
  /** The id the prompt asks to fetch: opaque, so it says nothing of the output's kind or size. */
  readonly docId: string;
}

/** An opaque id for a workload's output (`doc-` and 10 hex digits of a hash of its id and seed). */
export function docIdOf(workload: Workload): string {
  return `doc-${createHash("sha256").update(`${workload.id}:${workload.sha256}`).digest("hex").slice(0, 10)}`;
}

/**
 * The prompt of a task, the same for every policy and for real models: fetch the output, then
 * the question. Nothing else of the task (no id, kind, size, position or answer).
 *
 * @example
 * promptOf(task, "doc-3f2a9c81d0"); // 'Call data__fetch with output="doc-3f2a9c81d0". What is … Answer with the exact value.'
 */
export function promptOf(task: Task, docId: string): string {
  return `Call data__fetch with output="${docId}". ${task.question} Answer with the exact value.`;
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
  return {
    workload,
    outputTokens,
    lineStarts: starts,
    // Requests repeat their history: each text is counted once (the output's own count is known).
    count: memoCounter(count, new Map([[text, outputTokens]])),
    docId: docIdOf(workload),
  };
}

export const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

/** The longest prefix of `text` of at most `bytes` UTF-8 bytes, on a character boundary. */
export function prefixBytes(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  const head = Buffer.from(text.slice(0, bytes), "utf8").subarray(0, bytes).toString("utf8");
  return head.endsWith("\uFFFD") ? head.slice(0, -1) : head;
}

/** The longest suffix of `text` of at most `bytes` UTF-8 bytes, on a character boundary. */
export function suffixBytes(text: string, bytes: number): string {
  if (bytes <= 0) return "";
  const buffer = Buffer.from(text.slice(-bytes), "utf8");
  const tail = buffer.subarray(Math.max(0, buffer.length - bytes)).toString("utf8");
  return tail.startsWith("\uFFFD") ? tail.slice(1) : tail;
}

/**
 * The episode a peer policy played (eval/drive.ts), scored from its report, with the fraction
 * of the output it saw when the policy knows it (null for a shell, whose commands show anything).
 */
export function drivenEpisode(
  policy: PolicyName,
  task: Task,
  p: Prepared,
  run: DriveResult,
  ranges: readonly Range[] | null,
): Episode {
  return scoredEpisode(policy, task, {
    report: run.report,
    retrieved: run.retrieved,
    tokensSent: run.tokensSent,
    requests: run.requests,
    tokensExposed: run.toolResultTokens,
    outputTokens: p.outputTokens,
    toolCalls: run.toolCalls,
    wallMs: run.toolMs,
    visibleFraction: ranges ? coveredFraction(ranges, p.workload.text.length) : null,
    lossless: null,
    failure: run.failure,
    shown: run.shown.join("\n"),
  });
}

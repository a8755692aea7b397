/**
 * A workload prepared once for every baseline (token count, line starts), the byte-exact cuts
 * peers make, and the episode record every baseline writes.
 */
import { estimateTokens } from "../src/core/tokens.js";
import { coveredFraction, type Episode, type PolicyName, scoredEpisode } from "./episode.js";
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

/** The episode a baseline played: scored against the task, with the fraction of the output it saw. */
export function baselineEpisode(
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
  return scoredEpisode(policy, task, {
    answer: result.answer,
    tokensExposed: result.tokens,
    outputTokens: p.outputTokens,
    toolCalls: result.calls,
    wallMs: result.wallMs,
    visibleFraction: coveredFraction(result.ranges, p.workload.text.length),
    lossless: null,
    failure: result.failure,
  });
}

/**
 * A stopwatch for harness time that leaves out the evaluation's own token counting: `count`
 * counts like `p.count` but its time is not charged to the policy.
 *
 * @example
 * const clock = harnessClock(p);
 * const tokens = clock.count(page); // not timed
 * clock.elapsed(); // ms since the clock started, counting excluded
 */
export function harnessClock(p: Prepared): { count(text: string): number; elapsed(): number } {
  const started = performance.now();
  let excluded = 0;
  return {
    count(text) {
      const before = performance.now();
      const tokens = p.count(text);
      excluded += performance.now() - before;
      return tokens;
    },
    elapsed: () => performance.now() - started - excluded,
  };
}

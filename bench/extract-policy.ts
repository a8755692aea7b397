/**
 * The extraction benchmark's fixture and scripted model: a deterministic application log with
 * one needle line, and the policy answering spillway's map and reduce calls for the two
 * scenarios (the needle in one chunk; every chunk relevant). Shared by the benchmark and the
 * model-server child process.
 */

import { seedOf } from "../src/core/rng.js";
import { generateOutputText } from "../src/core/synthetic/generate.js";
import {
  extractionAnswer,
  extractionCall,
  noRelevantData,
  type Responder,
} from "../src/testing/index.js";
import { NEEDLE, NEEDLE_LOG_LINE } from "./fixture-content.js";

export { NEEDLE };

/** The needle is in one chunk: one map answer is relevant, the others NO RELEVANT DATA FOUND. */
export const NEEDLE_QUERY = "Which error broke the ledger invariant? Quote the exact log line.";
/** Every chunk answers with a quote, so the reduce call runs. */
export const ALL_QUERY =
  "Summarize what each part of the log shows, quoting one representative request line per part.";
/** A query with this prefix is answered at once (no injected latency): warm-up runs. */
export const WARM_UP_PREFIX = "[warm-up] ";

export type Scenario = "needle" | "all-relevant";

export function queryOf(scenario: Scenario, warmUp = false): string {
  return (warmUp ? WARM_UP_PREFIX : "") + (scenario === "needle" ? NEEDLE_QUERY : ALL_QUERY);
}

export interface BenchLog {
  readonly text: string;
  /** The needle's whole line, without its line end. */
  readonly needleLine: string;
  /** 1-based. */
  readonly needleLineNumber: number;
}

/**
 * About `bytes` of multi-service log with the needle record at `needleAt` (a fraction of the
 * size): 0.45 is the middle of the 5th of 10 chunks, far from the overlaps with its neighbours.
 */
export function buildLog(bytes: number, needleAt = 0.45): BenchLog {
  const output = generateOutputText({
    bytes,
    kind: "log",
    needle: NEEDLE_LOG_LINE,
    needleAt,
    seed: seedOf(`extract-bench/${bytes}`),
  });
  if (output.needleLine === undefined)
    throw new Error(`a log of ${bytes} bytes is too small for the needle`);
  return { text: output.text, needleLine: NEEDLE_LOG_LINE, needleLineNumber: output.needleLine };
}

/** A unique log line near the middle of a chunk (not in the overlap with its neighbours). */
function middleRequestLine(text: string): string | undefined {
  const lines = text.split("\n");
  const middle = Math.floor(lines.length / 2);
  for (let i = middle; i < lines.length; i++) {
    if (lines[i]!.includes(" request_id=")) return lines[i];
  }
  return undefined;
}

/**
 * The scripted extraction model. Map: in the needle scenario, the chunk holding the needle
 * quotes its line and every other chunk has nothing; in the all-relevant scenario, every chunk
 * quotes one line from its middle. Reduce: keeps every quote of the chunk outputs. Replies
 * wait `latencyMs`, except warm-up queries, which are answered at once.
 */
export function extractionPolicy(latencyMs: number): Responder {
  return (request) => {
    const call = extractionCall(request);
    if (!call) throw new Error("not an extraction call");
    const warmUp = call.query.startsWith(WARM_UP_PREFIX);
    const query = warmUp ? call.query.slice(WARM_UP_PREFIX.length) : call.query;
    const delayMs = warmUp ? 0 : latencyMs;
    if (query !== NEEDLE_QUERY && query !== ALL_QUERY) {
      throw new Error(`unknown benchmark query: ${call.query}`);
    }
    if (call.kind === "reduce") {
      const quotes = call.text
        .split("\n")
        .filter((line) => line.startsWith("> "))
        .map((line) => line.slice(2));
      const answer = `${quotes.length} findings across the chunks`;
      return { ...extractionAnswer(call.nonce, answer, quotes, 0.9), delayMs };
    }
    if (call.kind !== "map") throw new Error(`unexpected ${call.kind} call`);
    if (query === NEEDLE_QUERY) {
      const line = call.text.split("\n").find((l) => l.includes(NEEDLE));
      return line === undefined
        ? { ...noRelevantData(call.nonce, "request logs without ledger errors"), delayMs }
        : {
            ...extractionAnswer(call.nonce, `The ledger invariant broke: ${line}`, [line]),
            delayMs,
          };
    }
    const line = middleRequestLine(call.text);
    if (line === undefined) throw new Error(`chunk ${call.chunk} has no request line`);
    return {
      ...extractionAnswer(call.nonce, `Part ${call.chunk}: requests such as this one`, [line]),
      delayMs,
    };
  };
}

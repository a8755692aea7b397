import { SpillwayError } from "../core/errors.js";
import { parseAnswer, unwrapFinalReport } from "./final-report.js";
import { readGrepSystemPrompt } from "./prompts.js";
import { unverifiedReason, verifyQuotes } from "./quotes.js";
import type { ExtractionResult } from "./result.js";
import { type ExtractionRun, newNonce } from "./run-context.js";

/** What the runtime needs to start the read-grep sub-agent (same runtime, its own session). */
export interface ReadGrepAgentRequest {
  /** The output to read: its id is the only file name the agent's Read/Grep accept. */
  readonly handle: string;
  readonly systemPrompt: string;
  readonly task: string;
  readonly models: readonly string[];
  readonly maxTurns: number;
  readonly maxToolCallsPerTurn: number;
  readonly toolCallId?: string;
  readonly signal?: AbortSignal;
}

export interface ReadGrepAgentResult {
  readonly sessionId: string;
  readonly status: string;
  readonly report: string | null;
  readonly error: string | null;
}

export type ReadGrepRunner = (request: ReadGrepAgentRequest) => Promise<ReadGrepAgentResult>;

/**
 * read-grep: a sub-agent with only Read and Grep over this one output searches it and reports.
 * A run that ends without a real final report (failed, aborted, out of turns, empty) is a
 * failure; "nothing relevant" is an answer. Its quotes are verified like the map step's.
 */
export async function runReadGrep(
  run: ExtractionRun,
  runner: ReadGrepRunner,
): Promise<Omit<ExtractionResult, "requested" | "cached">> {
  const nonce = newNonce();
  const child = await runner({
    handle: run.record.id,
    systemPrompt: readGrepSystemPrompt(run.source, run.record.id, run.query, nonce),
    task: `Extract from the file ${run.record.id}: ${run.query}`,
    models: run.targets.map((t) => t.ref),
    maxTurns: run.settings.readGrepMaxTurns,
    maxToolCallsPerTurn: run.settings.readGrepMaxToolCallsPerTurn,
    ...(run.toolCallId ? { toolCallId: run.toolCallId } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
  });
  const content =
    child.report === null
      ? undefined
      : (unwrapFinalReport(child.report, nonce) ?? child.report.trim());
  if (child.status !== "completed" || !content) {
    throw new SpillwayError(
      "EXTRACTION_FAILED",
      `The read-grep agent (session ${child.sessionId}) ended ${child.status} without a usable final report` +
        `${child.error ? `: ${child.error}` : ""}.`,
      { sessionId: child.sessionId, status: child.status },
      { fault: "tool" },
    );
  }
  const parsed = parseAnswer(content);
  const verified = parsed.relevant
    ? await verifyQuotes(parsed.quotes, run.output, run.reader)
    : { snippets: [], unverified: 0 };
  const total = verified.snippets.length + verified.unverified;
  // An answer with no verified quote is not found (SW-22): nothing pins it to the output.
  const found = parsed.relevant && verified.snippets.length > 0;
  return {
    strategy: "read-grep",
    found,
    answer: found ? parsed.text : "NO RELEVANT DATA FOUND",
    snippets: verified.snippets,
    unverified: verified.unverified,
    outputId: run.record.id,
    sourceHash: run.record.sha256 ?? "",
    sourceSize: run.record.byteSize ?? 0,
    chunksSearched: 1,
    chunksTotal: 1,
    confidence:
      parsed.confidence ??
      (total === 0 ? (parsed.relevant ? 0.5 : 0) : verified.snippets.length / total),
    ...(found
      ? {}
      : {
          noMatchReason: parsed.relevant
            ? unverifiedReason(verified.unverified)
            : parsed.text ||
              `The read-grep agent searched ${run.record.id} and found nothing for: ${run.query}`,
        }),
    model: run.targets[0]?.ref ?? null,
  };
}

import { countTokens } from "../core/tokens.js";
import { completedText, NOTHING_RUNNING_TEXT } from "../surfaces/async-texts.js";
import { GET_TOOL_OUTPUT } from "../surfaces/get-tool-output/schema.js";
import { createGetToolOutputSurface } from "../surfaces/get-tool-output.js";
import { answerBudgetChars } from "../surfaces/show-decision.js";
import type { CallInfo, SpillwaySession } from "./session.js";

/** What `get_tool_output` answered. */
export interface GetToolOutputResult {
  /** The text the model is shown: a header with provenance (offsets, lines, SHA-256), then content. */
  readonly text: string;
  /** True when the call failed (unknown id, bad arguments, not ready); the text says why. */
  readonly isError: boolean;
  /** The output read, when there was one. */
  readonly outputId?: string;
}

const surfaces = new Map<number, ReturnType<typeof createGetToolOutputSurface>>();
function surfaceFor(synopsisLines: number) {
  let surface = surfaces.get(synopsisLines);
  if (!surface) {
    surface = createGetToolOutputSurface({ synopsisLines });
    surfaces.set(synopsisLines, surface);
  }
  return surface;
}

/**
 * Answers one `get_tool_output` call: the retrieval engine's exact reads (raw, slice, grep,
 * page, json) or extraction, each fitted to the remaining budget and saying how to go on.
 * A bad call is answered with an error text for the model; nothing is thrown at the loop.
 *
 * @example
 * const answer = await readStoredOutput(session, { id: "out_…", mode: "grep", pattern: "ERROR" }, call);
 */
export async function readStoredOutput(
  session: SpillwaySession,
  args: unknown,
  call: CallInfo,
  signal?: AbortSignal,
): Promise<GetToolOutputResult> {
  const { outputs } = await session.open();
  const { options } = session;
  const remaining = await session.remainingTokens(call);
  const extractor = await session.extractorOf();
  const answer = await surfaceFor(options.synopsisLines).execute(GET_TOOL_OUTPUT, args, {
    outputs,
    scope: { sessionId: session.id },
    maxChars: answerBudgetChars(remaining, options.toolResponseMaxBytes),
    tokenizer: options.tokenizer,
    outputOfToolCall: async (toolCallId) => {
      const records = await session.recordsOfCall(toolCallId);
      return (records.find((r) => r.kind !== "binary") ?? records.at(-1))?.id;
    },
    ...(extractor ? { extractor } : {}),
    ...(signal ? { signal } : {}),
    toolCallId: call.toolCallId,
    ...(options.async ? { asyncTokenThreshold: options.async.tokenThreshold } : {}),
  });
  session.charge(call, await countTokens(answer.text, options.tokenizer));
  return {
    text: answer.text,
    isError: answer.isError,
    ...(answer.outputId ? { outputId: answer.outputId } : {}),
  };
}

/**
 * `wait_for_tool_output()`: blocks until at least one background tool settles and
 * lists every tool completed since the last report (id, tool, size or failure); answers at
 * once when some already settled, or "No async tools running." when none runs. Bounded by
 * `async.waitTimeoutSecs`; ends early when the signal aborts.
 *
 * @example
 * await waitForOutputs(session, abortSignal); // "Completed tools:\n- fetch_logs (id: out_…, size: 30.0MB)"
 */
export async function waitForOutputs(
  session: SpillwaySession,
  signal: AbortSignal = new AbortController().signal,
): Promise<string> {
  const background = await session.background();
  if (background.runningCount === 0 && background.unreported().length === 0)
    return NOTHING_RUNNING_TEXT;
  const timeoutSecs = session.options.async?.waitTimeoutSecs ?? 300;
  const completed = await background.waitForCompleted(signal, timeoutSecs * 1000);
  if (completed.length > 0) return completedText(completed);
  const running = background.jobs().filter((job) => job.status === "running");
  const reason = signal.aborted
    ? "The run was aborted"
    : `No tool completed within ${timeoutSecs}s (the wait timeout)`;
  return [
    `${reason}. Still running:`,
    ...running.map((job) => `- ${job.toolName} (id: ${job.outputId})`),
  ].join("\n");
}

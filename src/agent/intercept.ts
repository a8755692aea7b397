import { countTokens } from "../core/tokens.js";
import type { ShownAs, ToolResultRef } from "../store/history.js";
import type { OutputRecord } from "../store/output-store.js";
import { placeholderText, readyText } from "./render-result.js";
import {
  asyncActive,
  asyncSettingsOf,
  remainingTokens,
  type SessionContext,
  tokenizerOf,
} from "./session-context.js";
import type { ToolCallInput, ToolOutcome } from "./tool-types.js";

/**
 * The single interception point (D0-18). Every raw tool result (MCP,
 * sub-agent, internal) is stored whole in the canonical store FIRST, before any size logic;
 * only then does projection decide what the model sees: the whole output inline when it is
 * under `toolResponseMaxBytes` and fits the remaining context budget, otherwise the surface's
 * placeholder (a handle message, or a seed-002 continuation). The budget is charged for what
 * will be shown, not for the stored output (D0-19).
 */
export async function interceptContent(
  context: SessionContext,
  call: ToolCallInput,
  outcome: Extract<ToolOutcome, { type: "content" }>,
  running?: OutputRecord,
): Promise<{ ref: ToolResultRef; record: OutputRecord; storedBytes: number }> {
  const { record, attachments, storedBytes } = await storeContent(context, call, outcome, running);
  const shown = await decideShown(context, record);
  return {
    ref: {
      kind: "output",
      outputId: record.id,
      isError: outcome.isError,
      shown,
      ...(attachments.length > 0 ? { attachments: attachments.map((a) => a.id) } : {}),
    },
    record,
    storedBytes,
  };
}

/**
 * Stores a tool's raw result whole: its text (completing `running`, the record begun when the
 * call started, when there is one) and each binary part as an output of its own.
 */
export async function storeContent(
  context: SessionContext,
  call: ToolCallInput,
  outcome: Extract<ToolOutcome, { type: "content" }>,
  running?: OutputRecord,
): Promise<{ record: OutputRecord; attachments: OutputRecord[]; storedBytes: number }> {
  const origin = {
    sessionId: context.sessionId,
    toolName: call.toolName,
    toolArgs: call.argsText,
    toolCallId: call.toolCallId,
  };
  const parts = [...(outcome.binary ?? [])];
  // The handle was given out when the call started: it holds the text, or else the first
  // binary part; the other parts are attachments.
  const first = running && outcome.text === undefined ? parts.shift() : undefined;
  const attachments: OutputRecord[] = [];
  for (const part of parts) {
    attachments.push(
      await context.outputs.put(origin, part.data, { binary: true, mediaType: part.mediaType }),
    );
  }
  let record: OutputRecord;
  if (running) {
    record = first
      ? await context.outputs.complete(running.id, first.data, {
          binary: true,
          mediaType: first.mediaType,
        })
      : await context.outputs.complete(running.id, outcome.text ?? "");
  } else {
    const hasText = outcome.text !== undefined || attachments.length === 0;
    record = hasText ? await context.outputs.put(origin, outcome.text ?? "") : attachments.shift()!;
  }
  const storedBytes =
    (record.byteSize ?? 0) + attachments.reduce((sum, a) => sum + (a.byteSize ?? 0), 0);
  return { record, attachments, storedBytes };
}

/** Decides, once, how a stored output is shown, and charges the budget for it. */
async function decideShown(context: SessionContext, record: OutputRecord): Promise<ShownAs> {
  const { settings, state } = context;
  const byteSize = record.byteSize ?? 0;
  if (!settings.toolOutput.enabled) {
    // Legacy: the model sees at most the byte cap; the store still keeps the whole output.
    state.pendingTokens += Math.min(
      record.tokenEstimate ?? 0,
      Math.ceil(settings.toolResponseMaxBytes / 3),
    );
    return byteSize <= settings.toolResponseMaxBytes ? "inline" : "truncated";
  }
  const tokens = record.tokenEstimate ?? 0;
  // Seed 003's size trigger: with async tools on, an output over the token threshold is
  // announced as ready with its size (D3-13) instead of shown
  // (D3-17: the tool won the race, then its size decides), even when it would fit inline.
  const async = asyncSettingsOf(settings);
  if (asyncActive(context) && tokens > async.tokenThreshold) {
    const ready = await readyText(context, record);
    state.pendingTokens += await countTokens(ready, tokenizerOf(settings));
    state.hasStoredOutputs = true;
    return "ready";
  }
  const underCap =
    context.surface.shownAs === "continuation"
      ? (record.charCount ?? 0) <= settings.toolOutput.continuationChars
      : byteSize <= settings.toolResponseMaxBytes;
  if (record.kind !== "binary" && underCap && tokens <= remainingTokens(context)) {
    state.pendingTokens += tokens;
    return "inline";
  }
  // Oversized (byte cap exceeded OR projected tokens would overflow, D0-11): the budget
  // is charged for the placeholder only.
  const placeholder = await placeholderText(context, record);
  const placeholderTokens = await countTokens(placeholder, tokenizerOf(settings));
  if (placeholderTokens > remainingTokens(context)) state.budgetExhausted = true;
  state.pendingTokens += placeholderTokens;
  state.hasStoredOutputs = true;
  return context.surface.shownAs;
}

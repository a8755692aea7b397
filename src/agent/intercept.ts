import { countTokens } from "../core/tokens.js";
import type { ShownAs, ToolResultRef } from "../store/history.js";
import type { OutputOrigin, OutputRecord } from "../store/output-store.js";
import { type StoredResult, storeToolResult } from "../store/store-result.js";

import { decideShown } from "../surfaces/show-decision.js";
import { checkStoredWhole, reportViolation, strictInvariants } from "./invariants.js";
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
 * placeholder (a handle message, or a continuation-surface marker). The budget is charged for what
 * will be shown, not for the stored output (D0-19).
 */
export async function interceptContent(
  context: SessionContext,
  call: ToolCallInput,
  outcome: Extract<ToolOutcome, { type: "content" }>,
  running?: OutputRecord,
): Promise<{ ref: ToolResultRef; record: OutputRecord; storedBytes: number }> {
  const { record, attachments, storedBytes } = await storeContent(context, call, outcome, running);
  if (outcome.lifted) context.state.liftedArguments.set(record.id, outcome.lifted.arguments);
  const shown = await decideShownIn(context, record);
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
): Promise<StoredResult> {
  // A call run whole (whole-read.ts) is stored with the arguments it was run with.
  const made = outcome.lifted ? { ...call, argsText: outcome.lifted.argsText } : call;
  const stored = await storeToolResult(context.outputs, originOf(context, made), outcome, running);
  // canonical_tool_result_is_lossless: everything the tool produced is in the store.
  const receivedBytes =
    (outcome.text === undefined
      ? 0
      : typeof outcome.text === "string"
        ? Buffer.byteLength(outcome.text, "utf8")
        : outcome.text.byteLength) +
    (outcome.binary ?? []).reduce((sum, part) => sum + part.data.byteLength, 0);
  const violation = checkStoredWhole([stored.record, ...stored.attachments], receivedBytes);
  if (violation)
    reportViolation(
      violation,
      (v) => context.emit({ type: "invariant", sessionId: context.sessionId, ...v }),
      strictInvariants(),
    );
  return stored;
}

/** The origin the store records for a call of this session. */
export function originOf(context: SessionContext, call: ToolCallInput): OutputOrigin {
  return {
    sessionId: context.sessionId,
    toolName: call.toolName,
    toolArgs: call.argsText,
    toolCallId: call.toolCallId,
  };
}

/** Decides, once, how a stored output is shown, and charges the budget for it. */
async function decideShownIn(context: SessionContext, record: OutputRecord): Promise<ShownAs> {
  const { settings, state } = context;
  const tokenizer = tokenizerOf(settings);
  const decision = await decideShown(
    record,
    {
      enabled: settings.toolOutput.enabled,
      toolResponseMaxBytes: settings.toolResponseMaxBytes,
      shownAs: context.surface.shownAs,
      continuationChars: settings.toolOutput.continuationChars,
      ...(asyncActive(context)
        ? { readyOverTokens: asyncSettingsOf(settings).tokenThreshold }
        : {}),
    },
    {
      remainingTokens: remainingTokens(context),
      countTokens: (text) => countTokens(text, tokenizer),
      placeholder: () => placeholderText(context, record),
      ready: () => readyText(context, record),
    },
  );
  // When even a placeholder does not fit (decision.exhausted), the next projection makes room
  // (compaction, then handle-form shortening) or makes that turn the last (D0-19).
  state.pendingTokens += decision.tokens;
  if (decision.retrievable) state.hasStoredOutputs = true;
  if (decision.shown === "handle" || decision.shown === "ready") state.shownByHandle.add(record.id);
  return decision.shown;
}

/**
 * How a local model's reply becomes AI SDK content: the calls node-llama-cpp read under its
 * grammar (`native`), a required call the provider started (`forced`, forced-call.ts), calls
 * written as JSON text (`recovered`, recover-tool-calls.ts), or text.
 */
import { createHash } from "node:crypto";
import type { LanguageModelV3Content } from "@ai-sdk/provider";
import { base32 } from "../../core/ids.js";
import type { ForcedCall } from "./forced-call.js";
import { malformedToolCall, type RecoveredCall, recoverToolCalls } from "./recover-tool-calls.js";

/** Where a reply's calls came from. */
export type ToolCallSource = "native" | "recovered" | "forced" | "none";

/** What the model produced: its text and the calls its chat template carried. */
export interface ModelReplyText {
  readonly text: string;
  readonly nativeCalls: readonly { functionName: string; params?: unknown }[];
}

/** How to read calls that are not native. */
export interface ReplyReading {
  /** Tools the model was given. */
  readonly known: ReadonlySet<string>;
  /** Read JSON calls written as text. */
  readonly recover: boolean;
  /** The call the provider started, when one was required. */
  readonly forced?: ForcedCall;
  /** Tools whose schema lists no arguments and allows no others (see `withoutArguments`). */
  readonly takeNoArguments?: ReadonlySet<string>;
  /** The id of the reply's n-th call (`replyCallIds` of the prompt). */
  readonly callId: (index: number) => string;
}

/**
 * Call ids drawn from the prompt: the n-th call of the reply to a prompt gets the same id in
 * every run. A local model makes no ids, and random ones made a session's text differ between
 * runs once a compaction showed them to the model (docs/architecture.md, SW-47). A session's
 * prompt grows with every call recorded, so two of its replies never share a prompt, and ids
 * are unique within a session, which is all the store asks (its key is session and call id).
 *
 * @example
 * const ids = replyCallIds([151644, 8948, 198]);
 * ids(0) === replyCallIds([151644, 8948, 198])(0); // true
 * ids(0) !== ids(1); // true
 */
export function replyCallIds(promptTokens: readonly number[]): (index: number) => string {
  const prompt = createHash("sha256").update(Uint32Array.from(promptTokens)).digest();
  return (index) =>
    `call_${base32(createHash("sha256").update(prompt).update(`\n${index}`).digest().subarray(0, 16))}`;
}

/**
 * A call to a tool that takes no arguments, with none: what the grammar makes of a native call
 * (tool-schema.ts), also for a call written as text or started for the model, which the grammar
 * does not constrain. The tool would never read an invented argument, and the history shows the
 * call as it was made, so the model does not take a value it wrote there for one the tool
 * returned. Arguments that are not valid JSON are kept, to be answered with an error.
 */
function withoutArguments(call: RecoveredCall, takeNoArguments: ReadonlySet<string>) {
  if (!takeNoArguments.has(call.toolName)) return call;
  try {
    const args: unknown = JSON.parse(call.input);
    return typeof args === "object" && args !== null && !Array.isArray(args)
      ? { ...call, input: "{}" }
      : call;
  } catch {
    return call;
  }
}

/**
 * The reply's content and where its calls came from. A call with broken arguments stays that
 * call (the caller's JSON check answers it with an error naming the tool), not prose; so does a
 * required call the provider started, to an unknown tool or cut short.
 *
 * @example
 * replyContent({ text: '{"name": "grep", "arguments": {"pattern": "E"}}', nativeCalls: [] },
 *   { known: new Set(["grep"]), recover: true, callId: replyCallIds(promptTokens) });
 * // { content: [{ type: "tool-call", toolName: "grep", … }], source: "recovered" }
 */
export function replyContent(
  reply: ModelReplyText,
  reading: ReplyReading,
): { content: LanguageModelV3Content[]; source: ToolCallSource } {
  const { text, nativeCalls } = reply;
  const { known, recover, forced } = reading;
  let made = 0;
  const toolCall = (call: RecoveredCall): LanguageModelV3Content => ({
    type: "tool-call",
    toolCallId: reading.callId(made++),
    toolName: call.toolName,
    input: call.input,
  });
  const asMade = (call: RecoveredCall) =>
    toolCall(withoutArguments(call, reading.takeNoArguments ?? new Set()));
  if (nativeCalls.length === 0) {
    if (forced) {
      // The provider started this reply as a call: whatever the model wrote after that is the
      // call, answered with an error when it is broken, never shown back as the model's prose.
      const started = forced.settle(text, true) ?? forced.asWritten(text);
      if (started) return { content: [asMade(started)], source: "forced" };
    }
    if (recover) {
      const calls = recoverToolCalls(text, known) ?? wrap(malformedToolCall(text, known));
      if (calls) return { content: calls.map(asMade), source: "recovered" };
    }
  }
  const content: LanguageModelV3Content[] = text === "" ? [] : [{ type: "text", text }];
  for (const call of nativeCalls)
    content.push(
      toolCall({ toolName: call.functionName, input: JSON.stringify(call.params ?? {}) }),
    );
  return { content, source: nativeCalls.length > 0 ? "native" : "none" };
}

const wrap = (call: RecoveredCall | undefined) => (call ? [call] : undefined);

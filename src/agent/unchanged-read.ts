/**
 * A read of a stored output that repeats an earlier read whose result the model still has
 * (SW-56 in docs/architecture.md): a stored output does not change, so the same call returns
 * the same text, and sending it again only makes every later request longer. It is answered
 * with a one-line note naming the earlier turn instead. "Still has" means the earlier result was
 * sent whole in the projection the model answered: one compacted away or shortened to its
 * handle form is read again. Only reads of one output by id (a session-wide search changes as
 * outputs arrive) and only with spillway's own texts (compatibility sessions run every call).
 */
import { guided } from "../config/guidance.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import type { CallResult } from "./call-result.js";
import { compatibilityTexts, type SessionContext } from "./session-context.js";

/** The key of a call: its tool and its arguments with keys sorted, so `{a,b}` equals `{b,a}`. */
export function readKey(toolName: string, args: unknown): string {
  return `${toolName}\u0000${JSON.stringify(sortedKeys(args))}`;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
    );
  return value;
}

/** A call that reads one stored output by id with a surface tool. */
function isOutputRead(context: SessionContext, call: ModelToolCall): boolean {
  const args = call.args as { readonly id?: unknown } | null;
  return (
    !call.invalid &&
    context.tools.get(call.toolName)?.kind === "surface" &&
    typeof args?.id === "string" &&
    guided(context.settings, "unchangedReads") &&
    !compatibilityTexts(context.settings)
  );
}

/**
 * The note answering `call` when it repeats an earlier read whose result the model was sent
 * whole in its last request, or undefined when the call should run.
 *
 * @example
 * answerUnchangedRead(context, call, allowed);
 * // { ref: { kind: "note", text: "[This is the same call as your turn 3, on a stored output…" }, … }
 */
export function answerUnchangedRead(
  context: SessionContext,
  call: ModelToolCall,
  allowed: ReadonlySet<string>,
): CallResult | undefined {
  if (!allowed.has(call.toolName) || !isOutputRead(context, call)) return undefined;
  const earlier = context.state.outputReads.get(readKey(call.toolName, call.args));
  if (!earlier || !context.state.resultsInView.has(earlier.toolCallId)) return undefined;
  return {
    ref: {
      kind: "note",
      text: `[This is the same call as your turn ${earlier.turn}, on a stored output, which does not change: its result is the one shown for that turn, above.]`,
    },
    status: "ok",
    storedBytes: 0,
  };
}

/**
 * Remembers a read that ran and succeeded, so that the same call can be answered from it while
 * its result stays in view.
 *
 * @example
 * rememberOutputRead(context, call, turn, result);
 */
export function rememberOutputRead(
  context: SessionContext,
  call: ModelToolCall,
  turn: number,
  result: CallResult,
): void {
  if (result.status !== "ok" || result.ref.kind !== "retrieval" || !isOutputRead(context, call))
    return;
  context.state.outputReads.set(readKey(call.toolName, call.args), {
    toolCallId: call.toolCallId,
    turn,
  });
}

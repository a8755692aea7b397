import { clipText } from "../core/clip-text.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import { type CallResult, errorResult } from "./call-result.js";
import { FINAL_REPORT } from "./internal-tools.js";
import { type SessionContext, seedTexts } from "./session-context.js";

/**
 * A read of a stored output that repeats, argument for argument, the read that succeeded in the
 * previous turn: answered with REPEATED_CALL saying what to do instead. A stored output does not
 * change, so the result is the one the model has just been shown. The 1.5B local model, after a
 * grep that found nothing, made the same grep ten turns in a row until its turns ran out.
 * Only consecutive repeats are refused: an older result may have left the projection
 * (compaction), and a read that failed (not ready yet) may be repeated. Seed-exact sessions
 * (asyncReadyMessage: seed-003) run every call.
 */
export function refuseRepeatedRead(
  context: SessionContext,
  call: ModelToolCall,
  turn: number,
): CallResult | undefined {
  if (!isSurfaceRead(context, call)) return undefined;
  const last = context.state.lastRead;
  if (!last || last.key !== readKey(call) || last.turn !== turn - 1) return undefined;
  // The result again, next to what to do with it: the 1.5B model, its answer in the grep result
  // just above, repeated the grep until its turns ran out.
  const again = last.text
    ? `\nIts result was:\n${clipText(last.text, RESULT_AGAIN_CHARS, { sayLength: true })}\n`
    : " ";
  return errorResult(
    "REPEATED_CALL",
    `You made this exact call in turn ${last.turn}; a stored output does not change, so the same call returns the same.${again}` +
      `If that result answers your task, call ${FINAL_REPORT} now with the answer taken from it. Otherwise make a different call: another pattern, mode or part of the output, or the tool that made the output, with other arguments.`,
  );
}

/** Characters of the earlier result repeated in a REPEATED_CALL answer. */
const RESULT_AGAIN_CHARS = 2000;

/**
 * Remembers a turn's read for the next turn: a read that succeeded, or a repeat refused (so a
 * third identical call is refused too, rather than answered again).
 */
export function rememberRead(
  context: SessionContext,
  call: ModelToolCall,
  turn: number,
  result: CallResult,
): void {
  if (!isSurfaceRead(context, call)) return;
  const refused = result.ref.kind === "error" && result.ref.code === "REPEATED_CALL";
  if (refused && context.state.lastRead)
    context.state.lastRead = { ...context.state.lastRead, turn };
  else if (result.status === "ok")
    context.state.lastRead = {
      key: readKey(call),
      turn,
      ...(result.ref.kind === "retrieval" ? { text: result.ref.text } : {}),
    };
  else delete context.state.lastRead;
}

function isSurfaceRead(context: SessionContext, call: ModelToolCall): boolean {
  return (
    !call.invalid &&
    context.tools.get(call.toolName)?.kind === "surface" &&
    !seedTexts(context.settings)
  );
}

/** The tool and its arguments with keys in order, so `{a,b}` and `{b,a}` are the same call. */
function readKey(call: ModelToolCall): string {
  return `${call.toolName}\u0000${JSON.stringify(sorted(call.args))}`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}

import { guided } from "../config/guidance.js";
import { clipText } from "../core/clip-text.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import { sortedKeys } from "../surfaces/repeated-output.js";
import type { CallResult } from "./call-result.js";
import { FINAL_REPORT } from "./internal-tools.js";
import { type SessionContext, seedTexts } from "./session-context.js";

/**
 * A read of a stored output that repeats, argument for argument, the read that succeeded in the
 * previous turn: not run again, but answered with that result and what to do with it. A stored
 * output does not change, so a repeated read gives the model nothing new; the note turns it
 * towards reporting or a different read. It is a note, not an error: a model asked for an
 * error code may report an error's code (`REPEATED_CALL`) as its answer.
 * Only consecutive repeats are answered so: an older result may have left the projection
 * (compaction), and a read that failed (not ready yet) may be repeated. Sessions that keep the
 * original design's exact async texts (asyncReadyMessage: ready-menu) run every call.
 */
export function answerRepeatedRead(
  context: SessionContext,
  call: ModelToolCall,
  turn: number,
): CallResult | undefined {
  if (!isSurfaceRead(context, call) || !guided(context.settings, "repeatNotes")) return undefined;
  const last = context.state.lastRead;
  if (!last || last.key !== readKey(call) || last.turn !== turn - 1) return undefined;
  const again = last.text
    ? `, so here is its result again:\n${clipText(last.text, RESULT_AGAIN_CHARS, { sayLength: true })}\n`
    : ", so it returns the same.\n";
  return {
    ref: {
      kind: "note",
      text:
        `This is the same call as your turn ${last.turn} and a stored output does not change${again}` +
        `If these lines answer your task, call ${FINAL_REPORT} now with the answer as written in them. If not, make a different call: another pattern, a larger context, another mode or part of the output, or the tool that made the output with other arguments.`,
    },
    status: "ok",
    storedBytes: 0,
    repeatOfTurn: last.turn,
  };
}

/** Repeats in a row after which the next turn is the final one (see turn-policy.ts). */
export const REPEATS_BEFORE_FINAL_TURN = 2;

/**
 * Whether the read of `turn` (default: the turn just ended) was the same read for the
 * REPEATS_BEFORE_FINAL_TURN-th time in a row: a stored output does not change, so the session
 * moves to its final turn: a model that keeps making one read would otherwise spend every
 * turn left on it before reporting.
 */
export function readRepeatedOut(
  context: Pick<SessionContext, "state" | "settings">,
  turn: number = context.state.turn,
): boolean {
  const last = context.state.lastRead;
  return (
    !seedTexts(context.settings) &&
    guided(context.settings, "repeatNotes") &&
    last !== undefined &&
    last.turn === turn &&
    (last.repeats ?? 0) >= REPEATS_BEFORE_FINAL_TURN
  );
}

/** Characters of the earlier result given again for a repeated read. */
const RESULT_AGAIN_CHARS = 2000;

/**
 * Remembers a turn's read for the next turn: a read that succeeded, or a repeat answered from
 * it (so a third identical call in a row is answered the same way, not run).
 */
export function rememberRead(
  context: SessionContext,
  call: ModelToolCall,
  turn: number,
  result: CallResult,
): void {
  if (!isSurfaceRead(context, call)) return;
  if (result.repeatOfTurn !== undefined && context.state.lastRead)
    context.state.lastRead = {
      ...context.state.lastRead,
      turn,
      repeats: (context.state.lastRead.repeats ?? 0) + 1,
    };
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
  return `${call.toolName}\u0000${JSON.stringify(sortedKeys(call.args))}`;
}

/**
 * A call that already returned the same result twice is not run a third time (SW-58 in
 * docs/architecture.md): the same tool with the same arguments, having answered the same twice,
 * holds nothing new, and a model that asks again is going round in a loop that only ends when its
 * turns or its context run out, every copy making each later request longer. The call is answered
 * with a one-line note, and the next turn is the last: it allows only the report, made from what
 * the session has read. A call to a tool the session does not have counts too: its error is the
 * same each time. Calls whose results differ (a status that changes, a file being written)
 * never stop; background waits and the report itself are not counted. Only with spillway's own
 * texts (compatibility sessions run every call).
 */
import { createHash } from "node:crypto";
import { guided } from "../config/guidance.js";
import type { ModelToolCall } from "../providers/model-caller.js";
import type { CallResult } from "./call-result.js";
import { FINAL_REPORT } from "./internal-tools.js";
import { type CallRepeats, compatibilityTexts, type SessionContext } from "./session-context.js";
import { readKey } from "./unchanged-read.js";

/** How many identical results of one call end the loop: the next identical call is stopped. */
export const SAME_RESULTS_BEFORE_STOP = 2;

/**
 * Calls that may stop: to a server's tools, to the reads of stored outputs, and to a tool the
 * session does not have, whose call is answered with the same error each time.
 */
function countsAsRepeat(context: SessionContext, call: ModelToolCall): boolean {
  const kind = context.tools.get(call.toolName)?.kind;
  return (
    (kind === undefined || kind === "mcp" || kind === "surface") &&
    call.toolName !== FINAL_REPORT &&
    guided(context.settings, "repeatStop") &&
    !compatibilityTexts(context.settings)
  );
}

function keyOf(call: ModelToolCall): string {
  return readKey(call.toolName, call.invalid ? call.argsText : call.args);
}

/**
 * The note answering `call` when the same call returned the same result twice already (and the
 * next turn is made the last), or undefined when the call should run.
 *
 * @example
 * stopRepeatedCall(context, call, allowed);
 * // { ref: { kind: "note", text: "[You made this same call in turns 2 and 4…" }, … }
 */
export function stopRepeatedCall(
  context: SessionContext,
  call: ModelToolCall,
  allowed: ReadonlySet<string>,
): CallResult | undefined {
  // A tool the turn does not allow keeps its own error, which says so; one the session does
  // not have at all is stopped like any other call.
  const known = context.tools.has(call.toolName);
  if ((known && !allowed.has(call.toolName)) || !countsAsRepeat(context, call)) return undefined;
  const earlier = context.state.callRepeats.get(keyOf(call));
  if (!earlier || !sameResultRepeated(earlier.fingerprints)) return undefined;
  context.state.repeatStopped = true;
  const turns = earlier.turns.slice(-SAME_RESULTS_BEFORE_STOP).join(" and ");
  return {
    ref: {
      kind: "note",
      text: `[You made this same call in turns ${turns}, and it returned the same result each time: it was not run again. Your next turn is your last: give your report with ${FINAL_REPORT}, from what the results above show.]`,
    },
    status: "ok",
    storedBytes: 0,
  };
}

/** The last `SAME_RESULTS_BEFORE_STOP` results are one and the same. */
function sameResultRepeated(fingerprints: readonly string[]): boolean {
  const last = fingerprints.slice(-SAME_RESULTS_BEFORE_STOP);
  return last.length === SAME_RESULTS_BEFORE_STOP && last.every((f) => f === last[0]);
}

/**
 * Remembers what a call returned, so that a third identical call after two identical results
 * can be stopped. A call that went on in the background has no result yet and is not counted.
 *
 * @example
 * rememberCallResult(context, call, turn, result);
 */
export function rememberCallResult(
  context: SessionContext,
  call: ModelToolCall,
  turn: number,
  result: CallResult,
): void {
  if (!countsAsRepeat(context, call)) return;
  const key = keyOf(call);
  const entry = context.state.callRepeats.get(key) ?? { turns: [], fingerprints: [] };
  const fingerprint = fingerprintOf(result, entry);
  if (fingerprint === undefined) return;
  entry.turns.push(turn);
  entry.fingerprints.push(fingerprint);
  context.state.callRepeats.set(key, entry);
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * What a result said, as a comparable string. A stored output is its content's hash (each call
 * stores its own copy under a new id); a note answering an unchanged read stands for the result
 * of the read it repeats.
 */
function fingerprintOf(result: CallResult, entry: CallRepeats): string | undefined {
  const { ref } = result;
  switch (ref.kind) {
    case "output":
      return result.contentSha256 ? `output:${result.contentSha256}` : undefined;
    case "note":
      return entry.fingerprints.at(-1) ?? `note:${digest(ref.text)}`;
    case "async":
      return undefined;
    default:
      return `${ref.kind}:${digest(JSON.stringify(ref))}`;
  }
}

import type { SurfaceContext } from "../surface.js";
import { readerFor } from "./read.js";

/** Outputs this small are shown whole where a read went wrong: cheaper than another turn. */
export const TINY_OUTPUT_CHARS = 1_000;

/**
 * The whole output, after a read that found nothing or could not run, when it is tiny (and
 * ready, and text); "" otherwise and in sessions that keep the original design's exact texts.
 * Counted as a read. A model whose reads of a few bytes keep failing gets their content at once,
 * instead of spending turns on the call or reporting the output's id as its value.
 *
 * @example
 * await tinyOutputWhole("out_1", context); // '\nThe whole output is 48 bytes:\nstatus=ok artifact=sha-7f3a…'
 */
export async function tinyOutputWhole(id: string, context: SurfaceContext): Promise<string> {
  if (context.compatibilityTexts) return "";
  const record = await context.outputs.get(id, context.scope);
  const chars = record.charCount ?? Number.POSITIVE_INFINITY;
  if (record.status !== "ready" || record.kind === "binary" || chars > TINY_OUTPUT_CHARS) return "";
  const whole = await readerFor(id, context)({ mode: "raw", maxChars: Math.max(1, chars) });
  return `\nThe whole output is ${(record.byteSize ?? 0).toLocaleString("en-US")} bytes:\n${whole.text}`;
}

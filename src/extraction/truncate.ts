import { readSlice } from "../retrieval/slice.js";
import type { OpenedOutput } from "../store/output-store.js";

/**
 * truncate: the top and bottom of an output within `maxChars`, with an explicit marker in the
 * middle naming how much was omitted and the handle that holds it all. Only on explicit
 * request, or as the fallback of a strategy that could not run (which then says so first).
 *
 * @example
 * await headAndTail(opened, 8000); // "first lines…\n[… 1,234,567 characters omitted (chars 3850-1238417 of 1242267); …]\n…last lines"
 */
export async function headAndTail(output: OpenedOutput, maxChars: number): Promise<string> {
  const total = output.record.charCount ?? 0;
  const budget = Math.max(200, maxChars - 300);
  if (total <= budget) {
    const whole = await readSlice(output, {
      start: 0,
      length: total,
      maxChars: Math.max(1, total + 2),
    });
    return whole.found ? whole.text : "";
  }
  const half = Math.floor(budget / 2);
  const head = await readSlice(output, { start: 0, length: half, maxChars: half + 2 });
  const tail = await readSlice(output, { start: total - half, length: half, maxChars: half + 2 });
  if (
    !head.found ||
    !tail.found ||
    !("charEnd" in head.provenance) ||
    !("charStart" in tail.provenance)
  )
    return "";
  const from = head.provenance.charEnd;
  const to = tail.provenance.charStart;
  const marker =
    `\n[… ${(to - from).toLocaleString("en-US")} characters omitted (chars ${from}-${to} of ${total}); ` +
    `the whole output is stored as handle ${output.record.id} …]\n`;
  return `${head.text}${marker}${tail.text}`;
}

import type { OpenedOutput } from "../store/output-store.js";
import { readSlice } from "./slice.js";

const number = (n: number) => n.toLocaleString("en-US");

/**
 * The top and bottom of an output, `contentChars` characters in all, with an explicit marker
 * in the middle naming how much was omitted, where, and the handle that holds it all. The one
 * head-and-tail of spillway: extraction's `truncate` strategy (D0-5), its fallback (D0-4) and
 * the legacy byte cap when the surface is off (D0-25) all use it. An output that fits is
 * returned whole, without a marker.
 *
 * @example
 * await headAndTail(opened, 8000);
 * // "first lines…\n[… truncated: 1,234,567 of 1,242,567 characters omitted here (chars 4000-1238567);
 * //  the whole output is stored as out_… …]\n…last lines"
 */
export async function headAndTail(output: OpenedOutput, contentChars: number): Promise<string> {
  const total = output.record.charCount ?? 0;
  if (total <= contentChars) {
    const whole = await readSlice(output, { start: 0, length: total, maxChars: total + 2 });
    return whole.found ? whole.text : "";
  }
  const half = Math.max(1, Math.floor(contentChars / 2));
  const head = await readSlice(output, { start: 0, length: half, maxChars: half + 2 });
  const tail = await readSlice(output, { start: total - half, length: half, maxChars: half + 2 });
  // Slices widen by one unit rather than split a surrogate pair: the provenance says where
  // each really ends, and the marker counts from there.
  const from = head.found && "charEnd" in head.provenance ? head.provenance.charEnd : 0;
  const to = tail.found && "charStart" in tail.provenance ? tail.provenance.charStart : total;
  return (
    `${head.found ? head.text : ""}\n[… truncated: ${number(to - from)} of ${number(total)} characters omitted here (chars ${from}-${to}); ` +
    `the whole output is stored as ${output.record.id} …]\n${tail.found ? tail.text : ""}`
  );
}

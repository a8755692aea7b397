import { headAndTail } from "../retrieval/head-and-tail.js";
import type { OpenedOutput } from "../store/output-store.js";

/** Room kept for the marker and the answer's framing within `maxChars`. */
const FRAMING_CHARS = 300;

/**
 * truncate: the top and bottom of an output within `maxChars`, with the marker naming how
 * much was omitted and the handle that holds it all. Only on explicit request, or as the
 * fallback of a strategy that could not run, which then says so first (D0-4, D0-5).
 *
 * @example
 * await truncateToFit(opened, 8000); // "first lines…\n[… truncated: … characters omitted here …]\n…last lines"
 */
export function truncateToFit(output: OpenedOutput, maxChars: number): Promise<string> {
  return headAndTail(output, Math.max(200, maxChars - FRAMING_CHARS));
}

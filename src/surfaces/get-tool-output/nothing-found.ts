import type { SurfaceContext } from "../surface.js";
import { readerFor } from "./read.js";
import { getToolOutputCall } from "./schema.js";
import { tinyOutputWhole } from "./tiny-output.js";

/**
 * How the hint after a read that found nothing begins: what follows is runtime text, not what
 * the read returned (the report guards tell the two apart by it).
 */
export const NOTHING_FOUND_MARK = "\n[nothing found";

/** Lines a search for the missed text shows, at most. */
const SEARCH_LINES = 3;

/**
 * What to try when a grep or an anchor found nothing: the lines that hold the missed text's
 * words (a search: any case, separators aside, rarest words first), and, since the output holds
 * only what its tool returned for those arguments, the call that made it. An exact text that is
 * not there is usually the right words written another way (`boot marker` for
 * `BOOT-MARKER-ALPHA`).
 *
 * @example
 * await nothingFoundHint("out_1", "boot marker", context);
 * // '\n[nothing found (999 lines). Repeating this call returns the same. Lines with its words (a search, best first): …]'
 */
export async function nothingFoundHint(
  id: string,
  searched: string,
  context: SurfaceContext,
): Promise<string> {
  if (context.compatibilityTexts) return "";
  const record = await context.outputs.get(id, context.scope);
  const lines =
    record.lineCount === null ? "" : ` (${record.lineCount.toLocaleString("en-US")} lines)`;
  const search = getToolOutputCall({ id, mode: "search", query: searched });
  const found = await wordsOf(id, searched, context);
  return (
    `${NOTHING_FOUND_MARK}${lines}. Repeating this call returns the same.` +
    (found === ""
      ? ` No line holds its words either; read it in order, ${getToolOutputCall({ id, mode: "page", cursor: 0 })}.`
      : ` Lines with its words (a search, best first; more: ${search}):`) +
    found +
    ` This output is only what ${record.toolName} returned for ${record.toolArgs}: if what you need may lie outside it, call ${record.toolName} again with other arguments.]` +
    (await tinyOutputWhole(id, context))
  );
}

/** The best lines for the missed text's words, numbered, or "" when none holds any. */
async function wordsOf(id: string, searched: string, context: SurfaceContext): Promise<string> {
  try {
    const result = await readerFor(
      id,
      context,
    )({
      mode: "search",
      query: searched,
      maxResults: SEARCH_LINES,
    });
    if (result.matches.length === 0) return "";
    return `\n${result.matches.map((m) => `  ${m.line}| ${m.text}`).join("\n")}\n`;
  } catch {
    // A pattern with no words (punctuation, a regular expression's syntax only): nothing to search.
    return "";
  }
}

import { escapeRegExp } from "../../core/escape-regexp.js";
import type { SurfaceContext } from "../surface.js";
import { getToolOutputCall } from "./schema.js";

/**
 * What to try when a grep or an anchor found nothing: other reads of the same output, and,
 * since the output holds only what its tool returned for those arguments, the call that made it.
 * The 1.5B local model read a log's last 1,000 lines, grepped them for ERROR, found nothing,
 * and made the same grep nine times more.
 *
 * @example
 * await nothingFoundHint("out_1", "ERROR", context);
 * // '\n[nothing found (999 lines). Repeating this call returns the same. Try a broader search, get_tool_output(id="out_1", mode="grep", pattern="ERROR|fail|exception|fatal", regex=true, ignore_case=true), …]'
 */
export async function nothingFoundHint(
  id: string,
  searched: string,
  context: SurfaceContext,
): Promise<string> {
  if (context.seedTexts) return "";
  const record = await context.outputs.get(id, context.scope);
  const lines =
    record.lineCount === null ? "" : ` (${record.lineCount.toLocaleString("en-US")} lines)`;
  const broader = getToolOutputCall({
    id,
    mode: "grep",
    pattern: broaderPattern(searched),
    regex: true,
    ignore_case: true,
  });
  const page = getToolOutputCall({ id, mode: "page", cursor: 0 });
  return (
    `\n[nothing found${lines}. Repeating this call returns the same. Try a broader search, ${broader}, or read it in order, ${page}.` +
    ` This output is only what ${record.toolName} returned for ${record.toolArgs}: if what you need may lie outside it, call ${record.toolName} again with other arguments.]`
  );
}

/** The searched text, any case, or with the words a failure is usually logged with. */
function broaderPattern(searched: string): string {
  const literal = escapeRegExp(searched);
  const failure = ["error", "fail", "exception", "fatal"];
  return [literal, ...failure.filter((w) => w !== searched.toLowerCase())].join("|");
}

import { escapeRegExp } from "../../core/escape-regexp.js";
import type { OutputRecord } from "../../store/output-store.js";
import type { SurfaceContext } from "../surface.js";
import { objectQuery, taskTermIn } from "../task-terms.js";
import { grepText } from "./grep-records.js";
import { readerFor } from "./read.js";
import { getToolOutputCall } from "./schema.js";
import { tinyOutputWhole } from "./tiny-output.js";

/**
 * Matches a grep of the task's term may find and still be a lookup, not a scan: up to this
 * many, the read shows them (termLines).
 */
export const LOOKUP_MATCHES = 3;

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
  const task = await taskTermCall(id, searched, record, context);
  return (
    `\n[nothing found${lines}. Repeating this call returns the same.${task.sentence} Try a broader search, ${broader}, or read it in order, ${page}.` +
    ` This output is only what ${record.toolName} returned for ${record.toolArgs}: if what you need may lie outside it, call ${record.toolName} again with other arguments.]` +
    task.shown +
    (await tinyOutputWhole(id, context))
  );
}

/**
 * The lines with the task's term, read here inside their records (or with 2 lines of context),
 * when there are at most LOOKUP_MATCHES: the 1.5B local model, offered the read of the
 * order the task names after its grep for "payment.auth.code" found nothing, sent that same
 * grep twice more and reported another order's code.
 */
async function termLines(id: string, term: string, context: SurfaceContext): Promise<string> {
  const result = await readerFor(
    id,
    context,
  )({ mode: "grep", pattern: term, context: 2, maxMatches: LOOKUP_MATCHES + 1 });
  if (result.matches.length === 0 || result.matches.length > LOOKUP_MATCHES) return "";
  const lines = await grepText(id, result, context, (cursor) =>
    getToolOutputCall({ id, mode: "grep", pattern: term, context: 2, cursor }),
  );
  return `\n[The lines with ${JSON.stringify(term)}, which your task names, read for you:]\n${lines}`;
}

/**
 * The read of what the task names, when the output holds it and it is not what was searched:
 * its lines shown here when they are few (termLines), else the call that reads them (in JSON the
 * whole object whose key has it as its value, else a grep for it). First among the
 * suggestions: the 1.5B local model, in a JSON order list, grepped for the key path the question
 * quoted ("payment.auth.code"), found nothing, and answered that there was no code.
 */
async function taskTermCall(
  id: string,
  searched: string,
  record: OutputRecord,
  context: SurfaceContext,
): Promise<{ sentence: string; shown: string }> {
  const none = { sentence: "", shown: "" };
  if (context.taskText === undefined) return none;
  const found = await taskTermIn(context.outputs, record, context.scope, context.taskText);
  if (found === undefined || found.term.toLowerCase() === searched.toLowerCase()) return none;
  const shown = await termLines(id, found.term, context);
  if (shown !== "")
    return {
      sentence: ` Your task names ${JSON.stringify(found.term)}: its lines follow.`,
      shown,
    };
  const call =
    found.jsonKey !== undefined
      ? getToolOutputCall({
          id,
          mode: "json",
          json_query: objectQuery(found.jsonKey, `'${found.term}'`),
        })
      : getToolOutputCall({ id, mode: "grep", pattern: found.term, context: 2 });
  const what =
    found.jsonKey !== undefined
      ? `the whole object whose ${found.jsonKey} is ${JSON.stringify(found.term)}`
      : `the lines with ${JSON.stringify(found.term)}`;
  return {
    sentence: ` Your task names ${JSON.stringify(found.term)}, which this output holds: read ${what}, ${call}.`,
    shown: "",
  };
}

/** The searched text, any case, or with the words a failure is usually logged with. */
function broaderPattern(searched: string): string {
  const literal = escapeRegExp(searched);
  const failure = ["error", "fail", "exception", "fatal"];
  return [literal, ...failure.filter((w) => w !== searched.toLowerCase())].join("|");
}

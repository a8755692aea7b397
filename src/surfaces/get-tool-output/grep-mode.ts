import { renderGrep } from "../render.js";
import type { SurfaceContext } from "../surface.js";
import { jsonObjectHint, LOOKUP_MATCHES } from "./json-object-hint.js";
import { jsonRecordsOf } from "./json-record.js";
import { nothingFoundHint } from "./nothing-found.js";
import { readerFor } from "./read.js";
import { getToolOutputCall, missingArgument, type ReadArgs } from "./schema.js";
import { tinyOutputWhole } from "./tiny-output.js";

/** mode="grep": matching lines with context and a cursor to go on. */
export async function grepMode(args: ReadArgs, context: SurfaceContext): Promise<string> {
  if (!args.pattern) {
    // The exact call, and where a misplaced query belongs: the 1.5B local model sent
    // mode="grep" with an extraction query and no pattern four turns in a row.
    const query = args.query
      ? ` "query" belongs to mode="extract": get_tool_output(id="${args.id}", mode="extract", query=${JSON.stringify(args.query)}).`
      : "";
    throw missingArgument(
      `mode="grep" needs pattern, the text to find: get_tool_output(id="${args.id}", mode="grep", pattern="ERROR", context=2).${query}${await tinyOutputWhole(args.id, context).catch(() => "")}`,
    );
  }
  const result = await readerFor(
    args.id,
    context,
  )({
    mode: "grep",
    pattern: args.pattern,
    ...(args.regex !== undefined ? { regex: args.regex } : {}),
    ...(args.ignore_case !== undefined ? { ignoreCase: args.ignore_case } : {}),
    ...(args.context !== undefined ? { context: args.context } : {}),
    ...(args.max_matches !== undefined ? { maxMatches: args.max_matches } : {}),
    ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
  });
  const hint =
    result.matches.length === 0
      ? args.cursor === undefined
        ? await nothingFoundHint(args.id, args.pattern, context)
        : ""
      : await jsonContextOf(args.id, result, context);
  const text = renderGrep(result, context.maxChars, (cursor) =>
    getToolOutputCall({
      id: args.id,
      mode: "grep",
      pattern: args.pattern,
      ...(args.regex ? { regex: true } : {}),
      ...(args.ignore_case ? { ignore_case: true } : {}),
      ...(args.context ? { context: args.context } : {}),
      cursor,
    }),
  );
  return text + hint;
}

/** A JSON grep's few matches: their whole objects when they fit, else the json call that reads one. */
async function jsonContextOf(
  id: string,
  result: Parameters<typeof jsonObjectHint>[1],
  context: SurfaceContext,
): Promise<string> {
  if (result.matches.length > LOOKUP_MATCHES) return "";
  const records = await jsonRecordsOf(
    id,
    result.matches.map((m) => m.line),
    context,
  );
  return records || jsonObjectHint(id, result, context);
}

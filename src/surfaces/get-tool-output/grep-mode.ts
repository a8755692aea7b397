import type { SurfaceContext } from "../surface.js";
import { grepText } from "./grep-records.js";
import { nothingFoundHint } from "./nothing-found.js";
import { readerFor } from "./read.js";
import { getToolOutputCall, missingArgument, type ReadArgs } from "./schema.js";
import { tinyOutputWhole } from "./tiny-output.js";

/** mode="grep": matching lines inside their records, and a cursor to go on. */
export async function grepMode(args: ReadArgs, context: SurfaceContext): Promise<string> {
  if (!args.pattern) {
    // A grep without a pattern answers with the exact call and where a misplaced query
    // belongs: a model that mixes up modes gets the fix in one step.
    // No placeholder value: an example value is what a model copies (SW-27).
    const query = args.query
      ? ` Words to look for go in mode="search": get_tool_output(id="${args.id}", mode="search", query=${JSON.stringify(args.query)}).`
      : "";
    throw missingArgument(
      `mode="grep" needs pattern, the exact text to find: get_tool_output(id="${args.id}", mode="grep", pattern, context).${query}${await tinyOutputWhole(args.id, context).catch(() => "")}`,
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
    result.matches.length === 0 && result.stoppedAtLine === null && args.cursor === undefined
      ? await nothingFoundHint(args.id, args.pattern, context)
      : "";
  const continueCall = (cursor: number) =>
    getToolOutputCall({
      id: args.id,
      mode: "grep",
      pattern: args.pattern,
      ...(args.regex ? { regex: true } : {}),
      ...(args.ignore_case ? { ignore_case: true } : {}),
      ...(args.context ? { context: args.context } : {}),
      cursor,
    });
  return (await grepText(args.id, result, context, continueCall)) + hint;
}

import type { GetToolOutputArgs } from "./schema.js";
import { getToolOutputCall } from "./schema.js";

type Mode = GetToolOutputArgs["mode"];

/**
 * The modes that read each mode-specific argument, the one a note points to first: `query` is
 * search's words and extract's question, `cursor` continues a grep or a page.
 */
const OWNERS: Readonly<Record<string, readonly [Mode, ...Mode[]]>> = {
  slice: ["slice"],
  pattern: ["grep"],
  regex: ["grep"],
  ignore_case: ["grep"],
  context: ["grep"],
  max_matches: ["grep"],
  json_query: ["json"],
  outline: ["json"],
  offset: ["json"],
  strategy: ["extract"],
  max_results: ["search"],
  max_tokens: ["page"],
  query: ["search", "extract"],
  cursor: ["grep", "page"],
};

/** The mode a note sends an unused argument to: the first of those that read it. */
const ownerOf = (key: string): Mode => OWNERS[key]![0];

/**
 * A note on the arguments a call carried for another mode, which this read did not use, with
 * the call that uses them: an argument silently ignored (a `slice` sent with `mode="grep"`)
 * leaves the model believing it read what it asked for, so it repeats the call instead of
 * fixing the mode. "" when every argument was used.
 *
 * @example
 * unusedArgumentsNote({ id: "out_1", mode: "grep", pattern: "refund", slice: { anchor: "ord_1" } });
 * // '\n[Not used in mode="grep": slice, which belongs to mode="slice": get_tool_output(id="out_1", mode="slice", slice={"anchor":"ord_1"})]'
 */
export function unusedArgumentsNote(args: GetToolOutputArgs): string {
  const unused = Object.entries(args).filter(
    ([key, value]) =>
      value !== undefined && OWNERS[key] !== undefined && !OWNERS[key].includes(args.mode),
  );
  if (unused.length === 0) return "";
  const byMode = new Map<Mode, [string, unknown][]>();
  for (const [key, value] of unused) {
    const mode = ownerOf(key);
    byMode.set(mode, [...(byMode.get(mode) ?? []), [key, value]]);
  }
  const parts = [...byMode].map(
    ([mode, entries]) =>
      `${entries.map(([k]) => k).join(", ")}, which belong${entries.length === 1 ? "s" : ""} to mode="${mode}": ${getToolOutputCall({ id: args.id, mode, ...Object.fromEntries(entries) })}`,
  );
  return `\n[Not used in mode="${args.mode}": ${parts.join("; ")}]`;
}

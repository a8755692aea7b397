import type { GrepResult } from "../../retrieval/grep.js";
import type { SurfaceContext } from "../surface.js";
import { getToolOutputCall } from "./schema.js";

/**
 * Matches a grep may find and still be a lookup, not a scan: up to this many, a read shows the
 * matches' JSON objects or the lines with the task's term (grep-mode.ts, nothing-found.ts).
 */
export const LOOKUP_MATCHES = 3;

/**
 * The JSONPath query for every object whose `key` holds `literal` (a number, or a string in
 * single quotes: nothing to escape inside a call's double-quoted argument).
 */
const objectQuery = (key: string, literal: string) => `$..[?(@.${key}==${literal})]`;

/** `"key": value` on a line of pretty-printed JSON: a string without quotes inside, or a number. */
const MEMBER = /"([A-Za-z_$][\w$]*)"\s*:\s*(?:"([^"'\\]*)"|(-?\d+(?:\.\d+)?))\s*,?\s*$/;

/**
 * After a grep of a JSON output that found a `"key": value` line: the query that returns the
 * whole object holding it. A grep's context lines stop short of nested fields; the 1.5B local
 * model grepped an order list for the order's id, got the one line `"id": "ord_89309srrp",`,
 * repeated the grep three times, and reported the outline's example value as the order's code.
 *
 * @example
 * await jsonObjectHint("out_1", grepResult, context);
 * // '\n[That line is a member of a JSON object. The whole object: get_tool_output(id="out_1", mode="json", json_query="$..[?(@.id==\'ord_1\')]")]'
 */
export async function jsonObjectHint(
  id: string,
  result: Pick<GrepResult, "matches">,
  context: SurfaceContext,
): Promise<string> {
  if (context.seedTexts) return "";
  if (result.matches.length === 0 || result.matches.length > LOOKUP_MATCHES) return "";
  const record = await context.outputs.get(id, context.scope);
  if (record.kind !== "json" && record.kind !== "ndjson") return "";
  for (const match of result.matches) {
    const member = MEMBER.exec(match.text);
    if (!member) continue;
    const [, key, text, number] = member;
    const value = text !== undefined ? `'${text}'` : number;
    const call = getToolOutputCall({ id, mode: "json", json_query: objectQuery(key!, value!) });
    return `\n[That line is a member of a JSON object. The whole object: ${call}]`;
  }
  return "";
}

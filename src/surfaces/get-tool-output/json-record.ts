import type { SurfaceContext } from "../surface.js";
import { readerFor } from "./read.js";

/** Lines an object may span and still be shown whole beside a grep match. */
export const MAX_RECORD_LINES = 60;
/** Characters of objects shown after one grep, all matches together. */
const MAX_RECORD_CHARS = 4_000;

/** A `"key": value` member line of pretty-printed JSON (the value may open an object). */
const MEMBER_LINE = /^\s*"[^"]+"\s*:/;

const indentOf = (line: string) => line.length - line.trimStart().length;

export interface JsonRecord {
  /** 1-based first and last line of the object. */
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
}

/**
 * The object of pretty-printed JSON that holds member line `line`, found by indentation: the
 * nearest line above indented less that opens an object, down to the line at that indentation
 * that closes it. `null` when the line is not an object member, or the object spans more than
 * MAX_RECORD_LINES lines.
 *
 * @example
 * recordAround(['[', '  {', '    "id": "ord_1",', '    "code": "X"', '  }', ']'], 1, 3);
 * // { start: 2, end: 5, lines: ['  {', '    "id": "ord_1",', '    "code": "X"', '  }'] }
 */
export function recordAround(
  window: readonly string[],
  firstLine: number,
  line: number,
): JsonRecord | null {
  const at = line - firstLine;
  const member = window[at];
  if (member === undefined || !MEMBER_LINE.test(member)) return null;
  const indent = indentOf(member);
  let open = -1;
  for (let i = at - 1; i >= 0 && at - i < MAX_RECORD_LINES; i--) {
    const text = window[i]!;
    if (text.trim() === "" || indentOf(text) >= indent) continue;
    if (!text.trimEnd().endsWith("{")) return null;
    open = i;
    break;
  }
  if (open < 0) return null;
  const closeIndent = indentOf(window[open]!);
  for (let i = at + 1; i < window.length && i - open < MAX_RECORD_LINES; i++) {
    const text = window[i]!;
    if (indentOf(text) === closeIndent && text.trimStart().startsWith("}"))
      return { start: firstLine + open, end: firstLine + i, lines: window.slice(open, i + 1) };
    if (text.trim() !== "" && indentOf(text) < closeIndent) return null;
  }
  return null;
}

/**
 * After a grep of pretty-printed JSON that found a few member lines: each match's whole
 * object, numbered, so the record's other fields are in the same result. The 1.5B local model
 * grepped an order list for the order's id, got only the `"id"` line (its code was 20 lines
 * further down), and reported another order's code; a hint naming the json call it did not
 * follow. "" when nothing fits (the caller then gives the json hint), and in seed-exact sessions.
 *
 * @example
 * await jsonRecordsOf("out_1", [1004], context);
 * // '\n[Line 1004 is inside this JSON object, lines 990-1018:]\n990- {\n1004- "id": "ord_1",\n…'
 */
export async function jsonRecordsOf(
  id: string,
  matchLines: readonly number[],
  context: SurfaceContext,
): Promise<string> {
  if (context.seedTexts || matchLines.length === 0) return "";
  const record = await context.outputs.get(id, context.scope);
  if (record.kind !== "json" || record.status !== "ready") return "";
  const read = readerFor(id, context);
  const shown: JsonRecord[] = [];
  const parts: string[] = [];
  let used = 0;
  for (const line of matchLines) {
    if (shown.some((r) => r.start <= line && line <= r.end)) continue;
    const firstLine = Math.max(1, line - MAX_RECORD_LINES);
    const slice = await read({
      mode: "slice",
      lineStart: firstLine,
      lineEnd: line + MAX_RECORD_LINES,
      maxChars: 64_000,
    }).catch(() => null);
    if (!slice?.found) continue;
    const found = recordAround(slice.text.split("\n"), firstLine, line);
    if (!found) continue;
    const body = found.lines.map((text, i) => `${found.start + i}- ${text}`).join("\n");
    if (used + body.length > MAX_RECORD_CHARS) break;
    used += body.length;
    shown.push(found);
    parts.push(
      `\n[Line ${line} is inside this JSON object, lines ${found.start}-${found.end}:]\n${body}`,
    );
  }
  return parts.join("");
}

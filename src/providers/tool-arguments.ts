/**
 * A tool call's arguments, parsed. Arguments must be one JSON object; a small model sometimes
 * writes a key as a keyword argument inside it (`{"id": "out_1", pattern="key", context=2}`),
 * the way example calls read in prose. Such a key is read as the JSON key it stands for, and
 * only when the whole text then parses: anything else stays an error naming the JSON fault.
 */

/** The parsed arguments, or why they are not JSON; `repaired` is the JSON that was read. */
export type ParsedArguments =
  | { readonly ok: true; readonly value: unknown; readonly repaired?: string }
  | { readonly ok: false; readonly reason: string };

/** A bare name and `=` right after `{` or `,` (not `==`): a keyword argument. */
const KEYWORD = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/;

/**
 * The text with each keyword argument outside strings (`name=`, right after `{` or `,`) written
 * as a JSON key (`"name":`), or undefined when it has none.
 *
 * @example
 * keywordsAsKeys('{"mode": "grep", pattern="a=b", context=2}');
 * // '{"mode": "grep", "pattern":"a=b", "context":2}'
 */
export function keywordsAsKeys(text: string): string | undefined {
  let out = "";
  let inString = false;
  let afterOpener = false;
  let changed = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (inString) {
      out += char;
      if (char === "\\") out += text[++at] ?? "";
      else if (char === '"') inString = false;
      continue;
    }
    if (afterOpener && /\S/.test(char)) {
      afterOpener = false;
      const keyword = KEYWORD.exec(text.slice(at, at + 200));
      if (keyword) {
        out += `"${keyword[1]}":`;
        at += keyword[0].length - 1;
        changed = true;
        continue;
      }
    }
    if (char === '"') inString = true;
    else if (char === "{" || char === ",") afterOpener = true;
    out += char;
  }
  return changed ? out : undefined;
}

/**
 * Parses a tool call's arguments: JSON, or JSON once its keyword arguments are read as keys.
 * Empty text is no arguments.
 *
 * @example
 * parseToolArguments('{"id": "out_1", "mode": "grep", pattern="key"}');
 * // { ok: true, value: { id: "out_1", mode: "grep", pattern: "key" }, repaired: '{"id": "out_1", "mode": "grep", "pattern":"key"}' }
 */
export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = (error as Error).message;
    const repaired = keywordsAsKeys(text);
    if (repaired === undefined) return { ok: false, reason };
    try {
      return { ok: true, value: JSON.parse(repaired) as unknown, repaired };
    } catch {
      return { ok: false, reason };
    }
  }
}

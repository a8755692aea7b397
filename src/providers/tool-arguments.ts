/**
 * A tool call's arguments, parsed. Arguments must be one JSON object. Two slips small models
 * make are read instead of refused, each only when the whole text then parses (anything else
 * stays an error naming the JSON fault): a key written as a keyword argument inside the object
 * (`{"id": "out_1", pattern="key", context=2}`, the way example calls read in prose), and a
 * string value holding double quotes or line breaks it did not escape (a report quoting a log
 * line whose fields are quoted: `{"report": "the line is "GET /" 502"}`).
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
 * After a string value, what ends it: the object's or array's end, or the next member. A key
 * right after it (a comma left out) ends it too, so that such text stays an error.
 */
const VALUE_END =
  /^\s*(?:$|[}\]:]|"[^"\\]*"\s*:|,\s*(?:"[^"\\]*"\s*:|[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)))/;
const VALUE_END_IN_ARRAY = /^\s*(?:$|[}\],])/;

/**
 * The text with the double quotes and line breaks inside string values escaped, or undefined
 * when it has none. A quote in a value ends it only where the value can end (before `}`, `]`,
 * or a `,` that opens the next member); any other is the value's own and is escaped. Keys end
 * at their first quote.
 *
 * @example
 * innerQuotesEscaped('{"report": "the line "GET /" 502", "n": 1}');
 * // '{"report": "the line \\"GET /\\" 502", "n": 1}'
 */
export function innerQuotesEscaped(text: string): string | undefined {
  let out = "";
  let changed = false;
  const containers: string[] = [];
  let string: "key" | "value" | undefined;
  let lastSignificant = "";
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (string !== undefined) {
      if (char === "\\") {
        out += char + (text[at + 1] ?? "");
        at++;
      } else if (char === "\n" || char === "\r" || char === "\t") {
        out += char === "\n" ? "\\n" : char === "\r" ? "\\r" : "\\t";
        changed = true;
      } else if (char !== '"') out += char;
      else if (string === "key" || endsValue(text.slice(at + 1, at + 201), containers.at(-1))) {
        out += char;
        string = undefined;
        lastSignificant = '"';
      } else {
        out += '\\"';
        changed = true;
      }
      continue;
    }
    if (char === '"') {
      const inObject = containers.at(-1) === "{";
      string = inObject && (lastSignificant === "{" || lastSignificant === ",") ? "key" : "value";
    } else if (char === "{" || char === "[") containers.push(char);
    else if (char === "}" || char === "]") containers.pop();
    if (/\S/.test(char)) lastSignificant = char;
    out += char;
  }
  return changed ? out : undefined;
}

function endsValue(after: string, container: string | undefined): boolean {
  return (container === "[" ? VALUE_END_IN_ARRAY : VALUE_END).test(after);
}

/** Parses text that may be JSON, or undefined. */
function parsedJson(text: string | undefined): { value: unknown } | undefined {
  if (text === undefined) return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Parses a tool call's arguments: JSON, or JSON once its keyword arguments are read as keys
 * and the quotes and line breaks inside its string values are escaped. Empty text is no
 * arguments.
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
    const escaped = innerQuotesEscaped(text);
    const keyed = keywordsAsKeys(escaped ?? text);
    for (const repaired of [keywordsAsKeys(text), escaped, keyed]) {
      const parsed = parsedJson(repaired);
      if (parsed) return { ok: true, value: parsed.value, repaired: repaired! };
    }
    return { ok: false, reason };
  }
}

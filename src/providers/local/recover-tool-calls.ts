/**
 * Small instruct models sometimes write a tool call as text: the JSON object their chat
 * template asks for (`{"name": …, "arguments": …}`), but inside a Markdown code block or
 * without the `<tool_call>` tags, so the function-calling grammar never engaged. When a whole
 * reply is nothing but such calls to tools the model was given, it meant to call them: this
 * turns the text into the calls. Anything else (prose around the JSON, an unknown tool) stays
 * text. A reply that is plainly one call to a known tool with broken arguments becomes that
 * call with the arguments as written (`malformedToolCall`): the caller's JSON check then sends
 * the model an error naming the tool, and the model can try again, instead of its call being
 * shown back to it as its own prose.
 */

import { isPlainObject } from "../../core/check-arguments.js";

/** A call read back from a reply's text. */
export interface RecoveredCall {
  readonly toolName: string;
  /** The arguments as JSON text. */
  readonly input: string;
}

const FENCE = /^```[a-zA-Z]*\s*\n?([\s\S]*?)\n?```$/;
const TAGGED = /^<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>)?$/;

/** Where the first balanced `{…}` or `[…]` of `text` ends (strings respected); -1 if it does not. */
export function balancedEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Splits text into top-level JSON values separated by whitespace; undefined if it is not that. */
function jsonValues(text: string): unknown[] | undefined {
  const values: unknown[] = [];
  let rest = text.trim();
  while (rest !== "") {
    if (rest[0] !== "{" && rest[0] !== "[") return undefined;
    const end = balancedEnd(rest);
    if (end < 0) return undefined;
    try {
      values.push(JSON.parse(rest.slice(0, end)) as unknown);
    } catch {
      return undefined;
    }
    rest = rest.slice(end).trim();
    const tagged = /^(?:<\/?tool_call>\s*)+/.exec(rest);
    if (tagged) rest = rest.slice(tagged[0].length).trim();
  }
  return values;
}

function unwrap(text: string): string {
  let body = text.trim();
  for (let i = 0; i < 2; i++) {
    const fenced = FENCE.exec(body);
    if (fenced) body = (fenced[1] ?? "").trim();
    const tagged = TAGGED.exec(body);
    if (tagged) body = (tagged[1] ?? "").trim();
  }
  return body;
}

/**
 * The tool calls a reply's text stands for, or undefined when the text is not only calls to
 * known tools.
 *
 * @example
 * recoverToolCalls('```json\n{"name": "grep", "arguments": {"pattern": "ERROR"}}\n```', new Set(["grep"]));
 * // [{ toolName: "grep", input: '{"pattern":"ERROR"}' }]
 */
export function recoverToolCalls(
  text: string,
  tools: ReadonlySet<string>,
): RecoveredCall[] | undefined {
  if (tools.size === 0) return undefined;
  const body = unwrap(text);
  if (!body.startsWith("{") && !body.startsWith("[")) return undefined;
  const values = jsonValues(body);
  if (!values || values.length === 0) return undefined;
  const flat = values.flatMap((value) => (Array.isArray(value) ? value : [value]));
  const calls: RecoveredCall[] = [];
  for (const value of flat) {
    if (!isPlainObject(value) || typeof value.name !== "string" || !tools.has(value.name))
      return undefined;
    const args = value.arguments ?? value.parameters ?? {};
    const parsed = typeof args === "string" ? safeParse(args) : args;
    if (!isPlainObject(parsed)) return undefined;
    calls.push({ toolName: value.name, input: JSON.stringify(parsed) });
  }
  return calls;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** True while `text` (a reply streamed so far) could still turn out to be only tool calls. */
export function mayBeToolCallText(text: string): boolean {
  const start = text.trimStart();
  if (start === "") return true;
  return (
    start.startsWith("{") ||
    start.startsWith("[") ||
    "```".startsWith(start.slice(0, 3)) ||
    start.startsWith("```") ||
    "<tool_call>".startsWith(start.slice(0, 11))
  );
}

/** `{"name": "<tool>", "arguments": <anything>}`, the shape a chat template asks for. */
const CALL_SHAPE =
  /^\{\s*"name"\s*:\s*"([^"\\]+)"\s*,\s*"(?:arguments|parameters)"\s*:\s*([\s\S]*?)\s*\}$/;

/**
 * A reply that is a single call to a known tool whose arguments are not valid JSON, as that
 * call: with its arguments repaired when they have only the `"key=value"` slip
 * (`repairedArguments`), else kept verbatim (the caller then answers with an error naming the
 * tool); undefined for anything else (including a call `recoverToolCalls` can read). Only for
 * a whole reply: while streaming, text is incomplete.
 *
 * @example
 * malformedToolCall('{"name": "get_tool_output", "arguments": {"id": "out_1", "context=2"}}', new Set(["get_tool_output"]));
 * // { toolName: "get_tool_output", input: '{"id":"out_1","context":2}' }
 * malformedToolCall('{"name": "get_tool_output", "arguments": {"id": "out_1", "mode"}}', new Set(["get_tool_output"]));
 * // { toolName: "get_tool_output", input: '{"id": "out_1", "mode"}' }
 */
export function malformedToolCall(
  text: string,
  tools: ReadonlySet<string>,
): RecoveredCall | undefined {
  if (recoverToolCalls(text, tools)) return undefined;
  const body = unwrap(text);
  // The whole reply must be one balanced object: a prefix of a call still being written is not.
  if (balancedEnd(body) !== body.length) return undefined;
  const shape = CALL_SHAPE.exec(body);
  if (!shape || !tools.has(shape[1]!)) return undefined;
  const input = shape[2]!.trim();
  if (!input.startsWith("{")) return undefined;
  return { toolName: shape[1]!, input: repairedArguments(input) ?? input };
}

/** `"context=2"` where `"context": 2` belongs, before a `,` or the closing `}`. */
const KEY_EQUALS_VALUE = /"([A-Za-z_][\w]*)=([^"\\]*)"(?=\s*[,}])/g;

/**
 * Arguments with the slip small models make copying the `name(key=value)` calls spillway's
 * texts show into JSON (measured in docs/local-models.md, "How it runs"): a member written
 * `"context=2"`. Rewritten as `"context": 2`
 * (a number or true/false stays one, anything else is a string), when that makes the whole
 * object valid JSON; undefined otherwise, and the call goes back to the model as an error.
 *
 * @example
 * repairedArguments('{"pattern": "ERROR", "context=2"}'); // '{"pattern":"ERROR","context":2}'
 */
export function repairedArguments(input: string): string | undefined {
  if (input.search(KEY_EQUALS_VALUE) < 0) return undefined;
  const rewritten = input.replace(KEY_EQUALS_VALUE, (_all, key: string, value: string) => {
    const literal = /^(?:-?\d+(?:\.\d+)?|true|false)$/.test(value) ? value : JSON.stringify(value);
    return `${JSON.stringify(key)}: ${literal}`;
  });
  const parsed = safeParse(rewritten);
  return isPlainObject(parsed) ? JSON.stringify(parsed) : undefined;
}

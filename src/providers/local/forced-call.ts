/**
 * `toolChoice: "required"` and `toolChoice: { type: "tool" }` for local models. node-llama-cpp
 * offers functions but cannot require a call, and a small model offered only `agent__final_report`
 * may reply with nothing, which ends the session without a report although the model has read the
 * answer. So a required call is started for the model: its reply is prefilled with the chat
 * template's call syntax (and, when one tool is possible, its name and the opening of its
 * arguments), and the model writes the rest. The prompt before the reply is unchanged, so the
 * cached prefix of the previous turn still holds.
 */
import type { ChatHistoryItem } from "node-llama-cpp";
import { innerQuotesEscaped } from "../tool-arguments.js";
import {
  balancedEnd,
  malformedToolCall,
  type RecoveredCall,
  recoverToolCalls,
} from "./recover-tool-calls.js";

/** The parts of a chat wrapper's call syntax this needs (node-llama-cpp's `settings`). */
export interface CallSyntax {
  readonly prefix: unknown;
  readonly paramsPrefix: unknown;
}

/** A tool the call may go to, with its argument schema as given to the grammar. */
export interface ForcedTool {
  readonly name: string;
  readonly params?: unknown;
}

/** A call started for the model: the reply's prefill and how to read the rest. */
export interface ForcedCall {
  /** Text the model's reply starts with. */
  readonly prefill: string;
  /** The call once `continuation` (what the model wrote after the prefill) completes it. */
  read(continuation: string): RecoveredCall | undefined;
  /**
   * Like `read`, for a whole reply: also reads a call whose closing braces were left out or whose
   * strings hold quotes, tabs or line breaks left unescaped, and a sole string argument the model
   * left unclosed.
   */
  readLeniently(continuation: string): RecoveredCall | undefined;
  /**
   * The call `continuation` completes, or, when it is complete but broken, that call as written
   * (answered with an error naming the tool); undefined while it may still be completing.
   * `lenient` for the whole reply, once generation has ended.
   */
  settle(continuation: string, lenient?: boolean): RecoveredCall | undefined;
  /**
   * A whole reply nothing else reads, as the call it is: the provider started it in the call
   * syntax, so it is a call, never prose. The tool as named (known or not) and the arguments as
   * written (cut short, or not an object): the caller answers it with an error about that call.
   * Undefined when no tool name can be read.
   */
  asWritten(continuation: string): RecoveredCall | undefined;
}

/** The text of a chat-wrapper setting: a string, or a LlamaText of strings and special tokens. */
export function syntaxText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && "values" in value) {
    const values = (value as { values: readonly unknown[] }).values;
    return values.map(syntaxText).join("");
  }
  if (value && typeof value === "object" && "value" in value) {
    const inner = (value as { value: unknown }).value;
    return typeof inner === "string" ? inner : "";
  }
  return "";
}

/** The only property of a schema when it is a string, the one argument a report-like tool takes. */
function soleStringProperty(params: unknown): string | undefined {
  if (!params || typeof params !== "object") return undefined;
  const properties = (params as { properties?: Record<string, { type?: unknown }> }).properties;
  if (!properties) return undefined;
  const names = Object.keys(properties);
  if (names.length !== 1) return undefined;
  return properties[names[0]!]?.type === "string" ? names[0] : undefined;
}

/** A string value as the model wrote it, up to where its closing quote (or the reply) ends. */
function looseString(raw: string): string {
  const closed = /"\s*\}*\s*(?:<\/tool_call>)?\s*$/.exec(raw);
  const body = closed ? raw.slice(0, closed.index) : raw.trimEnd();
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body.replaceAll('\\"', '"').replaceAll("\\n", "\n");
  }
}

/**
 * Starts a required call. With one possible tool the prefill names it and, when its only
 * argument is a string, opens that string: the model writes only the value.
 *
 * @example
 * const forced = forcedCall({ prefix: '<tool_call>\n{"name": "', paramsPrefix: '", "arguments": ' },
 *   [{ name: "agent__final_report", params: { type: "object", properties: { report: { type: "string" } } } }]);
 * forced.prefill; // '<tool_call>\n{"name": "agent__final_report", "arguments": {"report": "'
 * forced.read('E-7734"}}'); // { toolName: "agent__final_report", input: '{"report":"E-7734"}' }
 */
export function forcedCall(syntax: CallSyntax, tools: readonly ForcedTool[]): ForcedCall {
  const known = new Set(tools.map((tool) => tool.name));
  const callPrefix = syntaxText(syntax.prefix);
  const only = tools.length === 1 ? tools[0]! : undefined;
  const stringArgument = only ? soleStringProperty(only.params) : undefined;
  const argumentsStart = stringArgument ? `{${JSON.stringify(stringArgument)}: "` : "";
  const prefill = only
    ? `${callPrefix}${only.name}${syntaxText(syntax.paramsPrefix)}${argumentsStart}`
    : callPrefix;
  const read = (continuation: string) => {
    const calls = recoverToolCalls(closeAt(prefill + continuation), known);
    return calls?.length === 1 ? calls[0] : undefined;
  };
  const readLeniently = (continuation: string) => {
    const strict = read(continuation) ?? readRepaired(prefill + continuation, known);
    if (strict) return strict;
    if (only && stringArgument) {
      const value = looseString(continuation);
      return { toolName: only.name, input: JSON.stringify({ [stringArgument]: value }) };
    }
    return only ? undefined : soleStringAsWritten(prefill + continuation, tools);
  };
  return {
    prefill,
    read,
    readLeniently,
    settle: (continuation, lenient = false) =>
      (lenient ? readLeniently : read)(continuation) ??
      malformedToolCall(prefill + continuation, known),
    asWritten: (continuation) => callAsWritten(prefill + continuation),
  };
}

/** `{"<key>": "` opening arguments: the key as written, and where its string value starts. */
const OPENED_STRING = /^\{\s*("(?:[^"\\]|\\.)*")\s*:\s*"/;

/**
 * A call the model named, to a tool whose only argument is a string, with that string left
 * unclosed (its generation ended inside it): the string as written, as when the provider opened
 * it (the single-tool prefill above). A report cut by the reply's length limit is the report
 * written up to there.
 */
function soleStringAsWritten(
  text: string,
  tools: readonly ForcedTool[],
): RecoveredCall | undefined {
  const call = callAsWritten(text);
  const tool = call && tools.find((candidate) => candidate.name === call.toolName);
  const argument = tool && soleStringProperty(tool.params);
  if (!call || !argument) return undefined;
  const opened = OPENED_STRING.exec(call.input);
  if (opened?.[1] !== JSON.stringify(argument)) return undefined;
  const value = looseString(call.input.slice(opened[0].length));
  return { toolName: call.toolName, input: JSON.stringify({ [argument]: value }) };
}

/** `{"name": "<tool>"` and, when written, `, "arguments": <the rest>`: the call syntax's start. */
const CALL_START =
  /^\{\s*"name"\s*:\s*"([^"\\\n]{1,200})"\s*(?:,\s*"(?:arguments|parameters)"\s*:\s*([\s\S]*)|\}?)$/;

/**
 * The tool a reply in the call syntax names and its arguments as written: the call's own
 * closing brace is not part of them when the reply closed it; `{}` when none were written.
 */
function callAsWritten(text: string): RecoveredCall | undefined {
  const whole = text.trim().replace(/^<tool_call>\s*/, "");
  // A closed call ends where its object closes: what follows (a tag, another call) is not in it.
  const end = balancedEnd(whole);
  const body = end > 0 ? whole.slice(0, end) : whole.replace(/\s*<\/tool_call>$/, "");
  const start = CALL_START.exec(body);
  if (!start) return undefined;
  const written = (start[2] ?? "").trim();
  const input = end > 0 && written.endsWith("}") ? written.slice(0, -1).trimEnd() : written;
  return { toolName: start[1]!, input: input === "" ? "{}" : input };
}

/** What a whole reply may leave out after its last string: the call's closing braces. */
const CLOSINGS = ["", "}", "}}"];

/**
 * The one call a whole reply's text stands for once what a small model leaves out is put back:
 * the closing braces after its last string (its generation ended there), and the escapes of
 * quotes, tabs and line breaks inside its strings. Undefined when no such repair makes it one
 * call to a known tool; a string left unclosed is not read here.
 */
function readRepaired(text: string, known: ReadonlySet<string>): RecoveredCall | undefined {
  const body = text.trimEnd().replace(/\s*<\/tool_call>$/, "");
  for (const closing of CLOSINGS) {
    const closed = body + closing;
    for (const candidate of [closed, innerQuotesEscaped(closed)]) {
      if (candidate === undefined || (closing === "" && candidate === closed)) continue;
      const calls = recoverToolCalls(closeAt(candidate), known);
      if (calls?.length === 1) return calls[0];
    }
  }
  return undefined;
}

/** The text up to where its first JSON object closes, so trailing tags or prose do not count. */
function closeAt(text: string): string {
  const start = text.indexOf("{");
  const end = start < 0 ? -1 : balancedEnd(text.slice(start));
  return end < 0 ? text : text.slice(0, start + end);
}

/**
 * Starts the model's reply with `text`: node-llama-cpp continues a history's last model item,
 * so the text goes into it (after the results of its calls) or into a new one.
 */
export function prefillReply(history: ChatHistoryItem[], text: string): void {
  const last = history[history.length - 1];
  if (last?.type === "model") last.response.push(text);
  else history.push({ type: "model", response: [text] });
}

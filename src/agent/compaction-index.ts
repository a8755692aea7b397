import type { CoveredCall, HistoryMessage, ToolResultRef } from "../store/history.js";

/**
 * The machine-built index of the calls a compaction covers: tool name, call id and output
 * handles, taken from the canonical history (never from the summarizer's text), so every
 * earlier output stays reachable whatever the model wrote.
 */

/** The handles a result holds (its output, attachments, a batch's items), and the output a read read. */
function handlesOf(ref: ToolResultRef, into: string[]): string | undefined {
  switch (ref.kind) {
    case "output":
      into.push(ref.outputId, ...(ref.attachments ?? []));
      return undefined;
    case "async":
      into.push(ref.outputId);
      return undefined;
    case "batch": {
      let read: string | undefined;
      for (const item of ref.items) read = handlesOf(item.ref, into) ?? read;
      return read;
    }
    case "retrieval":
      return ref.outputId;
    default:
      return undefined;
  }
}

function isErrorRef(ref: ToolResultRef): boolean {
  if (ref.kind === "error") return true;
  if (ref.kind === "output") return ref.isError;
  if (ref.kind === "retrieval") return ref.isError === true;
  return false;
}

/**
 * The calls made in `messages`, each with its result's handles, in call order.
 *
 * @example
 * coveredCallsOf(messages); // [{ turn: 3, toolCallId: "call_1", toolName: "fs__read", outputIds: ["out_…"], … }]
 */
export function coveredCallsOf(messages: readonly HistoryMessage[]): CoveredCall[] {
  const calls = new Map<string, CoveredCall>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === "tool-call") {
        calls.set(part.toolCallId, {
          turn: message.turn,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          argsText: part.argsText,
          outputIds: [],
          isError: false,
        });
      } else if (part.type === "tool-result") {
        const call = calls.get(part.toolCallId);
        const outputIds: string[] = [];
        const read = handlesOf(part.result, outputIds);
        calls.set(part.toolCallId, {
          turn: call?.turn ?? message.turn,
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          argsText: call?.argsText ?? "",
          outputIds: [...new Set(outputIds)],
          ...(read !== undefined ? { readOutputId: read } : {}),
          isError: isErrorRef(part.result),
        });
      }
    }
  }
  return [...calls.values()];
}

/** Characters of a call's arguments shown in the summary's index (the stored index has them all). */
const INDEX_ARGS_CHARS = 80;

/** One line of the index; `argsChars` clips the arguments (Infinity: whole). */
export function indexLine(call: CoveredCall, argsChars = INDEX_ARGS_CHARS): string {
  const outputs =
    call.outputIds.length > 0
      ? ` → ${call.outputIds.join(", ")}`
      : call.readOutputId
        ? ` (read ${call.readOutputId})`
        : "";
  const args = call.argsText.replace(/\s+/g, " ");
  const shown = args.length > argsChars ? `${args.slice(0, argsChars)}…` : args;
  return `t${call.turn} · ${call.toolName} · ${call.toolCallId}${outputs}${call.isError ? " · error" : ""}${shown ? ` · ${shown}` : ""}`;
}

/** The whole index as stored beside the summary: every call covered so far, arguments whole. */
export function fullIndexText(calls: readonly CoveredCall[]): string {
  return `${calls.map((call) => indexLine(call, Number.POSITIVE_INFINITY)).join("\n")}\n`;
}

/** How the model reads an output again, by surface. */
export function readAgainHint(surface: string, outputsReadable: boolean): string {
  if (!outputsReadable)
    return "Stored outputs cannot be read in this session (toolOutput is disabled); the ids above are for the record.";
  if (surface === "tool_output")
    return 'Read any output above again with tool_output(handle="out_…", extract="what you need"); the handles stay valid for the whole session.';
  if (surface === "get_continuation")
    return 'Read any result above again with get_continuation(tool_call_id="…", offset=0); the call ids stay valid for the whole session.';
  return 'Read any output above again with get_tool_output(id="out_…", mode="slice"|"grep"|"page"); the handles stay valid for the whole session.';
}

/** How the model searches the stored index, by surface. */
function searchHint(surface: string, indexOutputId: string): string {
  if (surface === "tool_output")
    return `tool_output(handle="${indexOutputId}", extract="the lines for <tool name, call id or argument>")`;
  if (surface === "get_continuation") return `the stored output ${indexOutputId}`;
  return `get_tool_output(id="${indexOutputId}", mode="grep", pattern="<tool name, call id or argument>")`;
}

/**
 * The index as the summary shows it: the newest calls whose lines fit `maxTokens`, in order,
 * after a line naming the stored index that lists the older ones.
 */
export function renderIndex(options: {
  readonly calls: readonly CoveredCall[];
  readonly maxTokens: number;
  readonly count: (text: string) => number;
  readonly indexOutputId: string | null;
  readonly surface: string;
  readonly outputsReadable: boolean;
}): string {
  const { calls } = options;
  if (calls.length === 0) return "No tool calls were made in those turns.";
  const lines: string[] = [];
  let tokens = 0;
  for (let i = calls.length - 1; i >= 0; i--) {
    const line = `  ${indexLine(calls[i]!)}`;
    const lineTokens = options.count(line) + 1;
    if (tokens + lineTokens > options.maxTokens && lines.length > 0) break;
    tokens += lineTokens;
    lines.push(line);
  }
  lines.reverse();
  const older = calls.length - lines.length;
  const head = "Tool calls in those turns (turn · tool · call id → stored output · arguments):";
  const olderLine =
    older === 0
      ? []
      : options.indexOutputId
        ? [
            `  (${older} older call${older === 1 ? " is" : "s are"} listed in the stored index ${options.indexOutputId}, one line a call; search it with ${searchHint(options.surface, options.indexOutputId)})`,
          ]
        : [`  (${older} older call${older === 1 ? "" : "s"} not listed here)`];
  return [
    head,
    ...olderLine,
    ...lines,
    readAgainHint(options.surface, options.outputsReadable),
  ].join("\n");
}

/**
 * AI SDK prompts as node-llama-cpp chat histories. A model's turn in node-llama-cpp is one
 * `model` item holding its text and its function calls *with their results*; the chat
 * template renders each result right after its call. So an assistant message's tool calls
 * take their results from the tool messages that follow, and assistant messages separated
 * only by tool results are one model turn (the way node-llama-cpp records its own history).
 * Consecutive user messages are joined into one user turn.
 */
import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from "node-llama-cpp";
import { SpillwayError } from "../../core/errors.js";

/** A tool result as the model reads it: text as is, anything else as JSON. */
export function toolResultText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return `The tool call was denied${output.reason ? `: ${output.reason}` : "."}`;
    case "content":
      return output.value
        .map((part) => (part.type === "text" ? part.text : `[${part.type} omitted]`))
        .join("\n");
    default:
      return JSON.stringify(output);
  }
}

function unsupported(what: string): SpillwayError {
  return new SpillwayError(
    "INVALID_ARGUMENT",
    `Local models take text only; this prompt has ${what}.`,
    { unsupported: what },
  );
}

/**
 * Maps an AI SDK prompt to a node-llama-cpp chat history. Tool results are joined to their
 * calls by id; a call without a result keeps an empty result (the history is still faithful
 * to what was said). Files are not supported (INVALID_ARGUMENT).
 *
 * @example
 * promptToHistory([
 *   { role: "system", content: "Be brief." },
 *   { role: "user", content: [{ type: "text", text: "Hi" }] },
 * ]);
 * // [{ type: "system", text: "Be brief." }, { type: "user", text: "Hi" }]
 */
export function promptToHistory(prompt: LanguageModelV3Prompt): ChatHistoryItem[] {
  const results = new Map<string, string>();
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") results.set(part.toolCallId, toolResultText(part.output));
    }
  }
  const history: ChatHistoryItem[] = [];
  // The model item the next assistant message joins (set while only tool results came after it).
  let openTurn: ChatModelResponse | undefined;
  for (const message of prompt) {
    switch (message.role) {
      case "system":
        history.push({ type: "system", text: message.content });
        openTurn = undefined;
        break;
      case "user": {
        const texts: string[] = [];
        for (const part of message.content) {
          if (part.type === "text") texts.push(part.text);
          else throw unsupported(`a file part (${part.mediaType})`);
        }
        // Consecutive user messages are one user turn (spillway's per-turn notice follows the
        // task): sent as two, a small model answers the last one, the notice, instead of the
        // task (measured in docs/local-models.md, "How it runs").
        const previous = history[history.length - 1];
        if (previous?.type === "user") previous.text = `${previous.text}\n\n${texts.join("\n")}`;
        else history.push({ type: "user", text: texts.join("\n") });
        openTurn = undefined;
        break;
      }
      case "assistant": {
        const turn: ChatModelResponse = openTurn ?? { type: "model", response: [] };
        if (!openTurn) history.push(turn);
        let firstCall = true;
        for (const part of message.content) {
          if (part.type === "text" || part.type === "reasoning") {
            if (part.text !== "") turn.response.push(part.text);
          } else if (part.type === "tool-call") {
            const call: ChatModelFunctionCall = {
              type: "functionCall",
              name: part.toolName,
              params: part.input,
              result: results.get(part.toolCallId) ?? "",
              ...(firstCall ? { startsNewChunk: true } : {}),
            };
            firstCall = false;
            turn.response.push(call);
          } else if (part.type === "file") {
            throw unsupported(`a file part (${part.mediaType})`);
          }
          // A tool-result part inside an assistant message (provider-executed tools) is not
          // produced by this provider; its call already carries the result.
        }
        // Calls keep the turn open for the assistant message after their results.
        openTurn = turn.response.some((item) => typeof item !== "string") ? turn : undefined;
        break;
      }
      case "tool":
        // Results were joined to their calls above; the turn stays open.
        break;
    }
  }
  return history;
}

/**
 * Two corrections to node-llama-cpp's chat wrappers, so the prompt is what the model's own
 * chat template would render.
 */
import type { ChatWrapper } from "node-llama-cpp";
import type { NodeLlamaModule } from "./node-llama.js";

/**
 * Tool results that are text go into the prompt as they are, the way the models' own chat
 * templates render a tool message's content (node-llama-cpp's default writes every result as
 * JSON, turning a multi-line result into one quoted line of `\n` escapes).
 */
export function rawStringResults(wrapper: ChatWrapper): void {
  const internal = wrapper as unknown as {
    _generateFunctionCallResult?: ChatWrapper["generateFunctionCallResult"];
  };
  const raw = internal._generateFunctionCallResult;
  if (typeof raw !== "function") return;
  const original = wrapper.generateFunctionCallResult.bind(wrapper);
  wrapper.generateFunctionCallResult = (name, params, result) =>
    typeof result === "string"
      ? raw.call(wrapper, name, params, result)
      : original(name, params, result);
}

/** An assistant turn with nothing in it, in ChatML (Qwen and other `<|im_start|>` templates). */
const EMPTY_CHATML_TURN = "<|im_start|>assistant\n<|im_end|>\n";

/**
 * node-llama-cpp's ChatML-style wrappers open the assistant's turn right after tool results
 * (the model usually goes on there). When the next message is the user's instead (spillway's
 * per-turn notice), that left an empty assistant turn in the prompt, which the model's own
 * template never renders, and which teaches a model from its own history to answer nothing
 * after a tool result. Such empty turns are removed.
 */
export function noEmptyTurnAfterResults(wrapper: ChatWrapper, module: NodeLlamaModule): void {
  const original = wrapper.generateContextState.bind(wrapper);
  wrapper.generateContextState = (options) => {
    const state = original(options);
    const contextText = state.contextText.mapValues((value) =>
      value instanceof module.SpecialTokensText && value.value.includes(EMPTY_CHATML_TURN)
        ? new module.SpecialTokensText(value.value.replaceAll(EMPTY_CHATML_TURN, ""))
        : value,
    );
    return { ...state, contextText };
  };
}

/**
 * Applies both corrections to a chat wrapper instance (in place).
 *
 * @example
 * fixChatWrapper(chat.chatWrapper, await importNodeLlama());
 */
export function fixChatWrapper(wrapper: ChatWrapper, module: NodeLlamaModule): void {
  rawStringResults(wrapper);
  noEmptyTurnAfterResults(wrapper, module);
}

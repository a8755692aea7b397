import { describe, expect, it } from "vitest";
import { fixChatWrapper } from "./chat-wrapper-fixes.js";
import { importNodeLlama } from "./node-llama.js";

describe("fixChatWrapper (Qwen2.5's ChatML template)", () => {
  it("renders a text tool result raw and leaves no empty assistant turn before the next user message", async () => {
    const module = await importNodeLlama();
    const wrapper = new module.QwenChatWrapper();
    fixChatWrapper(wrapper, module);
    const { contextText } = wrapper.generateContextState({
      chatHistory: [
        { type: "user", text: "Find the error." },
        {
          type: "model",
          response: [
            {
              type: "functionCall",
              name: "grep",
              params: { pattern: "ERROR" },
              result: '7: ERROR "disk full"\n9: ERROR again',
              startsNewChunk: true,
            },
          ],
        },
        { type: "user", text: "# System Notice" },
        { type: "model", response: [] },
      ],
      availableFunctions: { grep: { description: "search", params: { type: "object" } } },
    });
    const text = contextText.toString();
    expect(text).toContain(
      '<tool_response>\n7: ERROR "disk full"\n9: ERROR again\n</tool_response><|im_end|>\n<|im_start|>user\n# System Notice<|im_end|>\n<|im_start|>assistant\n',
    );
    expect(text).not.toContain("<|im_start|>assistant\n<|im_end|>");
  });
});

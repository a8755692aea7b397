import type { LanguageModelV3GenerateResult, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { callModel, type ModelRequest } from "./model-caller.js";
import type { ModelTarget } from "./models.js";

/**
 * A reply is limited to the tokens the projection reserved for it. Without a limit a small
 * local model that loops inside its report's string wrote until its context was full (the
 * triage report turn that did not end in 12+ minutes).
 */
const target: ModelTarget = {
  ref: "openai/mock",
  provider: "openai",
  model: "mock",
  contextWindow: 8_192,
  maxOutputTokens: 321,
  tokenizer: "o200k_base",
};

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};

const generated: LanguageModelV3GenerateResult = {
  content: [{ type: "text", text: "done" }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
};

function streamed(): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "done" },
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
  ];
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

const request: ModelRequest = {
  system: "s",
  messages: [{ role: "user", content: "hi" }],
  tools: [],
};

describe("callModel: the reply's length limit", () => {
  for (const stream of [false, true]) {
    const mode = stream ? "streamed" : "generated";

    it(`${mode}: defaults to the serving model's maxOutputTokens`, async () => {
      const model = new MockLanguageModelV3({
        doGenerate: generated,
        doStream: () => Promise.resolve({ stream: streamed() }),
      });
      const reply = await callModel([target], { ...request, stream }, { createModel: () => model });
      expect(reply.text).toBe("done");
      const calls = stream ? model.doStreamCalls : model.doGenerateCalls;
      expect(calls).toHaveLength(1);
      expect(calls[0]!.maxOutputTokens).toBe(321);
    });

    it(`${mode}: a request's own limit wins over the model's`, async () => {
      const model = new MockLanguageModelV3({
        doGenerate: generated,
        doStream: () => Promise.resolve({ stream: streamed() }),
      });
      await callModel(
        [target],
        { ...request, stream, maxOutputTokens: 40 },
        { createModel: () => model },
      );
      const calls = stream ? model.doStreamCalls : model.doGenerateCalls;
      expect(calls[0]!.maxOutputTokens).toBe(40);
    });
  }

  it("each model of a fallback list gets its own limit", async () => {
    const failing = new MockLanguageModelV3({
      doGenerate: () => Promise.reject(new Error("connection reset")),
    });
    const serving = new MockLanguageModelV3({ doGenerate: generated });
    const fallback: ModelTarget = { ...target, ref: "openai/mock-2", maxOutputTokens: 99 };
    const reply = await callModel([target, fallback], request, {
      createModel: (t) => (t.ref === target.ref ? failing : serving),
      retry: { attempts: 1, backoffMs: 1 },
    });
    expect(reply.target.ref).toBe("openai/mock-2");
    expect(failing.doGenerateCalls[0]!.maxOutputTokens).toBe(321);
    expect(serving.doGenerateCalls[0]!.maxOutputTokens).toBe(99);
  });
});

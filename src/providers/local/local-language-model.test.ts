import { generateText, jsonSchema, type ToolSet, tool } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import { isSpillwayError } from "../../core/errors.js";
import { callModel } from "../model-caller.js";
import type { ModelTarget } from "../models.js";
import { DEFAULT_LOCAL_MODEL } from "./catalog.js";
import { LocalLanguageModel } from "./local-language-model.js";
import { disposeLocalRuntimes } from "./local-runtime.js";
import { resolveModelFile } from "./model-files.js";

/**
 * The provider against the REAL local test model (Qwen2.5-Coder 1.5B Instruct Q4_K_M,
 * assembled by `npm run model:fetch`, which CI runs). Without the file these tests are
 * skipped and say why.
 */
function modelPresent(): boolean {
  try {
    resolveModelFile(DEFAULT_LOCAL_MODEL);
    return true;
  } catch {
    return false;
  }
}

const present = modelPresent();
if (!present) {
  console.log(
    `local model tests skipped: ${DEFAULT_LOCAL_MODEL} is not on this machine; run \`npm run model:fetch\` to assemble it`,
  );
}

const target: ModelTarget = {
  ref: `local/${DEFAULT_LOCAL_MODEL}`,
  provider: "local",
  model: DEFAULT_LOCAL_MODEL,
  contextWindow: 2048,
  maxOutputTokens: 64,
  tokenizer: "o200k_base",
};

const readLog = {
  name: "read_log",
  description: "Return the lines of the application log that match a pattern.",
  inputSchema: {
    type: "object",
    properties: { pattern: { type: "string", description: "text to search for" } },
    required: ["pattern"],
  },
};

describe("local model provider: errors without a model", () => {
  it("a missing model file fails the call naming the file and how to get it, without retries", async () => {
    const missing = { ...target, ref: "local/./no/such/model.gguf", model: "./no/such/model.gguf" };
    const error = await callModel(
      [missing],
      { system: "s", messages: [{ role: "user", content: "hi" }], tools: [] },
      { retry: { attempts: 3, backoffMs: 1 } },
    ).catch((e: unknown) => e);
    expect(isSpillwayError(error, "MODEL_UNAVAILABLE")).toBe(true);
    const attempts = (error as { details: { attempts: unknown[] } }).details.attempts;
    expect(attempts).toHaveLength(1);
    expect((error as Error).message).toContain("no/such/model.gguf does not exist");
    expect((error as Error).message).toContain("spillway models pull");
  });
});

/** Model calls on a busy 2-core machine take minutes; idle, seconds (no timing is asserted). */
const REAL_MODEL_TIMEOUT = 900_000;

describe.skipIf(!present)(`local model provider with ${DEFAULT_LOCAL_MODEL}`, () => {
  afterAll(() => disposeLocalRuntimes());

  it(
    "calls a tool natively (or as recovered JSON), counts real tokens, and reuses the shared prefix",
    async () => {
      const request = {
        system: "You are a log assistant. Always use the tools to read the log.",
        messages: [
          {
            role: "user" as const,
            content: "Find the lines of the log that contain ERROR.",
          },
        ],
        tools: [readLog],
      };
      const first = await callModel([target], request);
      expect(first.target.ref).toBe(target.ref);
      expect(first.toolCalls).toHaveLength(1);
      const call = first.toolCalls[0]!;
      expect(call.toolName).toBe("read_log");
      expect(call.invalid).toBeUndefined();
      expect(call.args).toMatchObject({ pattern: expect.any(String) });
      expect(first.finishReason).toBe("tool-calls");
      expect(first.usage.inputTokens).toBeGreaterThan(50);
      expect(first.usage.outputTokens).toBeGreaterThan(0);

      // The next turn: the same prefix plus the call and its result, streamed this time.
      const model = new LocalLanguageModel(DEFAULT_LOCAL_MODEL, { contextSize: 2048 });
      const second = await generateText({
        model,
        system: request.system,
        messages: [
          ...request.messages,
          {
            role: "assistant",
            content: [
              {
                type: "tool-call",
                toolCallId: call.toolCallId,
                toolName: "read_log",
                input: call.args,
              },
            ],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: call.toolCallId,
                toolName: "read_log",
                output: {
                  type: "text",
                  value:
                    '4812: 2026-03-14T09:26:01Z ERROR [payment-svc] msg="gateway timeout code=PG-7731"',
                },
              },
            ],
          },
          { role: "user", content: "Answer in one sentence: which error code did the log show?" },
        ],
        tools: {
          read_log: tool({
            description: readLog.description,
            inputSchema: jsonSchema(readLog.inputSchema as Parameters<typeof jsonSchema>[0]),
          }),
        },
        maxOutputTokens: 48,
      });
      expect(second.usage.inputTokens).toBeGreaterThan(first.usage.inputTokens);
      // The prefix evaluated by the first call was not evaluated again.
      expect(second.usage.inputTokenDetails.cacheReadTokens).toBeGreaterThan(50);
      expect(second.text).toContain("PG-7731");
    },
    REAL_MODEL_TIMEOUT,
  );

  it(
    "toolChoice required: the reply is a call (started by the provider) carrying what the model read",
    async () => {
      const finalReport = {
        name: "agent__final_report",
        description: "Deliver your complete answer to the task.",
        inputSchema: {
          type: "object",
          properties: { report: { type: "string", description: "your complete answer" } },
          required: ["report"],
        },
      };
      const reply = await callModel([target], {
        system: "You are a log assistant.",
        messages: [
          {
            role: "user",
            content:
              'Which error code did the payment gateway return? The log search found: 4812: ERROR [payment-svc] msg="gateway timeout code=PG-7731"',
          },
        ],
        tools: [finalReport],
        toolChoice: "required",
      });
      expect(reply.toolCalls).toHaveLength(1);
      expect(reply.toolCalls[0]!.toolName).toBe("agent__final_report");
      expect(reply.toolCalls[0]!.invalid).toBeUndefined();
      expect(String((reply.toolCalls[0]!.args as { report: unknown }).report)).toContain("PG-7731");
      // A report that runs on to the reply's limit is still read; the reply then says `length`.
      expect(reply.finishReason).toMatch(/^(tool-calls|length)$/);
    },
    REAL_MODEL_TIMEOUT,
  );

  it(
    "a named tool choice keeps every tool in the prompt (the cached prefix holds) and the reply calls the named tool",
    async () => {
      const model = new LocalLanguageModel(DEFAULT_LOCAL_MODEL, { contextSize: 2048 });
      const tools: ToolSet = {
        read_log: tool({
          description: readLog.description,
          inputSchema: jsonSchema(readLog.inputSchema as Parameters<typeof jsonSchema>[0]),
        }),
        agent__final_report: tool({
          description: "Deliver your complete answer to the task.",
          inputSchema: jsonSchema({
            type: "object",
            properties: { report: { type: "string", description: "your complete answer" } },
            required: ["report"],
          }),
        }),
      };
      const request = {
        model,
        system: "You are a log assistant. Use the tools.",
        messages: [
          {
            role: "user" as const,
            content:
              'Which error code did the payment gateway return? The log search found: 4812: ERROR [payment-svc] msg="gateway timeout code=PG-7731"',
          },
        ],
        tools,
      };
      const first = await generateText({ ...request, maxOutputTokens: 48 });
      const last = await generateText({
        ...request,
        toolChoice: { type: "tool", toolName: "agent__final_report" },
        maxOutputTokens: 96,
      });
      expect(last.toolCalls.map((c) => c.toolName)).toEqual(["agent__final_report"]);
      expect(String((last.toolCalls[0]!.input as { report: unknown }).report)).toContain("PG-7731");
      // The same prompt as the call before, tools included: evaluated once, read from the cache.
      // (With only the named tool rendered, the system prompt changed after its first line.)
      expect(last.usage.inputTokenDetails.cacheReadTokens).toBeGreaterThan(
        0.8 * (first.usage.inputTokens ?? 0),
      );
    },
    REAL_MODEL_TIMEOUT,
  );

  it(
    "stops promptly when aborted, with ABORTED",
    async () => {
      const controller = new AbortController();
      let chunks = 0;
      const model = new LocalLanguageModel(DEFAULT_LOCAL_MODEL, { contextSize: 2048 });
      const { stream } = await model.doStream({
        prompt: [
          {
            role: "user",
            content: [{ type: "text", text: "Count from 1 to 500, one number per line." }],
          },
        ],
        maxOutputTokens: 400,
        abortSignal: controller.signal,
      });
      const parts: string[] = [];
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value.type);
        if (value.type === "error") {
          expect(isSpillwayError(value.error, "ABORTED")).toBe(true);
          continue;
        }
        if (value.type === "text-delta" && ++chunks === 5) controller.abort();
      }
      expect(parts).toContain("error");
      expect(parts).not.toContain("finish");
    },
    REAL_MODEL_TIMEOUT,
  );
});

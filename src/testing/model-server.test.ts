import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  APICallError,
  generateText,
  InvalidToolInputError,
  jsonSchema,
  type ModelMessage,
  streamText,
  type ToolSet,
  tool,
} from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { countTokens } from "../core/tokens.js";
import {
  type ScriptedModelServer,
  type ScriptedModelServerOptions,
  startScriptedModelServer,
} from "./model-server.js";
import {
  finalText,
  findOutputIds,
  lastMessage,
  textOf,
  toolCall,
  toolMessages,
  toolNames,
} from "./policy-helpers.js";

const tools = {
  echo: tool({
    description: "Echo a text back.",
    inputSchema: jsonSchema<{ text: string }>({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    }),
  }),
  generate_output: tool({
    description: "Generate an output of some bytes.",
    inputSchema: jsonSchema<{ bytes: number; kind: string }>({
      type: "object",
      properties: { bytes: { type: "number" }, kind: { type: "string" } },
      required: ["bytes", "kind"],
    }),
  }),
  // `satisfies`: a tool without execute infers Tool<INPUT, never>, which is not assignable to
  // ToolSet under exactOptionalPropertyTypes unless the object is typed in context.
} satisfies ToolSet;

const servers: ScriptedModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function setup(options: ScriptedModelServerOptions) {
  const server = await startScriptedModelServer(options);
  servers.push(server);
  const provider = createOpenAICompatible({
    name: "scripted",
    baseURL: server.baseURL,
    apiKey: "test",
    includeUsage: true,
  });
  return { server, model: provider(server.modelId) };
}

describe("scripted model server driven by the AI SDK", () => {
  it("answers generateText with text, honest usage and scripted markers", async () => {
    const { server, model } = await setup({ scenario: [finalText("Hello from the script.")] });
    const result = await generateText({
      model,
      system: "You are terse.",
      prompt: "Say hi.",
      maxRetries: 0,
    });

    expect(result.text).toBe("Hello from the script.");
    expect(result.finishReason).toBe("stop");
    expect(result.toolCalls).toEqual([]);
    expect(result.usage.inputTokens).toBe(await countTokens("You are terse.\nSay hi."));
    expect(result.usage.outputTokens).toBe(await countTokens("Hello from the script."));
    expect(result.usage.totalTokens).toBe(
      (result.usage.inputTokens ?? 0) + (result.usage.outputTokens ?? 0),
    );
    expect(result.response.modelId).toBe("scripted-policy");
    expect(result.response.headers?.["x-spillway-scripted"]).toBe("true");
    expect(result.response.body).toMatchObject({ system_fingerprint: "spillway-scripted" });
    expect(server.failures).toEqual([]);
  });

  it("delivers tool calls with parsed input to generateText", async () => {
    const { server, model } = await setup({
      scenario: [
        {
          text: "Calling two tools.",
          toolCalls: [
            { name: "echo", arguments: { text: "ping" } },
            { id: "call_custom", name: "generate_output", arguments: { bytes: 2048, kind: "log" } },
          ],
        },
      ],
    });
    const result = await generateText({ model, prompt: "go", tools, maxRetries: 0 });

    expect(result.finishReason).toBe("tool-calls");
    expect(result.text).toBe("Calling two tools.");
    expect(
      result.toolCalls.map(({ toolCallId, toolName, input, invalid }) => ({
        toolCallId,
        toolName,
        input,
        invalid,
      })),
    ).toEqual([
      { toolCallId: "call_0_0", toolName: "echo", input: { text: "ping" }, invalid: undefined },
      {
        toolCallId: "call_custom",
        toolName: "generate_output",
        input: { bytes: 2048, kind: "log" },
        invalid: undefined,
      },
    ]);
    expect(server.requests[0]?.stream).not.toBe(true);
    expect(toolNames(server.requests[0]!)).toEqual(["echo", "generate_output"]);
  });

  it("streams text and tool calls split across chunks to streamText", async () => {
    const longText = "Streaming works: 流式输出 🌊 in several deltas.";
    const { server, model } = await setup({
      scenario: [
        { text: longText, toolCalls: [{ name: "echo", arguments: { text: "x".repeat(200) } }] },
      ],
    });
    const result = streamText({ model, prompt: "go", tools, maxRetries: 0 });
    const deltas: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") deltas.push(part.text);
    }

    expect(deltas.length).toBeGreaterThan(1);
    expect(await result.text).toBe(longText);
    const calls = await result.toolCalls;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      toolCallId: "call_0_0",
      toolName: "echo",
      input: { text: "x".repeat(200) },
    });
    expect(calls[0]?.invalid).toBeUndefined();
    expect(await result.finishReason).toBe("tool-calls");
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(await countTokens("go"));
    expect(usage.outputTokens).toBe(
      await countTokens(`${longText}\necho\n{"text":"${"x".repeat(200)}"}`),
    );
    expect(server.requests[0]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("surfaces an error reply as an APICallError with its status and message", async () => {
    const { model } = await setup({
      scenario: [{ error: { status: 503, message: "scripted overload" } }],
    });
    const failure = await generateText({ model, prompt: "go", maxRetries: 0 }).catch(
      (error: unknown) => error,
    );

    expect(APICallError.isInstance(failure)).toBe(true);
    const apiError = failure as APICallError;
    expect(apiError.statusCode).toBe(503);
    expect(apiError.message).toBe("scripted overload");
    expect(apiError.isRetryable).toBe(true);
  });

  it("lets the AI SDK retry past an error reply to the next scripted reply", async () => {
    const { server, model } = await setup({
      scenario: [
        { error: { status: 429, message: "slow down", retryAfterMs: 20 } },
        finalText("second try"),
      ],
    });
    const started = Date.now();
    const result = await generateText({ model, prompt: "go", maxRetries: 1 });

    expect(result.text).toBe("second try");
    expect(Date.now() - started).toBeLessThan(1_500); // retry-after-ms beat the 2 s default backoff
    expect(server.requests).toHaveLength(2);
  });

  it.each([false, true])(
    "turns malformed arguments into an invalid tool call (stream: %s)",
    async (stream) => {
      const malformed = '{"text": "unterminated';
      const { model } = await setup({ scenario: [toolCall("echo", malformed)] });
      const options = { model, prompt: "go", tools, maxRetries: 0 } as const;
      const result = stream ? streamText(options) : await generateText(options);
      const calls = await result.toolCalls;
      const content = await result.content;

      // AI SDK v6: a dynamic, invalid tool call carrying the raw string, plus a tool-error part.
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        toolName: "echo",
        input: malformed,
        dynamic: true,
        invalid: true,
      });
      expect(InvalidToolInputError.isInstance(calls[0]?.error)).toBe(true);
      expect(content.find((part) => part.type === "tool-error")).toMatchObject({
        toolCallId: "call_0_0",
        toolName: "echo",
        input: malformed,
        error: expect.stringContaining("JSON parsing failed"),
      });
    },
  );

  it("runs a respond policy that reads the previous tool result from the request", async () => {
    const { server, model } = await setup({
      respond: (request, { callIndex }) => {
        const last = lastMessage(request);
        if (last.role !== "tool")
          return toolCall("generate_output", { bytes: 10_000_000, kind: "log" });
        const ids = findOutputIds(textOf(last));
        return finalText(`call ${callIndex} read ${ids[0] ?? "nothing"}`);
      },
    });
    const messages: ModelMessage[] = [{ role: "user", content: "make a big log" }];
    const first = await generateText({ model, messages, tools, maxRetries: 0 });
    const call = first.toolCalls[0]!;
    const handle = "out_0123456789abcdefghjkmnpqrs";
    messages.push(...first.response.messages, {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: { type: "text", value: `Stored whole as ${handle} (10 MB).` },
        },
      ],
    });
    const second = await generateText({ model, messages, tools, maxRetries: 0 });

    expect(second.text).toBe(`call 1 read ${handle}`);
    const recorded = server.requests[1]!;
    expect(recorded.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(recorded.messages[1]).toMatchObject({
      role: "assistant",
      tool_calls: [
        {
          id: "call_0_0",
          type: "function",
          function: { name: "generate_output", arguments: '{"bytes":10000000,"kind":"log"}' },
        },
      ],
    });
    expect(toolMessages(recorded)).toEqual([
      {
        toolCallId: "call_0_0",
        toolName: "generate_output",
        text: `Stored whole as ${handle} (10 MB).`,
      },
    ]);
  });

  it("answers 500 with a clear message when the scenario runs out, and records it", async () => {
    const { server, model } = await setup({ scenario: [finalText("only one")] });
    await generateText({ model, prompt: "1", maxRetries: 0 });
    const failure = await generateText({ model, prompt: "2", maxRetries: 0 }).catch(
      (error: unknown) => error,
    );

    expect(APICallError.isInstance(failure)).toBe(true);
    expect((failure as APICallError).statusCode).toBe(500);
    expect((failure as APICallError).message).toMatch(/scenario ran out.*request #1.*only 1 reply/);
    expect(server.failures).toEqual([
      expect.objectContaining({ callIndex: 1, status: 500, code: "scenario_exhausted" }),
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it("abandons a delayed reply when the client aborts", async () => {
    let signalSeen: AbortSignal | undefined;
    const { server, model } = await setup({
      respond: (_request, { signal }) => {
        signalSeen = signal;
        return { text: "too late", delayMs: 30_000 };
      },
    });
    const started = Date.now();
    const failure = await generateText({
      model,
      prompt: "go",
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(200),
    }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(() => signalSeen?.aborted).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

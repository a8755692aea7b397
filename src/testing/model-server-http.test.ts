import { afterEach, describe, expect, it } from "vitest";
import { splitText } from "./chat-response.js";
import { type ScriptedModelServer, startScriptedModelServer } from "./model-server.js";
import { finalText, findOutputIds, textOf, toolCall, toolNames } from "./policy-helpers.js";
import { resolveReply } from "./scripted-reply.js";

const servers: ScriptedModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Parameters<typeof startScriptedModelServer>[0]) {
  const server = await startScriptedModelServer(options);
  servers.push(server);
  return server;
}

function post(server: ScriptedModelServer, body: unknown): Promise<Response> {
  return fetch(`${server.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const hello = { model: "scripted-policy", messages: [{ role: "user", content: "hi" }] };

/** The JSON payloads of an SSE body, and whether it ended with [DONE]. */
function sseEvents(body: string): { chunks: Record<string, unknown>[]; done: boolean } {
  const data = body
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length));
  return {
    chunks: data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d) as Record<string, unknown>),
    done: data.at(-1) === "[DONE]",
  };
}

describe("scripted model server over raw HTTP", () => {
  it("serves a non-streaming completion in the OpenAI shape", async () => {
    const server = await start({ scenario: [toolCall("echo", { text: "hi" }, "call_a")] });
    const response = await post(server, hello);
    const body = (await response.json()) as Record<string, unknown>;

    expect(response.status).toBe(200);
    expect(response.headers.get("x-spillway-scripted")).toBe("true");
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "scripted-policy",
      system_fingerprint: "spillway-scripted",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_a",
                type: "function",
                function: { name: "echo", arguments: '{"text":"hi"}' },
              },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 1,
        completion_tokens: expect.any(Number),
        total_tokens: expect.any(Number),
      },
    });
  });

  it("streams tool calls as an id/name chunk then argument fragments, a finish chunk and [DONE]", async () => {
    const server = await start({
      scenario: [toolCall("echo", { text: "a fairly long argument value" }), finalText("plain")],
    });
    const streamed = await post(server, {
      ...hello,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const { chunks, done } = sseEvents(await streamed.text());
    const toolDeltas = chunks.flatMap((chunk) => {
      const choice = (chunk.choices as { delta?: { tool_calls?: unknown[] } }[])[0];
      return choice?.delta?.tool_calls ?? [];
    }) as { id?: string; type?: string; function: { name?: string; arguments: string } }[];

    expect(done).toBe(true);
    expect(toolDeltas[0]).toMatchObject({
      id: "call_0_0",
      type: "function",
      function: { name: "echo" },
    });
    expect(toolDeltas.length).toBeGreaterThan(2);
    expect(toolDeltas.slice(1).every((delta) => delta.id === undefined)).toBe(true);
    expect(toolDeltas.map((delta) => delta.function.arguments).join("")).toBe(
      '{"text":"a fairly long argument value"}',
    );
    expect(chunks.at(-2)).toMatchObject({ choices: [{ finish_reason: "tool_calls" }] });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 1 } });
    expect(chunks.every((chunk) => chunk.system_fingerprint === "spillway-scripted")).toBe(true);

    // Without include_usage there is no usage chunk.
    const plain = sseEvents(await (await post(server, { ...hello, stream: true })).text());
    expect(plain.chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: "stop" }] });
    expect(plain.chunks.some((chunk) => "usage" in chunk)).toBe(false);
  });

  it("answers 400 with a clear message for a malformed body and records it", async () => {
    const server = await start({ scenario: [] });
    const notJson = await post(server, "{not json");
    const noMessages = await post(server, { model: "scripted-policy", messages: "hi" });

    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toMatch(
      /^Request body is not valid JSON/,
    );
    expect(noMessages.status).toBe(400);
    const message = ((await noMessages.json()) as { error: { message: string } }).error.message;
    expect(message).toContain("Invalid Chat Completions request body");
    expect(message).toContain("messages");
    expect(server.requests).toEqual([]);
    expect(server.failures.map((failure) => failure.code)).toEqual([
      "invalid_request",
      "invalid_request",
    ]);
  });

  it("reports scenario exhaustion with status 500 and a body that says so", async () => {
    const server = await start({ scenario: [] });
    const response = await post(server, hello);
    const body = (await response.json()) as { error: { message: string; code: string } };

    expect(response.status).toBe(500);
    expect(body.error.code).toBe("scenario_exhausted");
    expect(body.error.message).toContain("the scenario ran out");
    expect(server.failures).toHaveLength(1);
  });

  it("answers 500 when the respond policy throws", async () => {
    const server = await start({
      respond: () => {
        throw new Error("policy bug");
      },
    });
    const response = await post(server, hello);

    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      "policy bug",
    );
    expect(server.failures[0]?.code).toBe("responder_failed");
  });

  it("lists the scripted model and refuses model ids that are not scripted", async () => {
    const server = await start({ scenario: [], modelId: "scripted-extractor" });
    const models = (await (await fetch(`${server.baseURL}/models`)).json()) as {
      data: { id: string }[];
    };
    const realModel = await post(server, { ...hello, model: "gpt-4o" });

    expect(models.data.map((model) => model.id)).toEqual(["scripted-extractor"]);
    expect(realModel.status).toBe(404);
    expect(server.requests).toEqual([]); // a refused model takes no scenario reply
    expect(server.failures[0]).toMatchObject({ callIndex: -1, code: "model_not_found" });
    await expect(startScriptedModelServer({ modelId: "gpt-4o" })).rejects.toThrow(
      /must contain "scripted"/,
    );
  });

  it("applies defaultDelayMs", async () => {
    const server = await start({ scenario: [finalText("late")], defaultDelayMs: 150 });
    const started = Date.now();
    await (await post(server, hello)).json();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe("policy helpers", () => {
  it("reads text from string and part contents", () => {
    expect(textOf({ role: "user", content: "plain" })).toBe("plain");
    expect(
      textOf({
        role: "user",
        content: [{ type: "text", text: "a" }, { type: "image_url" }, { type: "text", text: "b" }],
      }),
    ).toBe("ab");
    expect(textOf({ role: "assistant", content: null })).toBe("");
  });

  it("finds each output id once, in order", () => {
    const a = "out_0123456789abcdefghjkmnpqrs";
    const b = "out_zzzzzzzzzzzzzzzzzzzzzzzzzz";
    expect(findOutputIds(`see ${b}, then ${a} and ${b} again; out_short is not one`)).toEqual([
      b,
      a,
    ]);
  });

  it("lists declared tool names and builds replies", () => {
    expect(toolNames({ model: "m", messages: [] })).toEqual([]);
    expect(toolCall("echo", '{"bad"', "c1")).toEqual({
      toolCalls: [{ name: "echo", arguments: '{"bad"', id: "c1" }],
    });
    expect(resolveReply(toolCall("echo", { text: "x" }), 3)).toEqual({
      text: undefined,
      toolCalls: [{ id: "call_3_0", name: "echo", arguments: '{"text":"x"}' }],
      finishReason: "tool_calls",
    });
    expect(resolveReply(finalText("done"), 0).finishReason).toBe("stop");
  });

  it("splits text into pieces without cutting surrogate pairs", () => {
    const text = "🌊🌊🌊🌊🌊";
    const pieces = splitText(text, 3);
    expect(pieces.join("")).toBe(text);
    expect(pieces.every((piece) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(piece))).toBe(true);
    expect(pieces.length).toBeGreaterThan(1);
  });
});

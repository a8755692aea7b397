/**
 * spillway/ai with the real AI SDK (generateText, streamText) against the scripted
 * OpenAI-compatible server over HTTP. The scripted model is blind: it reads only what the
 * request shows it (the user's prompt, the tool results, the tool list).
 */
import { createHash } from "node:crypto";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedAiModel } from "../../test/helpers/scripted-ai-model.js";
import { tempDir } from "../../test/helpers/temp-store.js";
import {
  finalText,
  findOutputIds,
  generateOutputText,
  lastMessage,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import { spillwaySessionOf, spillwayTools } from "./spillway-tools.js";

const NEEDLE = "FATAL payment-gateway: card processor refused connection (code 7734)";
const LOG = generateOutputText({
  bytes: 20 * 1024 * 1024,
  kind: "log",
  needle: NEEDLE,
  needleAt: 0.5,
});

const fetchLogs = tool({
  description: "Fetch today's application log.",
  inputSchema: z.object({ service: z.string() }),
  execute: async ({ service }) => (service === "checkout" ? LOG.text : ""),
});

/**
 * A blind reader: calls fetch_logs, then greps the handle it is shown for the word the user
 * asked about, then answers with the first matching line it read. It never sees the log.
 */
const reader: Responder = (request) => {
  const prompt = textOf(request.messages.find((m) => m.role === "user")!);
  const word = /the (\w+) line/.exec(prompt)?.[1] ?? "ERROR";
  const results = toolMessages(request);
  const last = results.at(-1);
  if (!last) return toolCall("fetch_logs", { service: "checkout" });
  if (last.toolName === "fetch_logs") {
    const [id] = findOutputIds(last.text);
    if (!id) return finalText(`no handle; shown ${last.text.length} chars`);
    return toolCall("get_tool_output", { id, mode: "grep", pattern: word });
  }
  const line = last.text.split("\n").find((l) => /^\d+:\d+: /.test(l));
  return finalText(line ? `Found: ${line}` : `Nothing found: ${last.text.slice(0, 200)}`);
};

const needleLine = LOG.text.slice(0, LOG.needleByteOffset).split("\n").length;

describe("spillwayTools with the real AI SDK over HTTP", () => {
  it("generateText: a 20 MB result is stored whole, the model gets the handle and greps the needle in the middle", async () => {
    const { server, model } = await scriptedAiModel(reader);
    const home = await tempDir();
    const tools = spillwayTools(
      { fetch_logs: fetchLogs },
      { store: { home }, sessionId: "chat-1" },
    );
    const result = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(5),
      prompt: "Find the FATAL line in the checkout log and quote it.",
    });

    expect(result.text).toBe(`Found: ${needleLine}:1: ${NEEDLE}`);
    // The application still gets the whole result, typed.
    const first = result.steps[0]!.toolResults[0]!;
    expect(first.toolName).toBe("fetch_logs");
    expect(first.output).toBe(LOG.text);
    // The model was shown the handle message, not 20 MB.
    const shown = toolMessages(server.requests[1]!).at(-1)!.text;
    expect(shown.length).toBeLessThan(4000);
    expect(shown).toContain("is stored whole as out_");
    expect(shown).toContain('get_tool_output(id="out_');
    // Stored whole and exact.
    const session = spillwaySessionOf(tools)!;
    const store = await session.store();
    const [id] = findOutputIds(shown);
    const record = await store.get(id!, { sessionId: "chat-1" });
    expect(record.byteSize).toBe(LOG.byteLength);
    expect(record.sha256).toBe(createHash("sha256").update(LOG.text).digest("hex"));
    expect(record.toolArgs).toBe('{"service":"checkout"}');
    expect(server.failures).toEqual([]);
  });

  it("streamText: the same flow streams, and the tool-result part carries the whole output", async () => {
    const { server, model } = await scriptedAiModel(reader);
    const home = await tempDir();
    const result = streamText({
      model,
      tools: spillwayTools({ fetch_logs: fetchLogs }, { store: { home } }),
      stopWhen: stepCountIs(5),
      prompt: "Find the FATAL line in the checkout log and quote it.",
    });
    let wholeOutputs = 0;
    for await (const part of result.fullStream)
      if (part.type === "tool-result" && part.output === LOG.text) wholeOutputs++;
    expect(await result.text).toBe(`Found: ${needleLine}:1: ${NEEDLE}`);
    expect(wholeOutputs).toBe(1);
    expect(toolMessages(server.requests[1]!).at(-1)!.text).toContain("is stored whole as out_");
    expect(server.requests.every((r) => r.stream === true)).toBe(true);
  });

  it("a result that fits is shown as itself (the AI SDK's own JSON), and still stored", async () => {
    let shown = "";
    const { model } = await scriptedAiModel((request) => {
      const last = lastMessage(request);
      if (last.role !== "tool") return toolCall("lookup", { sku: "A-1" });
      shown = textOf(last);
      return finalText("ok");
    });
    const home = await tempDir();
    const lookup = tool({
      description: "Look up a product.",
      inputSchema: z.object({ sku: z.string() }),
      execute: async ({ sku }) => ({ sku, price: 12.5, tags: ["a", "b"] }),
    });
    const tools = spillwayTools({ lookup }, { store: { home }, sessionId: "small" });
    await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "price of A-1?" });
    expect(JSON.parse(shown)).toEqual({ sku: "A-1", price: 12.5, tags: ["a", "b"] });
    const records = await (await spillwaySessionOf(tools)!.store()).list({ sessionId: "small" });
    expect(records).toHaveLength(1);
    expect(records[0]!.kind).toBe("json");
  });

  it("search by the user's words, without an id, finds the line in every output of the session", async () => {
    // A blind reader that knows only the question: it searches the session with its words.
    const searcher: Responder = (request) => {
      const prompt = textOf(request.messages.find((m) => m.role === "user")!);
      const last = toolMessages(request).at(-1);
      if (!last) return toolCall("fetch_logs", { service: "checkout" });
      if (last.toolName === "fetch_logs")
        return toolCall("get_tool_output", { mode: "search", query: prompt, max_results: 3 });
      const line = last.text.split("\n").find((l) => /^\d+: /.test(l));
      return finalText(line ? `Found: ${line}` : `Nothing found: ${last.text.slice(0, 200)}`);
    };
    const { server, model } = await scriptedAiModel(searcher);
    const home = await tempDir();
    const tools = spillwayTools({ fetch_logs: fetchLogs }, { store: { home }, sessionId: "s-1" });
    const result = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(5),
      prompt: "Which line says the card processor refused the connection?",
    });
    expect(result.text).toBe(`Found: ${needleLine}: ${NEEDLE}`);
    const answer = toolMessages(server.requests[2]!).at(-1)!.text;
    expect(answer).toMatch(/^\[search of this session's 1 output for "Which line says/);
    expect(answer).toContain("[common words left out: which, the]");
    expect(server.failures).toEqual([]);
  });

  it("a malformed get_tool_output call goes back to the model as an error; the loop goes on", async () => {
    const seen: string[] = [];
    const { model } = await scriptedAiModel((request, { callIndex }) => {
      if (callIndex === 0) return toolCall("get_tool_output", { id: "out_nope", mode: "sideways" });
      if (callIndex === 1) {
        seen.push(textOf(lastMessage(request)));
        return toolCall("get_tool_output", { id: "out_0000000000000000000000000a", mode: "raw" });
      }
      seen.push(textOf(lastMessage(request)));
      return finalText("gave up");
    });
    const home = await tempDir();
    const result = await generateText({
      model,
      tools: spillwayTools({ fetch_logs: fetchLogs }, { store: { home } }),
      stopWhen: stepCountIs(4),
      prompt: "read",
    });
    expect(result.text).toBe("gave up");
    expect(seen[0]).toMatch(
      /^Error INVALID_TOOL_ARGUMENTS: Invalid get_tool_output arguments: mode/,
    );
    expect(seen[1]).toMatch(
      /^Error OUTPUT_NOT_FOUND: Unknown tool ID: out_0000000000000000000000000a/,
    );
  });
});
